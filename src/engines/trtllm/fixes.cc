// Fixes for a TensorRT-LLM launch whose KV cache cannot hold one request of
// max_seq_len, found by re-planning with one change.
#include <cmath>
#include <optional>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "catalog/sharding.h"
#include "engines/trtllm/fixes.h"
#include "engines/trtllm/flags.h"
#include "engines/trtllm/stages.h"
#include "engines/trtllm/trtllm.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

bool Serves(const PlanResult& r) { return r.ok && r.max_total_num_tokens >= r.context_length; }

std::optional<PlanResult> Try(const std::string& v, const ModelSpec& m, const GpuSpec& g,
                              const TrtllmArgs& a, const TrtllmMeasured& ms) {
  try {
    PlanResult r = PlanTrtllm(v, m, g, a, ms);
    if (Serves(r)) return r;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

std::string Effect(const PlanResult& r) {
  return fmt::format("serves; {} for KV, {} KV tokens, {:.2f}x at {} tokens",
                     FormatGiB(r.rest_memory_bytes), WithThousands(r.max_total_num_tokens),
                     static_cast<double>(r.max_total_num_tokens) / r.context_length,
                     r.context_length);
}

// Per-rank measurements do not carry over to another layout.
TrtllmMeasured WholeGpu(const TrtllmMeasured& ms) {
  TrtllmMeasured mm;
  mm.total = ms.total;
  return mm;
}

// Weights larger than the GPU: the smallest TP within one 8-GPU node that
// serves, else the smallest PP over the largest TP that shards (a TP the
// heads do not divide is refused by PlanTrtllm, so Try skips it).
std::vector<Fix> FitWeightsFixes(const std::string& v, const ModelSpec& m, const GpuSpec& g,
                                 const TrtllmArgs& a, const TrtllmMeasured& ms) {
  int largest_tp = a.tp;
  for (int tp = a.tp + 1; tp <= 8; ++tp) {
    TrtllmArgs b = a;
    b.tp = tp;
    if (auto r = Try(v, m, g, b, WholeGpu(ms))) {
      return {{TrtllmFlagToWrite("--tp_size"), std::to_string(tp),
               fmt::format("{} GPUs per replica; {} (estimated terms)", tp * a.pp, Effect(*r))}};
    }
    Parallelism par;
    par.tp = tp;
    if (ShardingProblems(m, par, ShardingEngine::kTrtllm).empty()) largest_tp = tp;
  }
  for (int pp = a.pp + 1; pp <= 8; ++pp) {
    TrtllmArgs b = a;
    b.tp = largest_tp;
    b.pp = pp;
    if (auto r = Try(v, m, g, b, WholeGpu(ms))) {
      return {{TrtllmFlagToWrite("--pp_size"), std::to_string(pp),
               fmt::format("with --tp_size {}: {} GPUs per replica; {} (estimated terms)",
                           largest_tp, largest_tp * pp, Effect(*r))}};
    }
  }
  return {};
}

}  // namespace

std::vector<Fix> TrtllmFixes(const std::string& v, const ModelSpec& m, const GpuSpec& g,
                             const TrtllmArgs& a, const TrtllmMeasured& ms,
                             const PlanResult& failed) {
  std::vector<Fix> out;
  if (Serves(failed)) return out;
  if (failed.error_message.rfind(kTrtllmLoadOomPrefix, 0) == 0) {
    return FitWeightsFixes(v, m, g, a, ms);
  }
  for (int pct = static_cast<int>(std::floor(failed.fraction * 100 + 1e-9)) + 1; pct <= 99; ++pct) {
    TrtllmArgs b = a;
    b.free_gpu_memory_fraction = pct / 100.0;
    if (auto r = Try(v, m, g, b, ms)) {
      out.push_back({TrtllmFlagToWrite("--kv_cache_free_gpu_memory_fraction"),
                     fmt::format("{}", pct / 100.0), Effect(*r)});
      break;
    }
  }
  if (failed.max_total_num_tokens > 0) {
    TrtllmArgs b = a;
    b.max_seq_len = failed.max_total_num_tokens;
    if (auto r = Try(v, m, g, b, ms))
      out.push_back(
          {TrtllmFlagToWrite("--max_seq_len"), std::to_string(*b.max_seq_len), Effect(*r)});
  }
  if (a.kv_dtype == "auto" && m.dtype_bytes > 1) {
    TrtllmArgs b = a;
    b.kv_dtype = "fp8";
    if (auto r = Try(v, m, g, b, ms)) out.push_back({"kv_cache_config.dtype", "fp8", Effect(*r)});
  }
  for (int tp = a.tp * 2; tp <= 8; tp *= 2) {
    TrtllmArgs b = a;
    b.tp = tp;
    Parallelism par;
    par.tp = tp;
    if (!ShardingProblems(m, par, ShardingEngine::kTrtllm).empty()) break;
    if (auto r = Try(v, m, g, b, WholeGpu(ms))) {
      out.push_back(
          {TrtllmFlagToWrite("--tp_size"), std::to_string(tp), Effect(*r) + " (estimated terms)"});
      break;
    }
  }
  return out;
}

}  // namespace kvplan
