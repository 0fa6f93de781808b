#include "engines/vllm/fixes.h"

#include <cmath>
#include <optional>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "base/units.h"
#include "catalog/sharding.h"
#include "engines/vllm/budget.h"
#include "engines/vllm/model_support.h"
#include "engines/vllm/release.h"
#include "engines/vllm/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

std::optional<PlanResult> TryPlan(const std::string& version, const ModelSpec& model,
                                  const GpuSpec& gpu, const VllmArgs& a, const VllmMeasured& m,
                                  const ModelSpec* draft) {
  try {
    PlanResult r = PlanVllmNoFixes(version, model, gpu, a, m, draft);
    if (r.ok) return r;
  } catch (const InputError&) {
  }
  return std::nullopt;
}

std::string Effect(const PlanResult& r) {
  const Figure* c = r.FindFigure("max_concurrency");
  return fmt::format("starts; {} for KV, {} KV tokens, max concurrency {:.2f}x at {} tokens",
                     FormatGiB(r.rest_memory_bytes), WithThousands(r.max_total_num_tokens),
                     c ? c->value : 0.0, WithThousands(r.context_length));
}

// The launch re-planned at --gpu-memory-utilization pct / 100, as a fix when it starts.
std::optional<Fix> FixAtUtilization(int pct, const std::string& v, const ModelSpec& model,
                                    const GpuSpec& gpu, const VllmArgs& a, const VllmMeasured& m,
                                    const ModelSpec* d, const PlanResult& failed) {
  VllmArgs b = a;
  b.gpu_memory_utilization = pct / 100.0;
  VllmMeasured mm = m;
  // A measured KV budget moves with the utilization, byte for byte.
  if (mm.available_kv) {
    *mm.available_kv += static_cast<int64_t>((pct / 100.0 - failed.fraction) *
                                             static_cast<double>(failed.gpu_total_bytes));
  }
  if (auto r = TryPlan(v, model, gpu, b, mm, d)) {
    return Fix{VllmFlagToWrite(v, "--gpu-memory-utilization"), PyFloat(pct / 100.0), Effect(*r)};
  }
  return std::nullopt;
}

std::optional<Fix> UtilizationFix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                                  const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                                  const PlanResult& failed) {
  if (a.kv_cache_memory_bytes) return std::nullopt;
  const double total = static_cast<double>(failed.gpu_total_bytes);
  if (failed.error_message.rfind("Free memory on device", 0) == 0) {
    // The start-up check: the largest utilization under the free memory that still serves.
    double free_frac = static_cast<double>(failed.pre_load_free_bytes) / total;
    for (int pct = static_cast<int>(std::floor(free_frac * 100)); pct >= 10; --pct) {
      if (auto fix = FixAtUtilization(pct, v, model, gpu, a, m, d, failed)) return fix;
    }
    return std::nullopt;
  }
  for (int pct = static_cast<int>(std::floor(failed.fraction * 100 + 1e-9)) + 1; pct <= 99; ++pct) {
    if (auto fix = FixAtUtilization(pct, v, model, gpu, a, m, d, failed)) return fix;
  }
  return std::nullopt;
}

std::optional<Fix> MaxLenFix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                             const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                             const PlanResult& failed) {
  const Figure* est = failed.FindFigure("estimated_max_model_len");
  if (est == nullptr || est->value < 1) return std::nullopt;
  VllmArgs b = a;
  b.max_model_len = static_cast<int64_t>(est->value);
  if (auto r = TryPlan(v, model, gpu, b, m, d)) {
    return Fix{VllmFlagToWrite(v, "--max-model-len"), std::to_string(*b.max_model_len), Effect(*r)};
  }
  return std::nullopt;
}

std::optional<Fix> Fp8Fix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                          const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  if (a.kv_cache_dtype != "auto" || model.dtype_bytes <= 1) return std::nullopt;
  VllmArgs b = a;
  b.kv_cache_dtype = "fp8";
  if (auto r = TryPlan(v, model, gpu, b, m, d))
    return Fix{VllmFlagToWrite(v, "--kv-cache-dtype"), "fp8", Effect(*r)};
  return std::nullopt;
}

// Per-rank measurements do not carry over to another layout.
VllmMeasured WholeGpuMeasurements(const VllmMeasured& m) {
  VllmMeasured mm;
  mm.total = m.total;
  mm.pre_load_free = m.pre_load_free;
  return mm;
}

bool Shards(const ModelSpec& model, const VllmArgs& b) {
  return ShardingProblems(model, VllmParallelism(b), ShardingEngine::kVllm).empty();
}

std::optional<Fix> TpFix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                         const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  for (int tp = a.tp * 2; tp <= 8; tp *= 2) {
    VllmArgs b = a;
    b.tp = tp;
    if (!Shards(model, b)) break;
    if (auto r = TryPlan(v, model, gpu, b, WholeGpuMeasurements(m), d)) {
      return Fix{VllmFlagToWrite(v, "--tensor-parallel-size"), std::to_string(tp),
                 Effect(*r) + " (estimated terms)"};
    }
  }
  return std::nullopt;
}

