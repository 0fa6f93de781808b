// vLLM V1 up to 0.9.1 (vllm/v1/worker/gpu_worker.py @0012cf69):
// available = total * util - peak, peak = torch peak (weights included) +
// max(0, (total - free) - torch allocated). The non-torch part is read from the
// whole device, so memory held by other processes (and the CUDA context) counts;
// fixed by PR #18974 / #19312 in 0.9.2.
#include <algorithm>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {

namespace {
constexpr const char* kSrc = "vllm/v1/worker/gpu_worker.py @v0.8.5 (0012cf69)";
}  // namespace

VllmBudget VllmV1EarlyBudget(const VllmTerms& t) {
  VllmBudget b;
  b.requested = static_cast<double>(t.total) * t.util;
  b.other = t.pre_load_free_measured ? std::max<int64_t>(0, t.total - t.pre_load_free) : 0;
  b.peak = t.weights + t.activation + t.non_torch + b.other;
  b.kv_from_terms = b.requested - static_cast<double>(b.peak);
  SetVllmAvailableKv(t, b.kv_from_terms, &b);
  b.graph_after_kv = t.enforce_eager ? 0 : t.cuda_graph;
  return b;
}

VllmBudgetText DescribeVllmV1EarlyBudget(const VllmTerms& t, const VllmBudget& b) {
  VllmBudgetText out;
  out.stages.push_back(
      {"requested_memory",
       fmt::format("total {} GiB ({}) x gpu_memory_utilization {} = {:.2f} GiB", Gib2(t.total),
                   t.total_src, PyFloat(t.util), b.requested / kGiB),
       static_cast<int64_t>(b.requested), kSrc, ""});
  out.stages.push_back(
      {"peak_memory",
       fmt::format(
           "weights {} ({}) + activation peak {} ({}) + non-torch {} ({}){} = {} GiB",
           Gib2(t.weights), t.weights_src, Gib2(t.activation), t.activation_src, Gib2(t.non_torch),
           t.non_torch_src,
           b.other > 0 ? fmt::format(" + in use before start-up {} (measured)", Gib2(b.other)) : "",
           Gib2(b.peak)),
       b.peak, kSrc, ""});
  out.stages.push_back({"available_kv_cache_memory",
                        fmt::format("{:.2f} - {} = {:.2f} GiB", b.requested / kGiB, Gib2(b.peak),
                                    b.kv_from_terms / kGiB),
                        static_cast<int64_t>(b.kv_from_terms), kSrc, ""});
  out.warnings.push_back(
      "V1 before 0.9.2 counts all memory in use on the device as non-torch memory, including "
      "other processes' (fixed by vLLM PR #18974)");
  return out;
}

}  // namespace kvplan
