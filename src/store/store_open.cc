// Opening the run store: which files it accepts, its schema and migrations,
// and the durability settings. Writing and querying are in run_store.cc.
#include <sys/statfs.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include <fmt/core.h>

#include "kvplan/error.h"
#include "store/run_store.h"
#include "store/sqlite_stmt.h"

namespace kvplan {
namespace {

constexpr int kBusyTimeoutMs = 30000;
// PRAGMA application_id of a kvplan run store: "kvpl". Stores written before
// schema 3 have 0 and are recognised by their tables.
constexpr int64_t kApplicationId = 0x6b76706c;

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
// reports and for runs stored before (their records hold none). Schema 3 keys
// logs by SHA-256: `digest` says which digest `hash` is ('legacy128' for the
// rows stored before, recognised by LegacyContentHasher until re-ingested),
// and `head_sha256` (of the first kHeadBytes) finds the log a grown log grew
// from. All added with ALTER TABLE, so no row is rewritten.
constexpr int kSchemaVersion = 3;
struct AddedColumn {
  const char* table;
  const char* name;
  const char* type;
};
constexpr AddedColumn kAddedColumns[] = {
    {"runs", "decode_reports", "INTEGER"},  // decode reports counted
    {"runs", "decode_batch", "INTEGER"},    // the most common running-request count
    {"runs", "decode_tok_s", "REAL"},       // median tok/s at that count
    {"runs", "decode_accept_len", "REAL"},  // mean accept length (speculative decoding)
    {"logs", "digest", "TEXT NOT NULL DEFAULT 'legacy128'"},
    {"logs", "head_sha256", "TEXT"},
};

// The columns every kvplan schema has had: a database without them is not a run store.
constexpr const char* kCoreColumns[][2] = {
    {"logs", "hash"},        {"logs", "path"},   {"logs", "bytes"},    {"logs", "runs"},
    {"logs", "ingested_at"}, {"runs", "id"},     {"runs", "log_hash"}, {"runs", "launch_index"},
    {"runs", "engine"},      {"runs", "model"},  {"runs", "gpu"},      {"runs", "tp"},
    {"runs", "outcome"},     {"runs", "record"},
};

std::vector<std::string> ColumnsOf(sqlite3* db, const char* table) {
  Stmt s(db, (std::string("PRAGMA table_info(") + table + ")").c_str());
  std::vector<std::string> out;
  while (s.Step()) out.push_back(s.Text(1));
  return out;
}

int64_t PragmaInt(sqlite3* db, const char* pragma) {
  Stmt s(db, (std::string("PRAGMA ") + pragma).c_str());
  return s.Step() ? s.Int(0) : 0;
}

// A file: URI for `path` ('%', '?' and '#' escaped).
std::string FileUri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      uri += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      uri += c;
    }
  }
  return uri;
}

// The filesystem type of the mount holding `dir` in /proc/self/mounts
// (statfs names FUSE only as FUSE; sshfs shows as "fuse.sshfs").
std::string MountType(const std::filesystem::path& dir) {
  std::ifstream mounts("/proc/self/mounts");
  std::string device, point, type, rest, best_type;
  size_t best = 0;
  std::string where = dir.string();
  while (mounts >> device >> point >> type && std::getline(mounts, rest)) {
    bool under = where.rfind(point, 0) == 0 &&
                 (where.size() == point.size() || point == "/" || where[point.size()] == '/');
    if (under && point.size() >= best) best = point.size(), best_type = type;
  }
  return best_type;
}

