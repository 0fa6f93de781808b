#include "store/run_store.h"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <thread>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/run_record_json.h"

namespace kvplan {
namespace {

constexpr int kBusyTimeoutMs = 30000;

const char* kSchema = R"sql(
CREATE TABLE IF NOT EXISTS logs(
  hash TEXT PRIMARY KEY,
  path TEXT NOT NULL,
  bytes INTEGER NOT NULL,
  runs INTEGER NOT NULL,
  ingested_at TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs(
  id INTEGER PRIMARY KEY,
  log_hash TEXT NOT NULL REFERENCES logs(hash),
  launch_index INTEGER NOT NULL,
  engine TEXT NOT NULL,
  model TEXT NOT NULL,
  gpu TEXT NOT NULL,
  tp INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  record TEXT NOT NULL,
  UNIQUE(log_hash, launch_index));
CREATE INDEX IF NOT EXISTS runs_by_model ON runs(model, gpu, tp, outcome);
)sql";

// Schema 2 adds what a run measured while decoding, NULL for runs without decode
// reports and for runs stored before (their records hold none). Added with ALTER
// TABLE, so no row is rewritten; older kvplan builds still read and write the table.
constexpr int kSchemaVersion = 2;
struct AddedColumn {
  const char* name;
  const char* type;
};
constexpr AddedColumn kDecodeColumns[] = {
    {"decode_reports", "INTEGER"},  // decode reports counted
    {"decode_batch", "INTEGER"},    // the most common running-request count
    {"decode_tok_s", "REAL"},       // median tok/s at that count
    {"decode_accept_len", "REAL"},  // mean accept length (speculative decoding)
};

// A prepared statement that finalises itself.
class Stmt {
 public:
  Stmt(sqlite3* db, const char* sql) : db_(db) {
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

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

std::string NowUtc() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::vector<std::string> ColumnsOf(sqlite3* db, const char* table) {
  Stmt s(db, (std::string("PRAGMA table_info(") + table + ")").c_str());
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(1));
  return out;
}

int64_t TpOf(const RunRecord& r) {
  return r.SettingInt("tp_size", r.SettingInt("tensor_parallel_size", 1));
}

void BindDecode(Stmt& s, const DecodeSummary& d) {
  const DecodeBatchFigures* common = d.MostCommon();
  s.Bind(9, d.empty() ? std::nullopt : std::optional<int64_t>(d.samples));
  s.Bind(10, common ? std::optional<int64_t>(common->running_reqs) : std::nullopt);
  s.Bind(11, common ? std::optional<double>(common->median_tok_s) : std::nullopt);
  s.Bind(12, d.mean_accept_len);
}

StoredRun RowToRun(const Stmt& s) {
  StoredRun out;
  out.id = s.Int(0);
  out.log_hash = s.Text(1);
  out.log_path = s.Text(2);
  out.ingested_at = s.Text(3);
  try {
    out.record = RunRecordFromJson(nlohmann::json::parse(s.Text(4)));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("run database: run {} is not readable: {}", out.id, e.what()));
  }
  return out;
}

}  // namespace

std::string RunStore::DefaultPath() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/kvplan/runs.db";
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw InputError("neither XDG_DATA_HOME nor HOME is set; pass --db PATH for the run history");
  }
  return std::string(home) + "/.local/share/kvplan/runs.db";
}

