// `kvplan runs`: the run history, newest last.
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "logs/run_record.h"
#include "store/run_store.h"

namespace kvplan::cli {

namespace {

std::string SettingOr(const RunRecord& r, const char* a, const char* b, const char* fallback) {
  if (const LoggedSetting* s = r.FindSetting(a)) return s->value;
  if (const LoggedSetting* s = r.FindSetting(b)) return s->value;
  return fallback;
}

std::string KvTokens(const RunRecord& r) {
  std::optional<double> t = r.Figure("kv_tokens");
  if (!t) t = r.Figure("gpu_kv_cache_tokens");
  return t ? fmt::format("{:.0f}", *t) : "-";
}

// "81.6@1": the median decode tok/s at the most common running-request count.
std::string DecodeTokS(const RunRecord& r) {
  const DecodeBatchFigures* b = r.decode.MostCommon();
  return b ? fmt::format("{:.1f}@{}", b->median_tok_s, b->running_reqs) : "-";
}

// The decode column appears only when a listed run has decode reports, so
// histories of start-up logs read as before.
void PrintTable(const std::vector<StoredRun>& runs) {
  bool decode = false;
  for (const StoredRun& s : runs) decode = decode || !s.record.decode.empty();
  fmt::print("{:>4}  {:<20}  {:<7}  {:<28}  {:<12}  {:>3}  {:>5}  {:>9}  {}{:<10}  {}\n", "id",
             "started", "engine", "model", "gpu", "tp", "frac", "kv_tokens",
             decode ? fmt::format("{:>12}  ", "decode tok/s") : "", "outcome", "log");
  for (const StoredRun& s : runs) {
    const RunRecord& r = s.record;
    std::string gpu = r.gpu_name.empty() ? "-" : r.gpu_name;
    if (gpu.rfind("NVIDIA ", 0) == 0) gpu = gpu.substr(7);
    fmt::print(
        "{:>4}  {:<20.20}  {:<7}  {:<28.28}  {:<12.12}  {:>3}  {:>5.5}  {:>9}  {}{:<10}  {}\n",
        s.id, r.started_at.empty() ? s.ingested_at : r.started_at,
        r.engine.empty() ? "-" : r.engine, r.model.empty() ? "-" : r.model, gpu,
        SettingOr(r, "tp_size", "tensor_parallel_size", "1"),
        SettingOr(r, "mem_fraction_static", "gpu_memory_utilization", "-"), KvTokens(r),
        decode ? fmt::format("{:>12}  ", DecodeTokS(r)) : "", r.outcome, s.log_path);
  }
}

}  // namespace

void RegisterRunsVerb(Command& app) {
  auto* cmd = app.add_subcommand("runs", "List the run history");
  auto model = std::make_shared<std::string>();
  auto db = std::make_shared<std::string>();
  auto failed = std::make_shared<bool>(false);
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--model", *model, "only runs whose model contains this text");
  cmd->add_flag("--failed", *failed, "only failed runs");
  cmd->add_flag("--json", *json, "print JSON");
  cmd->add_option("--db", *db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->callback([model, db, failed, json] {
    RunStore store(RunStore::ResolvePath(*db));
    std::vector<StoredRun> runs = store.List({*model, *failed});
    if (*json) {
      nlohmann::json out = nlohmann::json::array();
      for (const StoredRun& s : runs) {
        out.push_back({{"id", s.id},
                       {"log", s.log_path},
                       {"log_hash", s.log_hash},
                       {"ingested_at", s.ingested_at},
                       {"run", ToJson(s.record)}});
      }
      fmt::print("{}\n", DumpJson(out, 2));
      return;
    }
    if (runs.empty()) {
      fmt::print("no runs{} in {}\n", model->empty() && !*failed ? "" : " match",
                 RunStore::ResolvePath(*db));
      return;
    }
    PrintTable(runs);
  });
}

}  // namespace kvplan::cli
