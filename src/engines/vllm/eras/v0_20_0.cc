// vLLM V1 from 0.20 (gpu_worker.py determine_available_memory, PR #30515 in 0.18.0 and PR #38284,
// which made it the default in 0.20.0, commit 96a85c57): the CUDA-graph memory estimate is
// profiled and subtracted (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1; skipped with
// --enforce-eager). 0.18 and 0.19 profile it too but subtract it only when the variable is 1.
#include <algorithm>
#include <string_view>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

// gpu_worker.py @v0.18.0 and @v0.20.0: the line printed while the estimate is subtracted,
// between the release's opening and closing words: the utilization that gives the same KV
// cache without the estimate, and the one that keeps the KV cache as it was before.
std::string GraphEstimateOnLine(std::string_view opening, double util, double delta,
                                double suggested, std::string_view closing) {
  return fmt::format(
      "{} The current --gpu-memory-utilization={:.4f} is equivalent to "
      "--gpu-memory-utilization={:.4f} without CUDA graph memory profiling. To maintain the "
      "same effective KV cache size as before, increase --gpu-memory-utilization to {:.4f}.{}",
      opening, util, util - delta, suggested, closing);
}

// gpu_worker.py @v0.18.0 and @v0.20.0: the line printed when an estimate was profiled (> 0), with
// the utilization that gives the same KV cache with the estimate subtracted or not.
std::string GraphEstimateLine(const VllmTerms& t, const VllmBudget& b, const VllmRelease& r) {
  const double delta = static_cast<double>(t.cuda_graph) / static_cast<double>(t.total);
  const double suggested = std::min(t.util + delta, 1.0);
  const bool on = b.graph_subtracted > 0;
  if (!r.AtLeast(0, 20, 0)) {
    if (on) {
      return GraphEstimateOnLine(
          "CUDA graph memory profiling is enabled (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1). "
          "This will become the default in v0.19.",
          t.util, delta, suggested, "");
    }
    return fmt::format(
        "In v0.19, CUDA graph memory profiling will be enabled by default "
        "(VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1), which more accurately accounts for CUDA "
        "graph memory during KV cache allocation. To try it now, set "
        "VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1 and increase --gpu-memory-utilization from "
        "{:.4f} to {:.4f} to maintain the same effective KV cache size.",
        t.util, suggested);
  }
  if (on) {
    return GraphEstimateOnLine("CUDA graph memory profiling is enabled (default since v0.21.0).",
                               t.util, delta, suggested,
                               " To disable, set VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0.");
  }
  return fmt::format(
      "CUDA graph memory profiling is disabled (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0). "
      "Without it, CUDA graph memory is not accounted for during KV cache allocation, which may "
      "require lowering --gpu-memory-utilization to avoid OOM. Consider re-enabling it (the "
      "default as of v0.21.0) and increasing --gpu-memory-utilization from {:.4f} to {:.4f}.",
      t.util, suggested);
}

}  // namespace

VllmBudget VllmV1GraphEstimateBudget(const VllmTerms& t) {
  VllmTerms terms = t;
  if (t.enforce_eager) terms.cuda_graph = 0;  // cudagraph_mode NONE: no estimate
  // gpu_worker.py determine_available_memory @v0.20.0: the estimate is profiled and subtracted
  // only while envs.VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is on; off, the budget is 0.9.2's,
  // and the graphs are captured from the headroom after the KV cache.
  if (!t.estimate_cudagraphs) return VllmV1Budget(t);
  return VllmV1ProfiledBudget(terms, /*subtract_graph=*/true);
}

VllmBudgetText DescribeVllmV1GraphEstimateBudget(const VllmTerms& t, const VllmBudget& b,
                                                 const VllmRelease& r) {
  VllmBudgetText out = DescribeVllmV1ProfiledBudget(t, b, r);
  // The line follows "Available KV cache memory" in determine_available_memory, so not with
  // --kv-cache-memory (which returns before profiling) nor without an estimate (eager).
  if (!t.kv_cache_memory && !t.enforce_eager && t.cuda_graph > 0) {
    out.warnings.push_back(GraphEstimateLine(t, b, r));
  }
  return out;
}

}  // namespace kvplan
