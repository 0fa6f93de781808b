#include "explain/vllm_failure.h"

#include <cmath>
#include <optional>

#include <fmt/core.h>

#include "base/text.h"
#include "engines/vllm/release.h"

namespace kvplan {
namespace {

struct KvShort {
  double needed_gib = 0, available_gib = 0;  // per rank, as the error prints them
  int64_t max_model_len = 0;
  std::optional<int64_t> estimated_len;  // the engine's own estimate, when printed
  double utilization = 0.9;              // vLLM's default when the log prints none
  std::optional<double> total_gib;       // total GPU memory, when known
  int tp = 0;                            // 0 when neither printed nor shown by rank tags
  std::string version;                   // the logged release, "" when not printed
};

std::optional<double> FigureOrSetting(const RunRecord& r, const char* key) {
  if (std::optional<double> v = r.Figure(key)) return v;
  return r.SettingNumber(key);
}

// The V1 error's figures (kv_cache_utils.py check_enough_kv_cache_memory), or V0's
// tokens form, where the budget is the pool the tokens fill (cache_engine.py).
std::optional<KvShort> KvShortOf(const RunRecord& r) {
  std::optional<double> len = FigureOrSetting(r, "max_model_len");
  if (r.outcome != "failed" || !len || *len < 1) return std::nullopt;
  KvShort k;
  k.version = r.version;
  k.max_model_len = std::llround(*len);
  std::optional<double> needed = r.Figure("needed_kv_gib");
  std::optional<double> avail = r.Figure("available_kv_cache_gib");
  std::optional<double> tokens = r.Figure("max_tokens_in_kv_cache");
  if (needed && avail) {
    k.needed_gib = *needed;
    k.available_gib = *avail;
  } else if (tokens && *tokens > 0) {
    k.needed_gib = static_cast<double>(k.max_model_len) / *tokens;  // in units of the pool
    k.available_gib = 1;
    k.estimated_len = std::llround(*tokens);
    if (std::optional<double> pool = r.Figure("kv_cache_size_gib")) {
      k.needed_gib *= *pool;
      k.available_gib = *pool;
    } else {
      return k.max_model_len > *tokens ? std::optional<KvShort>(k) : std::nullopt;
    }
  } else {
    return std::nullopt;
  }
  if (std::optional<double> e = r.Figure("estimated_max_model_len")) k.estimated_len = *e;
  if (std::optional<double> u = FigureOrSetting(r, "gpu_memory_utilization")) k.utilization = *u;
  if (std::optional<double> t = r.Figure("total_gpu_memory_gib")) {
    k.total_gib = t;
  } else if (r.gpu_capacity_mib > 0) {
    k.total_gib = static_cast<double>(r.gpu_capacity_mib) / 1024;
  }
  std::optional<double> tp = FigureOrSetting(r, "tensor_parallel_size");
  k.tp = tp ? static_cast<int>(*tp) : r.tp_from_ranks;  // 0: the log shows no layout
  return k.needed_gib > k.available_gib ? std::optional<KvShort>(k) : std::nullopt;
}

// The budget is utilization x total - the non-KV terms, so each 0.01 of utilization adds
// 0.01 x total to it byte for byte (gpu_worker.py determine_available_memory).
Fix UtilizationFix(const KvShort& k) {
  double short_gib = k.needed_gib - k.available_gib;
  if (!k.total_gib) {
    return {VllmFlagToWrite(k.version, "--gpu-memory-utilization"),
            fmt::format("above {:g}", k.utilization),
            fmt::format("the budget is {:.2f} GiB short; each 0.01 adds 1 % of the GPU's memory "
                        "(give --gpu to compute the value)",
                        short_gib)};
  }
  double pct = std::ceil((k.utilization + short_gib / *k.total_gib) * 100 - 1e-9);
  if (pct > 99) {
    return {VllmFlagToWrite(k.version, "--gpu-memory-utilization"), "(none)",
            fmt::format("even 0.99 leaves the budget short: {:.2f} GiB more than {:.2f} GiB "
                        "x (0.99 - {:g}) is needed",
                        short_gib, *k.total_gib, k.utilization)};
  }
  return {VllmFlagToWrite(k.version, "--gpu-memory-utilization"), fmt::format("{:g}", pct / 100),
          fmt::format("adds {:.2f} GiB ({:.2f} GiB total x {:+.2f}) to the {:.2f} GiB budget: "
                      "enough for the {:.2f} GiB needed",
                      (pct / 100 - k.utilization) * *k.total_gib, *k.total_gib,
                      pct / 100 - k.utilization, k.available_gib, k.needed_gib)};
}

Fix MaxLenFix(const KvShort& k) {
  // The engine's estimate when printed; else the length the budget holds, in blocks of 16.
  int64_t len = k.estimated_len.value_or(static_cast<int64_t>(static_cast<double>(k.max_model_len) *
                                                              k.available_gib / k.needed_gib / 16) *
                                         16);
  std::string how = k.estimated_len ? "the longest the budget holds (the engine's estimate)"
                                    : "max_model_len x available / needed, in blocks of 16";
  return {VllmFlagToWrite(k.version, "--max-model-len"), std::to_string(len),
          how};  // as typed on the command line
}

Fix TpFix(const KvShort& k) {
  // Each rank holds the KV heads of its shard: twice the ranks, half the cache per rank,
  // and the weights it frees make the budget larger still.
  double per_rank = k.needed_gib / 2;
  std::string verdict = per_rank <= k.available_gib ? "fits" : "still short";
  return {VllmFlagToWrite(k.version, "--tensor-parallel-size"),
          k.tp > 0 ? std::to_string(2 * k.tp) : "2 x today's",
          fmt::format("each rank needs {:.2f} GiB of KV instead of {:.2f}: {} in today's {:.2f} "
                      "GiB budget, before the weights it frees",
                      per_rank, k.needed_gib, verdict, k.available_gib)};
}

}  // namespace

std::vector<Fix> VllmKvShortFixes(const RunRecord& r) {
  std::optional<KvShort> k = KvShortOf(r);
  if (!k) return {};
  std::vector<Fix> fixes;
  if (r.Figure("max_tokens_in_kv_cache") && !r.Figure("kv_cache_size_gib")) {
    fixes.push_back(MaxLenFix(*k));  // the pool's size is not printed: only the length
    return fixes;
  }
  fixes.push_back(UtilizationFix(*k));
  fixes.push_back(MaxLenFix(*k));
  fixes.push_back(TpFix(*k));
  return fixes;
}

}  // namespace kvplan
