// The text of a vLLM plan after the budget: the KV stages' formulas, the
// memory bar, the figures (with the lines the engine prints) and the warnings,
// written from the stages' data (engines/vllm/stages.h).
#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "engines/common/flag_parser.h"
#include "engines/vllm/stages.h"

namespace kvplan {
namespace {

std::string KvSource(bool v0) {
  return v0 ? "vllm/worker/worker.py + cache_engine.py"
            : "vllm/v1/core/kv_cache_utils.py @v0.10 (bbf906a8)";
}

std::string KvLayout(const VllmKvSpec& spec) {
  return fmt::format(
      "{} layers x {} B/token ({}), block_size {}{}", spec.layers.size(),
      spec.layers.empty() ? 0 : spec.layers.front().bytes_per_token, spec.dtype, spec.block_size,
      spec.hybrid ? fmt::format("; {} groups of {} layers, {} padding", spec.num_groups,
                                spec.group_size, spec.padding_layers)
                  : "");
}

// The bytes one num_gpu_blocks unit costs (the divisor of the block count).
int64_t BlockBytes(const VllmKvSpec& spec, bool v0) {
  if (v0) return spec.block_size * spec.BytesPerTokenAllLayers();
  return spec.page_bytes *
         (spec.hybrid ? spec.group_size : static_cast<int64_t>(spec.layers.size()));
}

}  // namespace

std::vector<Stage> DescribeVllmKvStages(const VllmDefaults& d, const VllmBudget& b,
                                        const VllmKvSpec& spec, const VllmKvReport& rep) {
  bool v0 = IsV0(d.era);
  std::vector<Stage> out;
  out.push_back(
      {"needed_for_one_request",
       fmt::format("{} tokens x {} = {}", d.max_model_len, KvLayout(spec), FormatGiB(rep.needed)),
       rep.needed, KvSource(v0), ""});
  if (rep.ok) {
    out.push_back(
        {"kv_cache",
         fmt::format("num_gpu_blocks = {} // {} = {} (min over workers: identical ranks); "
                     "tokens = {} = {}",
                     b.available, BlockBytes(spec, v0), rep.num_blocks,
                     DescribeVllmTokenRule(rep, spec, d.max_model_len), rep.tokens),
         VllmKvBytesAllocated(spec, rep.num_blocks, v0), KvSource(v0), ""});
  }
  return out;
}

std::vector<MemorySlice> DescribeVllmMemory(const VllmTerms& t, int64_t kv_alloc) {
  std::vector<MemorySlice> out;
  out.push_back({"weights", t.weights});
  out.push_back({"activation peak (profiling)", t.activation});
  out.push_back({"non-torch (NCCL, workspaces)", t.non_torch});
  int64_t graphs = t.enforce_eager ? 0 : t.cuda_graph;
  if (graphs > 0) out.push_back({"cuda graphs", graphs});
  out.push_back({"kv cache", kv_alloc});
  int64_t used = t.weights + t.activation + t.non_torch + graphs + kv_alloc;
  out.push_back({"unused (1 - utilization headroom)", std::max<int64_t>(0, t.total - used)});
  return out;
}

std::vector<Figure> DescribeVllmFigures(const VllmDefaults& d, const VllmTerms& t,
                                        const VllmBudget& b, const VllmBudgetText& bt,
                                        const VllmKvSpec& spec, const VllmKvReport& rep) {
  std::vector<Figure> out;
  auto fig = [&](const std::string& k, double v) { out.push_back({k, v, ""}); };
  fig("gpus_per_replica", static_cast<double>(d.gpus_per_replica));
  fig("num_gpu_blocks", static_cast<double>(rep.num_blocks));
  fig("kv_cache_tokens", static_cast<double>(rep.tokens));
  fig("max_concurrency", rep.concurrency);
  fig("available_kv_cache_gib", ToGiB(b.available));
  fig("requested_memory_gib", b.requested / static_cast<double>(kGiB));
  fig("needed_kv_gib", ToGiB(rep.needed));
  if (rep.estimated_max_len > 0)
    fig("estimated_max_model_len", static_cast<double>(rep.estimated_max_len));
  fig("block_size", static_cast<double>(spec.block_size));
  fig("max_num_batched_tokens", static_cast<double>(d.mnbt));
  fig("activation_peak_gib", ToGiB(t.activation));
  fig("non_torch_gib", ToGiB(t.non_torch));
  fig("cuda_graph_gib", ToGiB(t.enforce_eager ? 0 : t.cuda_graph));
  fig("kv_cache_groups", spec.num_groups);
  if (spec.padding_layers > 0) fig("padding_layers", spec.padding_layers);
  if (IsV0(d.era)) fig("num_cpu_blocks", static_cast<double>(rep.num_cpu_blocks));
  // The lines the engine prints, in order ("log_1", "log_2", ...).
  std::vector<std::string> lines = bt.log_lines;
  std::vector<std::string> report =
      IsV0(d.era) ? DescribeVllmV0ReportLines(rep, d.max_model_len, d.era)
                  : DescribeVllmV1ReportLines(rep, d.max_model_len, d.release);
  lines.insert(lines.end(), report.begin(), report.end());
  for (size_t i = 0; i < lines.size(); ++i) {
    out.push_back({fmt::format("log_{}", i + 1), 0, lines[i]});
  }
  return out;
}

std::vector<std::string> DescribeVllmKvWarnings(const ModelSpec& model, const VllmBudgetText& bt,
                                                const VllmKvSpec& spec, const VllmArgs& a) {
  std::vector<std::string> out = bt.warnings;
  for (auto [pad, count] : spec.padding_by_kind) {
    // kv_cache_utils.py _get_kv_cache_groups_uniform_page_size @v0.10: the padding warning.
    out.push_back(fmt::format("Add {} padding layers, may waste at most {:.2f}% KV cache memory",
                              pad, 100.0 * pad / count));
  }
  if (model.NumLayersOfKind(LayerKind::kLinear) > 0) {
    out.push_back("linear-attention/mamba state layers are not modelled (no per-token KV)");
  }
  for (const std::string& f : a.unknown_flags) {
    out.push_back(UnknownFlagWarning("vLLM", f));
  }
  return out;
}

}  // namespace kvplan
