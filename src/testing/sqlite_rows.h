// Rows of an SQL query on a run store, for tests that count what was stored.
#pragma once

#include <sqlite3.h>

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace kvplan::testing {

// Rows of `sql` as text, "|"-joined columns, NULL as "NULL". Opens read-only,
// so a query never creates or converts the store it inspects; a store that
// cannot be opened gives the one row "cannot open".
inline std::vector<std::string> QueryRows(const std::string& db_path, const std::string& sql) {
  sqlite3* db = nullptr;
  if (sqlite3_open_v2(db_path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) {
    sqlite3_close(db);
    return {"cannot open"};
  }
  std::vector<std::string> rows;
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(db);
  while (st != nullptr && sqlite3_step(st) == SQLITE_ROW) {
    std::string row;
    for (int c = 0; c < sqlite3_column_count(st); ++c) {
      const unsigned char* t = sqlite3_column_text(st, c);
      if (c > 0) row.push_back('|');
      row.append(t ? reinterpret_cast<const char*>(t) : "NULL");
    }
    rows.push_back(row);
  }
  sqlite3_finalize(st);
  sqlite3_close(db);
  return rows;
}

}  // namespace kvplan::testing
