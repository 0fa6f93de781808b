// vLLM V1 from 0.9.2 (vllm/v1/worker/gpu_worker.py @35d5cda1, PR #19312):
// requested = total * util, checked against free memory at start-up;
// available = requested - (weights + torch peak increase + non-torch increase).
#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

constexpr const char* kGpuWorker = "vllm/v1/worker/gpu_worker.py @v0.10.0 (35d5cda1)";

// gpu_worker.py init_device: the start-up check against free memory.
std::string StartupCheck(const VllmTerms& t, double requested) {
  if (static_cast<double>(t.pre_load_free) >= requested) return "";
  return fmt::format(
      "Free memory on device ({}/{} GiB) on startup is less than desired GPU memory utilization "
      "({}, {} GiB). Decrease GPU memory utilization or reduce GPU memory used by other "
      "processes.",
      PyRound2(ToGiB(t.pre_load_free)), PyRound2(ToGiB(t.total)), PyFloat(t.util),
      PyRound2(requested / kGiB));
}

}  // namespace

VllmBudget VllmV1ProfiledBudget(const VllmTerms& t, bool subtract_graph) {
  VllmBudget b;
  b.requested = static_cast<double>(t.total) * t.util;
  b.error = StartupCheck(t, b.requested);
  b.non_kv = t.weights + t.activation + t.non_torch;
  b.kv_from_terms = b.requested - static_cast<double>(b.non_kv);
  b.subtract_graph = subtract_graph;
  if (subtract_graph) {
    b.graph_subtracted = t.cuda_graph;
    b.kv_from_terms -= static_cast<double>(t.cuda_graph);
  } else {
    // Captured after the KV cache is allocated: comes out of the 1 - util headroom.
    b.graph_after_kv = t.enforce_eager ? 0 : t.cuda_graph;
  }
  if (t.kv_cache_memory) {
    // gpu_worker.py determine_available_memory @v0.10.2 (PR #21489): the flag
    // replaces the profiled budget; gpu_memory_utilization no longer sizes the cache.
    b.available = *t.kv_cache_memory;  // whole bytes, at most 1 PiB (args.cc)
    b.source = VllmBudget::Source::kFlag;
  } else {
    SetVllmAvailableKv(t, b.kv_from_terms, &b);
  }
  return b;
}

VllmBudgetText DescribeVllmV1ProfiledBudget(const VllmTerms& t, const VllmBudget& b,
                                            const VllmRelease& r) {
  VllmBudgetText out;
  out.stages.push_back(
      {"requested_memory",
       fmt::format("total {} GiB ({}) x gpu_memory_utilization {} = {:.2f} GiB", Gib2(t.total),
                   t.total_src, PyFloat(t.util), b.requested / kGiB),
       static_cast<int64_t>(b.requested), kGpuWorker, ""});
  out.stages.push_back(
      {"startup_free_check",
       fmt::format("free at start-up {} GiB ({}) >= requested {:.2f} GiB", Gib2(t.pre_load_free),
                   t.pre_load_free_measured ? "measured" : "total - CUDA context estimate",
                   b.requested / kGiB),
       t.pre_load_free, kGpuWorker, ""});
  out.stages.push_back(
      {"non_kv_cache_memory",
       fmt::format("weights {} ({}) + torch peak increase {} ({}) + non-torch increase {} ({}) = "
                   "{} GiB",
                   Gib2(t.weights), t.weights_src, Gib2(t.activation), t.activation_src,
                   Gib2(t.non_torch), t.non_torch_src, Gib2(b.non_kv)),
       b.non_kv, "vllm/utils/mem_utils.py @a6d5c390 memory_profiling", ""});
  std::string formula = fmt::format("{:.2f} - {}", b.requested / kGiB, Gib2(b.non_kv));
  if (b.subtract_graph) {
    formula += fmt::format(" - CUDA-graph estimate {} ({})", Gib2(b.graph_subtracted), t.graph_src);
  }
  out.stages.push_back({"available_kv_cache_memory",
                        fmt::format("{} = {:.2f} GiB", formula, b.kv_from_terms / kGiB),
                        static_cast<int64_t>(b.kv_from_terms), kGpuWorker, ""});
  if (b.source == VllmBudget::Source::kFlag) {
    out.stages.push_back({"kv_cache_memory",
                          fmt::format("--kv-cache-memory {} bytes ({} GiB) replaces the budget",
                                      *t.kv_cache_memory, Gib2(*t.kv_cache_memory)),
                          *t.kv_cache_memory, "vllm/v1/worker/gpu_worker.py @v0.10.2 (PR #21489)",
                          ""});
  } else if (b.source == VllmBudget::Source::kLog) {
    out.warnings.push_back(fmt::format(
        "Available KV cache memory {} GiB taken from the log instead of the terms above",
        Gib2(*t.available_kv)));
  }
  if (b.source == VllmBudget::Source::kFlag) {
    out.log_lines.push_back(DescribeVllmKvCacheMemoryFlagLine(t, r));
    return out;
  }
  // gpu_worker.py determine_available_memory: "%.2f", format_gib from v0.14.0.
  out.log_lines.push_back(
      fmt::format("Available KV cache memory: {} GiB",
                  r.AtLeast(0, 14, 0) ? PyRound2(ToGiB(b.available)) : Gib2(b.available)));
  if (r.AtLeast(0, 10, 2))
    out.log_lines_after_start.push_back(DescribeVllmKvCacheMemoryHint(t, b, r));
  return out;
}

VllmBudget VllmV1Budget(const VllmTerms& t) {
  return VllmV1ProfiledBudget(t, /*subtract_graph=*/false);
}

}  // namespace kvplan
