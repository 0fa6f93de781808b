// The two lines vLLM V1 prints about --kv-cache-memory (vllm/v1/worker/gpu_worker.py, added with
// the flag in 0.10.2 by PR #21489, commit 94e6b2d5): the one that replaces "Available KV cache
// memory" when the flag sizes the cache, and the suggestion printed after the CUDA graphs are
// captured when the profile sized it.
#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

// gpu_worker.py: "empirically observed that the memory profiling may slightly underestimate the
// memory consumption", so the suggestion leaves 150 MiB (redundancy_buffer_memory).
constexpr int64_t kRedundancyBuffer = 150 * kMiB;

// The rest of the flag's line after "This does" ("does does" before 0.11.1).
constexpr const char* kFlagTail =
    " not respect the gpu_memory_utilization config. Only use kv_cache_memory_bytes config when "
    "you want manual control of KV cache memory size. If OOM'ed, check the difference of initial "
    "free memory between the current run and the previous run where kv_cache_memory_bytes is "
    "suggested and update it correspondingly.";

}  // namespace

std::string DescribeVllmKvCacheMemoryFlagLine(const VllmTerms& t, const VllmRelease& r) {
  const double free_gib = ToGiB(t.pre_load_free);
  const double kv_gib = ToGiB(*t.kv_cache_memory);
  std::string head;
  if (r.AtLeast(0, 14, 0)) {
    // gpu_worker.py determine_available_memory @v0.14.0: format_gib, str(round(x, 2)).
    head = fmt::format("Initial free memory {} GiB, reserved {} GiB", PyRound2(free_gib),
                       PyRound2(kv_gib));
  } else if (r.AtLeast(0, 11, 1)) {
    // @v0.11.1: both "%.2f".
    head = fmt::format("Initial free memory {:.2f} GiB, reserved {:.2f} GiB", free_gib, kv_gib);
  } else {
    // @v0.10.2 and v0.11.0: the free memory unrounded (GiB = b / GiB_bytes), no space before
    // "GiB memory", and "does does".
    head = fmt::format("Initial free memory {} GiB, reserved {:.2f}GiB", PyFloat(free_gib), kv_gib);
  }
  return head +
         " memory for KV Cache as specified by kv_cache_memory_bytes config and skipped memory "
         "profiling. This does" +
         (r.AtLeast(0, 11, 1) ? "" : " does") + kFlagTail;
}

std::string DescribeVllmKvCacheMemoryHint(const VllmTerms& t, const VllmBudget& b,
                                          const VllmRelease& r) {
  // gpu_worker.py compile_or_warm_up_model @v0.10.2: weights + peak activation + non-torch +
  // the captured CUDA graphs, less the buffer, against the requested and the free memory.
  const int64_t graphs = t.enforce_eager ? 0 : t.cuda_graph;
  const int64_t non_kv = t.weights + t.activation + t.non_torch + graphs;
  const int64_t to_requested = static_cast<int64_t>(b.requested) - non_kv - kRedundancyBuffer;
  const int64_t to_gpu = t.pre_load_free - non_kv - kRedundancyBuffer;
  auto gib = [](int64_t bytes) { return PyRound2(ToGiB(bytes)); };
  std::string head = fmt::format(
      "Free memory on device ({}/{} GiB) on startup. Desired GPU memory utilization is ({}, {} "
      "GiB). Actual usage is {} GiB for weight, {} GiB for peak activation, {} GiB for non-torch "
      "memory, and {} GiB for CUDAGraph memory. Replace gpu_memory_utilization config with ",
      gib(t.pre_load_free), gib(t.total), PyFloat(t.util), PyRound2(b.requested / kGiB),
      gib(t.weights), gib(t.activation), gib(t.non_torch), gib(graphs));
  if (!r.AtLeast(0, 11, 0)) {
    // @v0.10.2 (logger.info): the suggestions in bytes only, the KV cache in bytes.
    return head + fmt::format(
                      "`--kv-cache-memory={}` to fit into requested memory, or "
                      "`--kv-cache-memory={}` to fully utilize gpu memory. Current kv cache "
                      "memory in use is {} bytes.",
                      to_requested, to_gpu, b.available);
  }
  // @v0.11.0 (logger.debug from here on; unchanged to v0.20.1, later releases assumed the same).
  return head + fmt::format(
                    "`--kv-cache-memory={}` ({} GiB) to fit into requested memory, or "
                    "`--kv-cache-memory={}` ({} GiB) to fully utilize gpu memory. Current kv "
                    "cache memory in use is {} GiB.",
                    to_requested, gib(to_requested), to_gpu, gib(to_gpu), gib(b.available));
}

}  // namespace kvplan
