// A prepared SQLite statement that finalises itself (the store's .cc files only).
#pragma once

#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>

#include <fmt/core.h>

#include "kvplan/error.h"

namespace kvplan {

class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
    ++Prepared();
    if (sqlite3_prepare_v2(db, sql, -1, &stmt_, nullptr) != SQLITE_OK) {
      throw InputError(fmt::format("run database: {}", sqlite3_errmsg(db)));
    }
  }
  ~Stmt() { sqlite3_finalize(stmt_); }
  Stmt(const Stmt&) = delete;
  Stmt& operator=(const Stmt&) = delete;
  void Bind(int i, const std::string& v) {
    sqlite3_bind_text(stmt_, i, v.data(), static_cast<int>(v.size()), SQLITE_TRANSIENT);
  }
  void Bind(int i, int64_t v) { sqlite3_bind_int64(stmt_, i, v); }
  void Bind(int i, std::optional<double> v) {
    if (v) {
      sqlite3_bind_double(stmt_, i, *v);
    } else {
      sqlite3_bind_null(stmt_, i);
    }
  }
  void Bind(int i, std::optional<int64_t> v) {
    if (v) {
      sqlite3_bind_int64(stmt_, i, *v);
    } else {
      sqlite3_bind_null(stmt_, i);
    }
  }
  // True while a row is available.
  bool Step() {
    int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw InputError(fmt::format("run database: {}", sqlite3_errmsg(db_)));
  }
  std::string Text(int col) const {
    const unsigned char* t = sqlite3_column_text(stmt_, col);
    return t == nullptr ? std::string() : std::string(reinterpret_cast<const char*>(t));
  }
  int64_t Int(int col) const { return sqlite3_column_int64(stmt_, col); }
  std::optional<int64_t> OptInt(int col) const {
    if (sqlite3_column_type(stmt_, col) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_int64(stmt_, col);
  }
  std::optional<double> OptDouble(int col) const {
    if (sqlite3_column_type(stmt_, col) == SQLITE_NULL) return std::nullopt;
    return sqlite3_column_double(stmt_, col);
  }
  // Statements prepared by this process: a test counts them to catch a query
  // per run or per rank (quadratic work on a large store) without timing.
  static int64_t& Prepared() {
    static int64_t n = 0;
    return n;
  }
  // Ready to bind and step again.
  void Reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

}  // namespace kvplan
