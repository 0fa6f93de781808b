// vLLM's V0 engine (vllm/worker/worker.py determine_num_available_blocks and
// raise_if_cache_size_invalid; removed in 0.11).
#include <cmath>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

constexpr const char* kWorkerLegacy = "vllm/worker/worker.py @v0.6.3 (6ae52299)";
constexpr const char* kWorker = "vllm/worker/worker.py @v0.7.0 (PR #12126)";

}  // namespace

void SetVllmAvailableKv(const VllmTerms& t, double kv, VllmBudget* b) {
  if (t.available_kv) {
    kv = static_cast<double>(*t.available_kv);
    b->source = VllmBudget::Source::kLog;
  }
  // Bytes are whole inside kvplan: the float budget is floored.
  b->available = static_cast<int64_t>(std::floor(kv));
}

VllmBudget VllmV0Budget(const VllmTerms& t, VllmEra era) {
  VllmBudget b;
  b.requested = static_cast<double>(t.total) * t.util;
  if (era == VllmEra::kV0Legacy) {
    // worker.py @v0.6.3: available = total * util - peak_torch (weights included) - non_torch.
    b.peak = t.peak_torch.value_or(t.weights + t.activation);
    b.kv_from_terms = b.requested - static_cast<double>(b.peak) - static_cast<double>(t.non_torch);
  } else {
    // worker.py @v0.7.0: kv = total * util - weights - non_torch - activation peak.
    b.kv_from_terms = b.requested - static_cast<double>(t.weights + t.non_torch + t.activation);
  }
  SetVllmAvailableKv(t, b.kv_from_terms, &b);
  // V0 captures CUDA graphs after the KV cache: they come out of the headroom.
  b.graph_after_kv = t.enforce_eager ? 0 : t.cuda_graph;
  return b;
}

VllmBudgetText DescribeVllmV0Budget(const VllmTerms& t, const VllmBudget& b, VllmEra era) {
  VllmBudgetText out;
  const char* src = era == VllmEra::kV0Legacy ? kWorkerLegacy : kWorker;
  double kv = b.kv_from_terms;
  out.stages.push_back(
      {"requested_memory",
       fmt::format("total_gpu_memory {} GiB ({}) x gpu_memory_utilization {} = {} GiB",
                   Gib2(t.total), t.total_src, PyFloat(t.util),
                   fmt::format("{:.2f}", b.requested / kGiB)),
       static_cast<int64_t>(b.requested), src, ""});
  if (era == VllmEra::kV0Legacy) {
    out.stages.push_back(
        {"peak_torch_memory",
         fmt::format("weights {} GiB ({}) + activation peak {} GiB ({}) = {} GiB", Gib2(t.weights),
                     t.weights_src, Gib2(t.activation), t.activation_src, Gib2(b.peak)),
         b.peak, src, ""});
    out.stages.push_back({"kv_cache_size",
                          fmt::format("{:.2f} - peak_torch {} - non_torch {} GiB ({}) = {:.2f} GiB",
                                      b.requested / kGiB, Gib2(b.peak), Gib2(t.non_torch),
                                      t.non_torch_src, kv / kGiB),
                          static_cast<int64_t>(kv), src, ""});
  } else {
    out.stages.push_back(
        {"kv_cache_memory",
         fmt::format("{:.2f} - weights {} ({}) - non_torch {} ({}) - activation peak {} ({}) = "
                     "{:.2f} GiB",
                     b.requested / kGiB, Gib2(t.weights), t.weights_src, Gib2(t.non_torch),
                     t.non_torch_src, Gib2(t.activation), t.activation_src, kv / kGiB),
         static_cast<int64_t>(kv), src, ""});
  }
  if (b.source == VllmBudget::Source::kLog) {
    out.warnings.push_back(
        fmt::format("KV cache size {} GiB taken from the log instead of the terms above",
                    Gib2(*t.available_kv)));
  }
  if (era == VllmEra::kV0) {
    // worker.py @v0.7.0 determine_num_available_blocks: the multi-line log.
    out.log_lines.push_back(fmt::format(
        "the current vLLM instance can use total_gpu_memory ({:.2f}GiB) x gpu_memory_utilization "
        "({:.2f}) = {:.2f}GiB",
        ToGiB(t.total), t.util, b.requested / kGiB));
    out.log_lines.push_back(
        fmt::format("model weights take {:.2f}GiB; non_torch_memory takes {:.2f}GiB; PyTorch "
                    "activation peak memory takes {:.2f}GiB; the rest of the memory reserved for "
                    "KV Cache is {:.2f}GiB.",
                    ToGiB(t.weights), ToGiB(t.non_torch), ToGiB(t.activation),
                    static_cast<double>(b.available) / kGiB));
  }
  return out;
}

VllmKvReport VllmV0Report(const VllmKvSpec& spec, int64_t available, int64_t max_model_len,
                          int64_t swap_bytes) {
  VllmKvReport r;
  // vllm/worker/cache_engine.py get_cache_block_size: one block across all layers.
  int64_t block_bytes = spec.block_size * spec.BytesPerTokenAllLayers();
  r.num_blocks = available > 0 ? available / block_bytes : 0;
  r.num_cpu_blocks = swap_bytes / block_bytes;
  r.tokens = r.num_blocks * spec.block_size;
  r.token_rule = VllmKvReport::TokenRule::kBlocksTimesBlockSize;
  r.concurrency = static_cast<double>(r.tokens) / static_cast<double>(max_model_len);
  r.needed = max_model_len * spec.BytesPerTokenAllLayers();
  // worker.py raise_if_cache_size_invalid.
  if (r.num_blocks <= 0) {
    r.error =
        "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when "
        "initializing the engine.";
  } else if (max_model_len > r.tokens) {
    r.error = fmt::format(
        "The model's max seq len ({}) is larger than the maximum number of tokens that can be "
        "stored in KV cache ({}). Try increasing `gpu_memory_utilization` or decreasing "
        "`max_model_len` when initializing the engine.",
        max_model_len, r.tokens);
    r.estimated_max_len = r.tokens;
  }
  r.ok = r.error.empty();
  return r;
}

std::vector<std::string> DescribeVllmV0ReportLines(const VllmKvReport& r, int64_t max_model_len,
                                                   VllmEra era) {
  // executor_base.py: "# %s blocks" printed as "# CUDA blocks" from 0.7.
  return {fmt::format("# {} blocks: {}, # CPU blocks: {}",
                      era == VllmEra::kV0Legacy ? "GPU" : "CUDA", r.num_blocks, r.num_cpu_blocks),
          fmt::format("Maximum concurrency for {} tokens per request: {:.2f}x", max_model_len,
                      r.concurrency)};
}

}  // namespace kvplan