std::string OnGpus(int gpus, const PlanResult& r) {
  return fmt::format("{} GPUs per replica; {} (estimated terms)", gpus, Effect(r));
}

// The smallest TP size from `from` up to `to` that shards and starts.
std::optional<Fix> SmallestTp(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                              const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                              int from, int to) {
  for (int tp = from; tp <= to; ++tp) {
    VllmArgs b = a;
    b.tp = tp;
    if (!Shards(model, b)) continue;
    if (auto r = TryPlan(v, model, gpu, b, WholeGpuMeasurements(m), d)) {
      return Fix{VllmFlagToWrite(v, "--tensor-parallel-size"), std::to_string(tp),
                 OnGpus(tp * b.pp, *r)};
    }
  }
  return std::nullopt;
}

// Weights larger than the GPU: the smallest TP within one 8-GPU node that
// fits, else the smallest PP over the largest TP that shards. (No
// quantization fix yet: kvplan's weight estimate does not shrink under
// --quantization fp8.)
std::vector<Fix> FitWeightsFixes(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                                 const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  std::vector<Fix> out;
  if (auto f = SmallestTp(v, model, gpu, a, m, d, a.tp + 1, 8)) {
    out.push_back(*f);
  } else {
    int tp = 8;
    for (; tp > a.tp; --tp) {
      VllmArgs b = a;
      b.tp = tp;
      if (Shards(model, b)) break;
    }
    for (int pp = a.pp + 1; pp <= 8 && out.empty(); ++pp) {
      VllmArgs b = a;
      b.tp = tp;
      b.pp = pp;
      if (auto r = TryPlan(v, model, gpu, b, WholeGpuMeasurements(m), d)) {
        out.push_back({VllmFlagToWrite(v, "--pipeline-parallel-size"), std::to_string(pp),
                       fmt::format("with --tensor-parallel-size {}: {}", tp, OnGpus(tp * pp, *r))});
      }
    }
  }
  return out;
}

// A layout vLLM cannot shard: the nearest TP sizes below and above that do.
std::vector<Fix> ShardingFixes(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                               const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  std::vector<Fix> out;
  for (int tp = a.tp - 1; tp >= 1; --tp) {
    if (auto f = SmallestTp(v, model, gpu, a, m, d, tp, tp)) {
      out.push_back(*f);
      break;
    }
  }
  if (auto f = SmallestTp(v, model, gpu, a, m, d, a.tp + 1, std::max(16, 2 * a.tp))) {
    out.push_back(*f);
  }
  return out;
}

// --max-model-len above the model: the model's own length, or the override.
std::vector<Fix> MaxLenRefusalFixes(const std::string& v, const ModelSpec& model,
                                    const GpuSpec& gpu, const VllmArgs& a, const VllmMeasured& m,
                                    const ModelSpec* d) {
  std::vector<Fix> out;
  VllmArgs shorter = a;
  shorter.max_model_len = model.max_position_embeddings;
  if (auto r = TryPlan(v, model, gpu, shorter, m, d)) {
    out.push_back({VllmFlagToWrite(v, "--max-model-len"),
                   std::to_string(model.max_position_embeddings),
                   "the model's own length; " + Effect(*r)});
  }
  VllmArgs allowed = a;
  allowed.allow_long_max_model_len = true;
  if (auto r = TryPlan(v, model, gpu, allowed, m, d)) {
    out.push_back({"VLLM_ALLOW_LONG_MAX_MODEL_LEN", "1",
                   fmt::format("vLLM warns and serves positions past {} the model was not trained "
                               "for; {}",
                               WithThousands(model.max_position_embeddings), Effect(*r))});
  }
  return out;
}

}  // namespace

std::vector<Fix> VllmFixes(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                           const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                           const PlanResult& failed) {
  VllmRefusal refusal =
      VllmConfigRefusal(VllmResolveDefaults(v, model, gpu, a), VllmWithQuantization(model, a), a);
  if (refusal.kind == VllmRefusal::Kind::kUnsupportedModel) {
    // The one fix is a release that serves the model, the same flags otherwise.
    const std::string first = VllmFirstReleaseServing(model);
    if (auto r = TryPlan(first, model, gpu, a, m, d))
      return {Fix{"--engine", "vllm@" + first, Effect(*r)}};
    return {};
  }
  if (refusal.kind == VllmRefusal::Kind::kMaxModelLen) {
    return MaxLenRefusalFixes(v, model, gpu, a, m, d);
  }
  if (refusal.kind == VllmRefusal::Kind::kSharding) return ShardingFixes(v, model, gpu, a, m, d);
  if (failed.error_message.rfind(kVllmLoadOomPrefix, 0) == 0) {
    return FitWeightsFixes(v, model, gpu, a, m, d);
  }
  std::vector<Fix> out;
  for (auto f :
       {UtilizationFix(v, model, gpu, a, m, d, failed), MaxLenFix(v, model, gpu, a, m, d, failed),
        Fp8Fix(v, model, gpu, a, m, d), TpFix(v, model, gpu, a, m, d)}) {
    if (f) out.push_back(*f);
  }
  return out;
}

}  // namespace kvplan
