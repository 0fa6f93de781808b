// vLLM V1 from 0.21 (gpu_worker.py determine_available_memory after PR #30515):
// the CUDA-graph memory estimate is profiled and subtracted by default
// (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1; skipped with --enforce-eager).
#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {

VllmBudget VllmV1GraphEstimateBudget(const VllmTerms& t) {
  VllmTerms terms = t;
  if (t.enforce_eager) terms.cuda_graph = 0;  // cudagraph_mode NONE: no estimate
  // gpu_worker.py determine_available_memory @v0.21: the estimate is profiled and subtracted
  // only while envs.VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is on (the default); off, the
  // budget is 0.9.2's, and the graphs are captured from the headroom after the KV cache.
  if (!t.estimate_cudagraphs) return VllmV1Budget(t);
  return VllmV1ProfiledBudget(terms, /*subtract_graph=*/true);
}

VllmBudgetText DescribeVllmV1GraphEstimateBudget(const VllmTerms& t, const VllmBudget& b,
                                                 const VllmRelease& r) {
  VllmBudgetText out = DescribeVllmV1ProfiledBudget(t, b, r);
  if (b.graph_subtracted > 0 && !t.kv_cache_memory) {
    // gpu_worker.py @v0.21: the info line with the equivalent utilizations.
    double frac = static_cast<double>(b.graph_subtracted) / static_cast<double>(t.total);
    out.warnings.push_back(fmt::format(
        "CUDA graph memory profiling is enabled (default since v0.21.0). The current "
        "--gpu-memory-utilization={:.4f} is equivalent to --gpu-memory-utilization={:.4f} without "
        "CUDA graph memory profiling. To maintain the same effective KV cache size as before, "
        "increase --gpu-memory-utilization to {:.4f}. To disable, set "
        "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.",
        t.util, t.util - frac, t.util + frac));
  }
  return out;
}

}  // namespace kvplan