RunStore::RunStore(const std::string& path) : path_(path) {
  std::filesystem::path dir = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (!dir.empty()) std::filesystem::create_directories(dir, ec);
  if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
      SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw InputError(fmt::format("cannot open run database {}: {}", path, why));
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  try {
    // Switching to WAL needs a moment alone with the file; other ingests may be
    // starting at the same time.
    for (int attempt = 0;; ++attempt) {
      int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
      if (rc == SQLITE_OK) break;
      if (rc != SQLITE_BUSY || attempt > 300) {
        throw InputError(
            fmt::format("run database {} is not usable: {}", path, sqlite3_errmsg(db_)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    Exec("PRAGMA synchronous=NORMAL");
    Exec("BEGIN IMMEDIATE");
    Exec(kSchema);
    Migrate();
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

void RunStore::Migrate() {
  // Inside the opening IMMEDIATE transaction: two processes opening an old
  // database at once add the columns once.
  std::vector<std::string> have = ColumnsOf(db_, "runs");
  for (const AddedColumn& c : kDecodeColumns) {
    if (std::find(have.begin(), have.end(), c.name) != have.end()) continue;
    Exec(fmt::format("ALTER TABLE runs ADD COLUMN {} {}", c.name, c.type).c_str());
  }
  Stmt v(db_, "PRAGMA user_version");
  v.Step();
  if (v.Int(0) < kSchemaVersion) {
    Exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str());
  }
}

RunStore::~RunStore() { sqlite3_close(db_); }

void RunStore::Exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err != nullptr ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw InputError(fmt::format("run database {}: {}", path_, why));
  }
}

IngestOutcome RunStore::Ingest(const std::string& log_path, const std::string& content_hash,
                               int64_t bytes, const std::vector<RunRecord>& runs) {
  IngestOutcome out;
  Exec("BEGIN IMMEDIATE");
  try {
    {
      Stmt seen(db_, "SELECT 1 FROM logs WHERE hash = ?");
      seen.Bind(1, content_hash);
      out.already_present = seen.Step();
    }
    if (!out.already_present) {
      Stmt log(db_, "INSERT INTO logs(hash, path, bytes, runs, ingested_at) VALUES(?,?,?,?,?)");
      log.Bind(1, content_hash);
      log.Bind(2, log_path);
      log.Bind(3, bytes);
      log.Bind(4, static_cast<int64_t>(runs.size()));
      log.Bind(5, NowUtc());
      log.Step();
      for (const RunRecord& r : runs) {
        Stmt run(db_,
                 "INSERT INTO runs(log_hash, launch_index, engine, model, gpu, tp, outcome, "
                 "record, decode_reports, decode_batch, decode_tok_s, decode_accept_len) "
                 "VALUES(?,?,?,?,?,?,?,?,?,?,?,?)");
        run.Bind(1, content_hash);
        run.Bind(2, static_cast<int64_t>(r.launch_index));
        run.Bind(3, r.engine);
        run.Bind(4, r.model);
        run.Bind(5, r.gpu_name);
        run.Bind(6, TpOf(r));
        run.Bind(7, r.outcome);
        run.Bind(8, DumpJson(ToJson(r)));
        BindDecode(run, r.decode);
        run.Step();
        ++out.runs_stored;
      }
    }
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  return out;
}

std::vector<StoredRun> RunStore::List(const RunFilter& filter) const {
  Stmt s(db_,
         "SELECT runs.id, runs.log_hash, logs.path, logs.ingested_at, runs.record FROM runs "
         "JOIN logs ON logs.hash = runs.log_hash "
         "WHERE (?1 = '' OR instr(lower(runs.model), lower(?1)) > 0) "
         "AND (?2 = 0 OR runs.outcome = 'failed') ORDER BY runs.id");
  s.Bind(1, filter.model);
  s.Bind(2, static_cast<int64_t>(filter.failed_only ? 1 : 0));
  std::vector<StoredRun> out;
  while (s.Step()) out.push_back(RowToRun(s));
  return out;
}

std::optional<StoredRun> RunStore::LastGood(const RunRecord& like,
                                            const std::string& exclude_hash) const {
  Stmt s(db_,
         "SELECT runs.id, runs.log_hash, logs.path, logs.ingested_at, runs.record FROM runs "
         "JOIN logs ON logs.hash = runs.log_hash "
         "WHERE runs.outcome = 'ok' AND runs.model = ? AND runs.gpu = ? AND runs.tp = ? "
         "AND runs.engine = ? AND runs.log_hash <> ? ORDER BY runs.id DESC LIMIT 1");
  s.Bind(1, like.model);
  s.Bind(2, like.gpu_name);
  s.Bind(3, TpOf(like));
  s.Bind(4, like.engine);
  s.Bind(5, exclude_hash);
  if (!s.Step()) return std::nullopt;
  return RowToRun(s);
}

int64_t RunStore::CountRuns() const {
  Stmt s(db_, "SELECT count(*) FROM runs");
  s.Step();
  return s.Int(0);
}

int64_t RunStore::CountLogs() const {
  Stmt s(db_, "SELECT count(*) FROM logs");
  s.Step();
  return s.Int(0);
}

}  // namespace kvplan
