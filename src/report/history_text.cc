// `kvplan runs`'s table, rendered from the history listing.
#include <cmath>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "kvplan/history.h"

namespace kvplan {
namespace {

std::string SettingOr(const RunRecord& r, const char* a, const char* b, const char* fallback) {
  if (const LoggedSetting* s = r.FindSetting(a)) return s->value;
  if (const LoggedSetting* s = r.FindSetting(b)) return s->value;
  return fallback;
}

// The TP the log shows (RunRecord::LoggedTp), "?" where it shows none: never a silent 1.
std::string TpOf(const RunRecord& r) {
  std::optional<int64_t> tp = r.LoggedTp();
  return tp ? std::to_string(*tp) : "?";
}

// Says what a "?" in the tp column means, once under the table.
constexpr const char* kUnknownTpFooter =
    "tp ?: the log names no TP (no tp_size / tensor_parallel_size setting, launch command, "
    "engine config line or rank tag); pass the launch's --tp (SGLang) or "
    "--tensor-parallel-size (vLLM) to kvplan plan";

std::string KvTokens(const RunRecord& r) {
  std::optional<double> t = r.Figure("kv_tokens");
  if (!t) t = r.Figure("gpu_kv_cache_tokens");
  if (!t) t = r.Figure("max_tokens_in_paged_kv_cache");
  return t ? WithThousands(std::llround(*t)) : "-";
}

// "81.6@1": the median decode tok/s at the most common running-request count.
std::string DecodeTokS(const RunRecord& r) {
  const DecodeBatchFigures* b = r.decode.MostCommon();
  return b ? fmt::format("{:.1f}@{}", b->median_tok_s, b->running_reqs) : "-";
}

// Columns of the run's first line; the log's start and path go on the second,
// so a row stays within kTextColumns whatever the path.
constexpr const char* kRowFormat =
    "{:>4}  {:<6}  {:<26.26}  {:<12.12}  {:>3}  {:>5.5}  {:>9}  {}{}\n";

std::string Row(const StoredRun& s, bool decode) {
  const RunRecord& r = s.record;
  std::string gpu = r.gpu_name.empty() ? "-" : r.gpu_name;
  if (gpu.rfind("NVIDIA ", 0) == 0) gpu = gpu.substr(7);
  std::string out =
      fmt::format(fmt::runtime(kRowFormat), s.id, r.engine.empty() ? "-" : r.engine,
                  r.model.empty() ? "-" : r.model, gpu, TpOf(r),
                  SettingOr(r, "mem_fraction_static", "gpu_memory_utilization", "-"), KvTokens(r),
                  decode ? fmt::format("{:>12}  ", DecodeTokS(r)) : "", r.outcome);
  // The log's own first timestamp; ingest time is not when the run started.
  return out + WrapText(fmt::format("      started {}  log {}",
                                    r.started_at.empty() ? "-" : r.started_at, s.log_path),
                        10);
}

}  // namespace

std::string RenderHistoryText(const HistoryListing& h) {
  if (h.runs.empty()) {
    bool filtered = !h.filter.model.empty() || h.filter.failed_only;
    return fmt::format("no runs{} in {}\n", filtered ? " match" : "", h.db_path);
  }
  // The decode column appears only when a listed run has decode reports, so
  // histories of start-up logs read as before.
  bool decode = false;
  for (const StoredRun& s : h.runs) decode = decode || !s.record.decode.empty();
  std::string out =
      fmt::format(fmt::runtime(kRowFormat), "id", "engine", "model", "gpu", "tp", "frac",
                  "kv_tokens", decode ? fmt::format("{:>12}  ", "decode tok/s") : "", "outcome");
  bool unknown_tp = false;
  for (const StoredRun& s : h.runs) {
    out += Row(s, decode);
    unknown_tp = unknown_tp || !s.record.LoggedTp();
  }
  return unknown_tp ? out + WrapText(kUnknownTpFooter, 6) : out;
}

}  // namespace kvplan