// Filesystems where SQLite's POSIX locks (and so WAL's shared memory) are not
// to be trusted: https://www.sqlite.org/howtocorrupt.html section 2.1.
std::string NetworkFilesystemOf(const std::string& db_path) {
  std::error_code ec;
  std::filesystem::path dir =
      std::filesystem::absolute(std::filesystem::path(db_path), ec).parent_path();
  struct statfs fs {};
  if (ec || ::statfs(dir.c_str(), &fs) != 0) return "";
  switch (static_cast<uint64_t>(fs.f_type)) {
    case 0x6969:
      return "nfs";
    case 0x517B:
      return "smb";
    case 0xFF534D42:
      return "cifs";
    case 0xFE534D42:
      return "smb2";
    case 0x01021997:
      return "9p";
    case 0x65735546: {  // FUSE: only sshfs is known to be remote
      std::string type = MountType(std::filesystem::weakly_canonical(dir, ec));
      return type.find("sshfs") != std::string::npos ? type : "";
    }
    default:
      return "";
  }
}

bool IsDefaultPath(const std::string& path) {
  try {
    return path == RunStore::DefaultPath();
  } catch (const InputError&) {
    return false;
  }
}

void RefuseInMemory(const std::string& path) {
  if (path.empty() || path == ":memory:" || path.rfind("file:", 0) == 0) {
    throw InputError(fmt::format(
        "run store '{}' must be a file path (an in-memory database loses the runs when kvplan "
        "exits)",
        path));
  }
}

}  // namespace

RunStore::RunStore(const std::string& path, StoreAccess access) : path_(path) {
  RefuseInMemory(path);
  try {
    if (access == StoreAccess::kRead) {
      OpenForReading();
    } else {
      OpenForWriting();
    }
  } catch (...) {
    sqlite3_close(db_);
    db_ = nullptr;
    throw;
  }
}

RunStore::~RunStore() { sqlite3_close(db_); }

void RunStore::OpenFile(int flags, const std::string& name) {
  sqlite3_close(db_);
  db_ = nullptr;
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    throw InputError(fmt::format("cannot open run store {}: {}", path_, why));
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
}

void RunStore::OpenForReading() {
  if (!std::filesystem::exists(path_)) {
    throw InputError(fmt::format(
        "no run store at {} (nothing was ingested there; check --db, or `kvplan ingest` first)",
        path_));
  }
  OpenFile(SQLITE_OPEN_READONLY, path_);
  // A WAL database read-only needs its -shm file; in a read-only directory
  // with no writer around none can be made, and the file cannot change, so
  // it is read as immutable.
  int rc = sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
  if ((rc & 0xff) == SQLITE_CANTOPEN || (rc & 0xff) == SQLITE_READONLY) {
    OpenFile(SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, FileUri(path_) + "?immutable=1");
  }
  if (CheckIsOurs(false)) {
    throw InputError(fmt::format("no run store at {} (an empty database)", path_));
  }
}

