// `kvplan ingest LOG...`: each log read whole (default rules applied, as
// explain reads it) and stored in the run history.
#include <cstdio>

#include "explain/log_file.h"
#include "kvplan/history.h"
#include "store/run_store.h"

namespace kvplan {
namespace {

int64_t FileSize(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  std::fseek(f, 0, SEEK_END);
  int64_t n = std::ftell(f);
  std::fclose(f);
  return n;
}

IngestedLog IngestOne(RunStore& store, const std::string& path, const IngestRequest& request) {
  ScanOptions options;
  if (request.progress) {
    int64_t total = FileSize(path);
    options.progress = [&](int64_t bytes) { request.progress(path, bytes, total); };
  }
  LoadedLog scanned = LoadLog(path, options);
  IngestedLog log{path, scanned.content_hash, {}, std::move(scanned.runs)};
  log.outcome = store.Ingest(path, scanned.content_hash, scanned.bytes, log.runs);
  return log;
}

}  // namespace

IngestResult IngestLogs(const IngestRequest& request) {
  IngestResult result{RunStore::ResolvePath(request.db), {}};
  RunStore store(result.db_path);
  for (const std::string& path : request.logs) {
    result.logs.push_back(IngestOne(store, path, request));
    if (request.done) request.done(result.logs.back());
  }
  return result;
}

}  // namespace kvplan
