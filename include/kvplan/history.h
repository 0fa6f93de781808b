// The run history: `kvplan ingest LOG...` reads start-up logs into it and
// `kvplan runs` lists it. IngestLogs and ListHistory compute; the Render
// functions print.
//
// The stored rows are plain structs of the store layer (store/stored_run.h,
// which needs only logs/run_record.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "store/stored_run.h"

namespace kvplan {

// One log ingested: its launches, and whether they were stored.
struct IngestedLog {
  std::string path;
  std::string content_hash;
  IngestOutcome outcome;
  std::vector<RunRecord> runs;
};

struct IngestRequest {
  std::string db;  // "" = the default path
  std::vector<std::string> logs;
  // Bytes read of the log at `path` (total: its size), as it is read.
  std::function<void(const std::string& path, int64_t bytes, int64_t total)> progress;
  // Called as each log is done, before the next is read.
  std::function<void(const IngestedLog& log)> done;
};

struct IngestResult {
  std::string db_path;
  std::vector<IngestedLog> logs;
};

// Throws InputError when the database or a log cannot be read (the logs
// before it are stored).
IngestResult IngestLogs(const IngestRequest& request);
// What `kvplan ingest` prints for one log.
std::string RenderIngestedLogText(const IngestedLog& log);

// `db` "" = the default path. Throws InputError when it cannot be opened.
HistoryListing ListHistory(const std::string& db, const RunFilter& filter);
std::string RenderHistoryText(const HistoryListing& listing);
// The JSON array of `kvplan runs --json` (indented, ends with a newline).
std::string RenderHistoryJson(const HistoryListing& listing);

}  // namespace kvplan
