// The run history: every ingested launch in an embedded SQLite database.
// Ingesting is idempotent by the log's content hash and safe when several
// ingests run at once (WAL journal, one IMMEDIATE transaction per log, a busy
// timeout): a log's runs are stored all together or not at all. Each run's
// record is kept whole as JSON; a few figures are also columns to query on
// (the decode ones since schema 2, added in place to older databases).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/stored_run.h"

struct sqlite3;

namespace kvplan {

class RunStore {
 public:
  // Opens (creating it and its directory when needed) the database at `path`.
  // Throws InputError when it cannot be opened or is not a kvplan database.
  explicit RunStore(const std::string& path);
  ~RunStore();
  RunStore(const RunStore&) = delete;
  RunStore& operator=(const RunStore&) = delete;

  // $XDG_DATA_HOME/kvplan/runs.db, else ~/.local/share/kvplan/runs.db.
  static std::string DefaultPath();
  // `db` when given, else DefaultPath().
  static std::string ResolvePath(const std::string& db) { return db.empty() ? DefaultPath() : db; }

  IngestOutcome Ingest(const std::string& log_path, const std::string& content_hash, int64_t bytes,
                       const std::vector<RunRecord>& runs);

  // Oldest first.
  std::vector<StoredRun> List(const RunFilter& filter) const;

  // The most recently ingested successful run of `model` on the same
  // hardware (GPU name and TP size), not from the log `exclude_hash`.
  std::optional<StoredRun> LastGood(const RunRecord& like, const std::string& exclude_hash) const;

  int64_t CountRuns() const;
  int64_t CountLogs() const;

 private:
  void Exec(const char* sql) const;
  // Brings an older schema up to date without rewriting a row.
  void Migrate();
  sqlite3* db_ = nullptr;
  std::string path_;
};

}  // namespace kvplan
