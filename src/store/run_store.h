// The run history: every ingested launch in an embedded SQLite database.
//
// What the store guarantees (README, "kvplan ingest and kvplan runs"):
// - A log's runs are stored all together or not at all (one IMMEDIATE
//   transaction per log, synchronous=FULL: "stored" is said only once the
//   commit is on disk), and several ingests may run at once (WAL, busy timeout).
// - Ingest is idempotent by the log's SHA-256. A log that grew since it was
//   ingested (its first `bytes` bytes are exactly a stored log) is that log
//   growing: its stored runs are updated in place and new launches added.
// - It writes only to a database it recognises: kvplan's application_id (or
//   the tables of an older kvplan), a schema it knows, and a clean
//   quick_check. A damaged, foreign or newer database is refused, never
//   recreated. Reading opens read-only.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "store/stored_run.h"

struct sqlite3;

namespace kvplan {

enum class StoreAccess {
  kRead,   // the store must exist; opened read-only
  kWrite,  // created when missing (its directory must exist)
};

// A log as the store identifies it.
struct LogContent {
  std::string path;
  std::string sha256;  // of the whole log
  int64_t bytes = 0;
  // The SHA-256 of the log's first n bytes (0 < n < bytes), read again from
  // the log; null when not available (then growth is not recognised).
  std::function<std::string(int64_t n)> prefix_sha256;
  // The digest older kvplan versions stored (LegacyContentHasher) of the whole
  // log, read again; null when not available.
  std::function<std::string()> legacy_digest;
};

class RunStore {
 public:
  // Opens the database at `path`. Throws InputError (one line) when it is
  // missing (kRead), cannot be created (kWrite: no such directory), is
  // `:memory:`, damaged, of another application or of a newer schema.
  explicit RunStore(const std::string& path, StoreAccess access = StoreAccess::kWrite);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // $XDG_DATA_HOME/kvplan/runs.db, else ~/.local/share/kvplan/runs.db.
  static std::string DefaultPath();
  // `db` when given, else DefaultPath().
  static std::string ResolvePath(const std::string& db) { return db.empty() ? DefaultPath() : db; }

  bool created() const { return created_; }  // this open created the file
  // "nfs", "cifs", ... when the store is on a network filesystem, where
  // SQLite's locks are not reliable; "" on a local one.
  const std::string& network_filesystem() const { return network_fs_; }

  IngestOutcome Ingest(const LogContent& log, const std::vector<RunRecord>& runs);
  // A log known only by its digest (no growth or legacy recognition).
  IngestOutcome Ingest(const std::string& log_path, const std::string& content_hash, int64_t bytes,
                       const std::vector<RunRecord>& runs) {
    return Ingest(LogContent{log_path, content_hash, bytes, nullptr, nullptr}, runs);
  }

  // Oldest first.
  std::vector<StoredRun> List(const RunFilter& filter) const;
  // The same runs, oldest first, handed to `each` one at a time as SQLite
  // steps through them: memory stays flat in the number of runs.
  void ForEach(const RunFilter& filter, const std::function<void(const StoredRun&)>& each) const;

  // The most recently ingested successful run of `model` on the same
  // hardware (GPU name and TP size), not from the log `exclude_hash`.
  std::optional<StoredRun> LastGood(const RunRecord& like, const std::string& exclude_hash) const;

  int64_t CountRuns() const;
  int64_t CountLogs() const;

 private:
  void OpenFile(int flags, const std::string& name);
  void OpenForReading();
  void OpenForWriting();
  // Throws unless the database is a kvplan store this build can use; true
  // when it holds no table yet (a new file).
  bool CheckIsOurs(bool writing) const;
  void CheckIntegrity() const;
  void Exec(const char* sql) const;
  // Brings an older schema up to date without rewriting a row.
  void Migrate();
  // The stored log `log` grew from, if any (its whole content is log's start).
  std::optional<std::string> GrownFrom(const LogContent& log, const std::string& head,
                                       std::string* from_path) const;
  bool MatchLegacy(const LogContent& log, const std::vector<RunRecord>& runs,
                   const std::string& head);
  void InsertLog(const LogContent& log, const std::string& head, int64_t runs);
  void ExtendLog(const std::string& old_hash, const LogContent& log, const std::string& head);
  // Inserts or updates (same log, same launch) each run; counts each kind.
  void UpsertRuns(const std::string& log_hash, const std::vector<RunRecord>& runs,
                  IngestOutcome* out);
  sqlite3* db_ = nullptr;
  std::string path_;
  bool created_ = false;
  std::string network_fs_;
};

}  // namespace kvplan
