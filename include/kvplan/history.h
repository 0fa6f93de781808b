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

// One log ingested: its launches, and whether they were stored; or why
// nothing of it was (error: one line, naming the log).
struct IngestedLog {
  std::string path;
  std::string content_hash;
  IngestOutcome outcome;
  std::vector<RunRecord> runs;
  std::string error;
};

// The store ingest writes to, as opened.
struct OpenedStore {
  std::string db_path;
  bool created = false;    // this ingest created it
  std::string network_fs;  // "nfs", ... when on a network filesystem; "" otherwise
};

struct IngestRequest {
  std::string db;  // "" = the default path
  std::vector<std::string> logs;
  // Bytes read of the log at `path` (total: its size), as it is read.
  std::function<void(const std::string& path, int64_t bytes, int64_t total)> progress;
  // Called once the store is open, before the first log is read.
  std::function<void(const OpenedStore& store)> opened;
  // Called as each log is done, before the next is read.
  std::function<void(const IngestedLog& log)> done;
};

struct IngestResult {
  std::string db_path;
  std::vector<IngestedLog> logs;
  int failed = 0;  // logs with an error
};

// Reads every log; one that cannot be read or stored is reported in its
// IngestedLog::error and nothing of it is stored. Throws InputError when the
// store cannot be opened.
IngestResult IngestLogs(const IngestRequest& request);
// What `kvplan ingest` prints for one log (for a failed one: one line).
std::string RenderIngestedLogText(const IngestedLog& log);
// What `kvplan ingest` prints on opening the store ("" when nothing to say).
std::string RenderOpenedStoreText(const OpenedStore& store);
// The warning for a store on a network filesystem ("" when it is not on one).
std::string RenderStoreWarningText(const OpenedStore& store);

// `db` "" = the default path, opened read-only. Throws InputError when it is
// missing or cannot be opened.
HistoryListing ListHistory(const std::string& db, const RunFilter& filter);
// The same runs handed to `each` one at a time, oldest first, without holding
// the listing (memory flat in the store's size; `kvplan runs --json`). Returns
// the store's path. Throws as ListHistory does.
std::string ForEachHistoryRun(const std::string& db, const RunFilter& filter,
                              const std::function<void(const StoredRun&)>& each);
std::string RenderHistoryText(const HistoryListing& listing);
// The JSON array of `kvplan runs --json` (indented, ends with a newline).
std::string RenderHistoryJson(const HistoryListing& listing);
// That array streamed: the text before the first run's element, and each
// run's element (`first`: no separating comma); the array ends with
// RenderHistoryJsonEnd(any runs). Their concatenation is RenderHistoryJson's text.
std::string RenderHistoryJsonRun(const StoredRun& run, bool first);
std::string RenderHistoryJsonEnd(bool any_runs);

}  // namespace kvplan
