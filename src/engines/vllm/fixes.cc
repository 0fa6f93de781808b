#include "engines/vllm/fixes.h"

#include <cmath>
#include <optional>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "base/units.h"
#include "engines/vllm/budget.h"
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

std::optional<Fix> UtilizationFix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                                  const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                                  const PlanResult& failed) {
  if (a.kv_cache_memory_bytes) return std::nullopt;
  double util = failed.fraction;
  int64_t total = failed.gpu_total_bytes;
  if (failed.error_message.rfind("Free memory on device", 0) == 0) {
    // The start-up check: the largest utilization under the free memory that still serves.
    double free_frac = static_cast<double>(failed.pre_load_free_bytes) / static_cast<double>(total);
    for (int pct = static_cast<int>(std::floor(free_frac * 100)); pct >= 10; --pct) {
      VllmArgs b = a;
      b.gpu_memory_utilization = pct / 100.0;
      VllmMeasured mm = m;
      if (mm.available_kv) {
        *mm.available_kv += static_cast<int64_t>((pct / 100.0 - util) * static_cast<double>(total));
      }
      if (auto r = TryPlan(v, model, gpu, b, mm, d)) {
        return Fix{"--gpu-memory-utilization", PyFloat(pct / 100.0), Effect(*r)};
      }
    }
    return std::nullopt;
  }
  for (int pct = static_cast<int>(std::floor(util * 100 + 1e-9)) + 1; pct <= 99; ++pct) {
    VllmArgs b = a;
    b.gpu_memory_utilization = pct / 100.0;
    VllmMeasured mm = m;
    // A measured KV budget moves with the utilization, byte for byte.
    if (mm.available_kv) {
      *mm.available_kv += static_cast<int64_t>((pct / 100.0 - util) * static_cast<double>(total));
    }
    if (auto r = TryPlan(v, model, gpu, b, mm, d)) {
      return Fix{"--gpu-memory-utilization", PyFloat(pct / 100.0), Effect(*r)};
    }
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
    return Fix{"--max-model-len", std::to_string(*b.max_model_len), Effect(*r)};
  }
  return std::nullopt;
}

std::optional<Fix> Fp8Fix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                          const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  if (a.kv_cache_dtype != "auto" || model.dtype_bytes <= 1) return std::nullopt;
  VllmArgs b = a;
  b.kv_cache_dtype = "fp8";
  if (auto r = TryPlan(v, model, gpu, b, m, d)) return Fix{"--kv-cache-dtype", "fp8", Effect(*r)};
  return std::nullopt;
}

std::optional<Fix> TpFix(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                         const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d) {
  for (int tp = a.tp * 2; tp <= 8; tp *= 2) {
    if (model.num_attention_heads % tp != 0) break;  // vLLM requires heads % tp == 0
    VllmArgs b = a;
    b.tp = tp;
    // Per-rank measurements do not carry over to another TP size.
    VllmMeasured mm;
    mm.total = m.total;
    mm.pre_load_free = m.pre_load_free;
    if (auto r = TryPlan(v, model, gpu, b, mm, d)) {
      return Fix{"--tensor-parallel-size", std::to_string(tp), Effect(*r) + " (estimated terms)"};
    }
  }
  return std::nullopt;
}

}  // namespace

std::vector<Fix> VllmFixes(const std::string& v, const ModelSpec& model, const GpuSpec& gpu,
                           const VllmArgs& a, const VllmMeasured& m, const ModelSpec* d,
                           const PlanResult& failed) {
  std::vector<Fix> out;
  for (auto f :
       {UtilizationFix(v, model, gpu, a, m, d, failed), MaxLenFix(v, model, gpu, a, m, d, failed),
        Fp8Fix(v, model, gpu, a, m, d), TpFix(v, model, gpu, a, m, d)}) {
    if (f) out.push_back(*f);
  }
  return out;
}

}  // namespace kvplan