void RunStore::OpenForWriting() {
  std::filesystem::path file(path_);
  std::error_code ec;
  created_ = !std::filesystem::exists(file, ec);
  if (created_) {
    std::filesystem::path dir = std::filesystem::absolute(file, ec).parent_path();
    // The default store's own directory is kvplan's to make; any other
    // directory must exist, so a mistyped --db is an error, not a new store.
    if (IsDefaultPath(path_)) std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::is_directory(dir, ec)) {
      throw InputError(
          fmt::format("cannot create run store {}: no directory {}", path_, dir.string()));
    }
  }
  OpenFile(SQLITE_OPEN_READWRITE | (created_ ? SQLITE_OPEN_CREATE : 0), path_);
  bool fresh = CheckIsOurs(true);
  if (!fresh) CheckIntegrity();
  // Switching to WAL needs a moment alone with the file; other ingests may be
  // starting at the same time.
  for (int attempt = 0;; ++attempt) {
    int rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (rc == SQLITE_OK) break;
    if (rc != SQLITE_BUSY || attempt > 300) {
      throw InputError(fmt::format("run store {} is not usable: {}", path_, sqlite3_errmsg(db_)));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // FULL: each commit's WAL frames are synced before "stored" is printed, so a
  // power cut cannot take back a run kvplan said it stored (NORMAL could).
  // One fsync per log ingested costs nothing next to reading the log.
  Exec("PRAGMA synchronous=FULL");
  Exec("BEGIN IMMEDIATE");
  try {
    Exec(kSchema);
    Migrate();
    Exec("COMMIT");
  } catch (...) {
    sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    throw;
  }
  network_fs_ = NetworkFilesystemOf(path_);
}

bool RunStore::CheckIsOurs(bool writing) const {
  int64_t app = 0, version = 0;
  std::vector<std::string> tables;
  try {
    app = PragmaInt(db_, "application_id");
    version = PragmaInt(db_, "user_version");
    Stmt s(db_, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (s.Step()) tables.push_back(s.Text(0));
  } catch (const InputError& e) {
    throw InputError(
        fmt::format("{} is damaged or not a kvplan run store ({}); kvplan leaves it "
                    "as it is",
                    path_, sqlite3_errmsg(db_)));
  }
  if (app != 0 && app != kApplicationId) {
    throw InputError(fmt::format(
        "{} is another application's SQLite database (application_id {:#x}), not a kvplan run "
        "store; give another --db",
        path_, app));
  }
  if (version > kSchemaVersion) {
    throw InputError(fmt::format(
        "{} was written by a newer kvplan (run-store schema {}; this kvplan knows up to {}); "
        "use that kvplan or another --db",
        path_, version, kSchemaVersion));
  }
  if (tables.empty() && app == 0 && version == 0) return true;
  for (const auto& [table, column] : kCoreColumns) {
    std::vector<std::string> have = ColumnsOf(db_, table);
    if (std::find(have.begin(), have.end(), column) == have.end()) {
      throw InputError(fmt::format(
          "{} is not a kvplan run store (no column {}.{}); kvplan {} it; give another --db", path_,
          table, column, writing ? "will not write to" : "cannot read"));
    }
  }
  return false;
}

void RunStore::CheckIntegrity() const {
  std::string verdict;
  try {
    Stmt s(db_, "PRAGMA quick_check(1)");
    if (s.Step()) verdict = s.Text(0);
  } catch (const InputError&) {
    verdict = sqlite3_errmsg(db_);
  }
  if (verdict != "ok") {
    std::replace(verdict.begin(), verdict.end(), '\n', ' ');  // one line
    throw InputError(fmt::format(
        "run store {} is damaged (quick_check: {}); kvplan will not write to it: restore it from "
        "a backup or move it aside",
        path_, verdict));
  }
}

void RunStore::Migrate() {
  // Inside the opening IMMEDIATE transaction: two processes opening an old
  // database at once add the columns once.
  for (const AddedColumn& c : kAddedColumns) {
    std::vector<std::string> have = ColumnsOf(db_, c.table);
    if (std::find(have.begin(), have.end(), c.name) != have.end()) continue;
    Exec(fmt::format("ALTER TABLE {} ADD COLUMN {} {}", c.table, c.name, c.type).c_str());
  }
  if (PragmaInt(db_, "user_version") < kSchemaVersion) {
    Exec(fmt::format("PRAGMA user_version = {}", kSchemaVersion).c_str());
  }
  if (PragmaInt(db_, "application_id") != kApplicationId) {
    Exec(fmt::format("PRAGMA application_id = {}", kApplicationId).c_str());
  }
}

void RunStore::Exec(const char* sql) const {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &err) != SQLITE_OK) {
    std::string why = err != nullptr ? err : sqlite3_errmsg(db_);
    sqlite3_free(err);
    throw InputError(fmt::format("run store {}: {}", path_, why));
  }
}

std::string RunStore::DefaultPath() {
  const char* xdg = std::getenv("XDG_DATA_HOME");
  if (xdg != nullptr && *xdg != '\0') return std::string(xdg) + "/kvplan/runs.db";
  const char* home = std::getenv("HOME");
  if (home == nullptr || *home == '\0') {
    throw InputError("neither XDG_DATA_HOME nor HOME is set; pass --db PATH for the run history");
  }
  return std::string(home) + "/.local/share/kvplan/runs.db";
}

}  // namespace kvplan
