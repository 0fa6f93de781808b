// The run history's rows as plain values: what `kvplan runs` lists and
// `kvplan ingest` stores (store/run_store.h reads and writes them).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

struct StoredRun {
  int64_t id = 0;
  std::string log_hash;
  std::string log_path;
  std::string ingested_at;  // UTC, ISO 8601
  RunRecord record;
};

struct RunFilter {
  std::string model;  // substring, case-insensitive; "" = any
  bool failed_only = false;
  // Each run's record holds only what `kvplan runs`'s table shows (engine,
  // model, GPU, outcome, start, TP and memory-fraction settings, KV tokens,
  // the most common decode batch), read by SQLite from the stored JSON: the
  // record is not parsed whole (10,000 runs: 5.2 s and 183 MB before).
  bool table_only = false;
};

struct IngestOutcome {
  bool already_present = false;  // the same content was ingested before
  int runs_stored = 0;           // new rows
  int runs_updated = 0;          // rows of the stored log this one grew from
  std::string grown_from;        // that log's stored path; "" = a new log
};

// `kvplan runs`: the history's runs that pass the filter, oldest first.
struct HistoryListing {
  std::string db_path;
  RunFilter filter;
  std::vector<StoredRun> runs;
};

}  // namespace kvplan
