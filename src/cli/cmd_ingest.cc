// `kvplan ingest LOG...`: reads start-up logs into the run history.
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "explain/log_file.h"
#include "store/run_store.h"

namespace kvplan::cli {
namespace {

// A one-line progress bar on stderr, only when stderr is a terminal.
class Progress {
 public:
  Progress(const std::string& name, int64_t total) : name_(name), total_(total) {
    enabled_ = ::isatty(2) == 1 && total > (int64_t{16} << 20);
  }
  void Update(int64_t bytes) {
    if (!enabled_) return;
    int pct = total_ > 0 ? static_cast<int>(100 * bytes / total_) : 0;
    int filled = pct * 30 / 100;
    fmt::print(stderr, "\r{:.40} [{:<30}] {:3d}% {:.0f} MiB", name_, std::string(filled, '#'), pct,
               static_cast<double>(bytes) / (1 << 20));
    std::fflush(stderr);
  }
  void Done() {
    if (enabled_) fmt::print(stderr, "\r{:80}\r", "");
  }

 private:
  std::string name_;
  int64_t total_;
  bool enabled_ = false;
};

int64_t FileSize(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  std::fseek(f, 0, SEEK_END);
  int64_t n = std::ftell(f);
  std::fclose(f);
  return n;
}

std::string Describe(const RunRecord& r) {
  std::string what = r.engine.empty() ? "unknown engine" : r.engine;
  if (!r.model.empty()) what += " " + r.model;
  what += ", " + r.outcome;
  if (r.outcome == "failed") what += ": " + r.error.substr(0, 100);
  return what;
}

void IngestOne(RunStore& store, const std::string& path) {
  Progress progress(path, FileSize(path));
  ScanOptions options;
  options.progress = [&](int64_t bytes) { progress.Update(bytes); };
  LoadedLog scanned = LoadLog(path, options);
  progress.Done();
  const std::vector<RunRecord>& runs = scanned.runs;
  IngestOutcome out = store.Ingest(path, scanned.content_hash, scanned.bytes, runs);
  if (out.already_present) {
    fmt::print("{}: already ingested (same content, {}...)\n", path,
               scanned.content_hash.substr(0, 12));
    return;
  }
  fmt::print("{}: {} run{} stored\n", path, out.runs_stored, out.runs_stored == 1 ? "" : "s");
  for (const RunRecord& r : runs) fmt::print("  launch {}: {}\n", r.launch_index + 1, Describe(r));
}

}  // namespace

void RegisterIngestVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "ingest", "Read start-up logs into the run history (idempotent by content hash)");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto db = std::make_shared<std::string>();
  cmd->add_option("logs", *paths, "SGLang or vLLM logs")->required();
  cmd->add_option("--db", *db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->callback([paths, db] {
    RunStore store(RunStore::ResolvePath(*db));
    for (const std::string& p : *paths) IngestOne(store, p);
  });
}

}  // namespace kvplan::cli
