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

std::string GroupsText(const VllmKvSpec& spec) {
  return spec.hybrid ? fmt::format("; {} groups of {} layers, {} padding", spec.num_groups,
                                   spec.group_size, spec.padding_layers)
                     : "";
}

// The first layer holding per-token KV (a hybrid's first layers may hold state only).
int64_t AttentionBytesPerToken(const VllmKvSpec& spec) {
  for (const VllmKvLayer& l : spec.layers) {
    if (l.kind != LayerKind::kLinear && !l.indexer) return l.bytes_per_token;
  }
  return 0;
}

std::string KvLayout(const VllmKvSpec& spec) {
  int states = spec.NumLayers(LayerKind::kLinear);
  int indexers = spec.NumIndexerLayers();
  if (states == 0 && indexers == 0 && !spec.UniformPages()) {
    // Layers with their own KV heads or sizes (catalog/layer_geometry.h).
    return fmt::format(
        "{} layers, {} B/token in all (per-layer sizes differ) ({}), block_size {}{}",
        spec.layers.size(), spec.BytesPerTokenAllLayers(), spec.dtype, spec.block_size,
        GroupsText(spec));
  }
  if (states == 0 && indexers == 0) {
    return fmt::format("{} layers x {} B/token ({}), block_size {}{}", spec.layers.size(),
                       spec.layers.empty() ? 0 : spec.layers.front().bytes_per_token, spec.dtype,
                       spec.block_size, GroupsText(spec));
  }
  int attention = static_cast<int>(spec.layers.size()) - states - indexers;
  if (spec.StateOnly()) {
    return fmt::format("{} mamba state layers x one {} B page (no attention layers), block_size {}",
                       states, WithThousands(spec.StateBytes()), spec.block_size);
  }
  std::string out = fmt::format("{} attention layers x {} B/token ({})", attention,
                                AttentionBytesPerToken(spec), spec.dtype);
  if (indexers > 0) {
    int64_t idx = 0;
    for (const VllmKvLayer& l : spec.layers) idx = l.indexer ? l.bytes_per_token : idx;
    out += fmt::format(" + {} indexer K caches x {} B/token (uint8)", indexers, idx);
  }
  if (states > 0) {
    out += fmt::format(" + {} mamba state layers x one {} B page", states, spec.StateBytes());
  }
  return out + fmt::format(", block_size {}{}", spec.block_size, GroupsText(spec));
}

// The bytes one num_gpu_blocks unit costs (the divisor of the block count).
int64_t BlockBytes(const VllmKvSpec& spec, bool v0) {
  // UniformTypeKVCacheSpecs (one page per layer, sizes differing): the sum of the pages.
  if (v0 || (!spec.hybrid && !spec.UniformPages())) {
    return spec.block_size * spec.BytesPerTokenAllLayers();
  }
  return spec.page_bytes *
         (spec.hybrid ? spec.group_size : static_cast<int64_t>(spec.layers.size()));
}

// The groups of a hybrid with state layers: which kind each holds, and the one page size.
std::string GroupKinds(const VllmKvSpec& spec) {
  int attention = 0, state = 0;
  for (LayerKind k : spec.group_kinds) (k == LayerKind::kLinear ? state : attention) += 1;
  return fmt::format("{} attention + {} mamba state groups of {} layers, one pool of {} B pages",
                     attention, state, spec.group_size, WithThousands(spec.page_bytes));
}

// A hybrid's state page and its groups (kv_cache_utils.py @v0.10.2), and what one request
// holds: cdiv(len, block) blocks per attention group, one block per state group.
void AddStateStages(const VllmDefaults& d, const VllmKvSpec& spec, const VllmKvReport& rep,
                    std::vector<Stage>* out) {
  const VllmHybridBlock& h = d.hybrid;
  std::string tensors;
  for (const VllmStateTensor& t : h.state) {
    tensors += fmt::format("{}{} {} x {} B", tensors.empty() ? "" : " + ", t.name,
                           WithThousands(t.elements), t.dtype_bytes);
  }
  const std::string page =
      h.state_only
          ? fmt::format("one page per block of {} tokens (no attention page)", h.block_size)
          : fmt::format("padded to the attention page {} tokens x {} B = {} B", h.block_size,
                        WithThousands(h.attn_bytes_per_token), WithThousands(h.page_bytes));
  out->push_back({"mamba_state", fmt::format("one layer, one request: {}; {}", tensors, page), 0,
                  "vllm/v1/kv_cache_interface.py MambaSpec @v0.10.2",
                  fmt::format("{} B", WithThousands(h.state_bytes))});
  out->push_back(
      {"kv_cache_groups", GroupKinds(spec), 0, KvSource(false), std::to_string(spec.num_groups)});
  if (!rep.ok) return;
  const std::string per_request =
      spec.StateOnly()
          ? fmt::format("{} per request, no attention group", spec.state_pages_per_request)
          : fmt::format("(cdiv({}, {}) per attention group + {} per state group)", d.max_model_len,
                        spec.block_size, spec.state_pages_per_request);
  out->push_back({"max_concurrency",
                  fmt::format("{} blocks / {} = requests of max_model_len at once", rep.num_blocks,
                              per_request),
                  0, KvSource(false), fmt::format("{:.2f}", rep.concurrency)});
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
  if (d.hybrid.modelled && spec.NumLayers(LayerKind::kLinear) > 0) {
    AddStateStages(d, spec, rep, &out);
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
  if (d.hybrid.modelled) {
    fig("mamba_state_layers", spec.NumLayers(LayerKind::kLinear));
    fig("mamba_state_bytes", static_cast<double>(d.hybrid.state_bytes));
    fig("mamba_page_bytes", static_cast<double>(d.hybrid.page_bytes));
  }
  if (int idx = spec.NumIndexerLayers(); idx > 0) fig("indexer_layers", idx);
  if (IsV0(d.era)) fig("num_cpu_blocks", static_cast<double>(rep.num_cpu_blocks));
  // The lines the engine prints, in order ("log_1", "log_2", ...).
  // The hybrid block lines come from the config, before the memory profile.
  std::vector<std::string> lines = VllmHybridLogLines(d.hybrid);
  lines.insert(lines.end(), bt.log_lines.begin(), bt.log_lines.end());
  std::vector<std::string> report =
      IsV0(d.era) ? DescribeVllmV0ReportLines(rep, d.max_model_len, d.era)
                  : DescribeVllmV1ReportLines(rep, d.max_model_len, d.release);
  lines.insert(lines.end(), report.begin(), report.end());
  if (rep.ok)
    lines.insert(lines.end(), bt.log_lines_after_start.begin(), bt.log_lines_after_start.end());
  for (size_t i = 0; i < lines.size(); ++i) {
    out.push_back({fmt::format("log_{}", i + 1), 0, lines[i]});
  }
  return out;
}

std::vector<std::string> DescribeVllmKvWarnings(const VllmHybridBlock& hybrid,
                                                const VllmBudgetText& bt, const VllmKvSpec& spec,
                                                const VllmArgs& a) {
  std::vector<std::string> out = bt.warnings;
  for (auto [pad, count] : spec.padding_by_kind) {
    // kv_cache_utils.py _get_kv_cache_groups_uniform_page_size @v0.10: the padding warning.
    out.push_back(fmt::format("Add {} padding layers, may waste at most {:.2f}% KV cache memory",
                              pad, 100.0 * pad / count));
  }
  if (!hybrid.not_modelled_reason.empty()) out.push_back(hybrid.not_modelled_reason);
  for (const std::string& f : a.unknown_flags) {
    out.push_back(UnknownFlagWarning("vLLM", f));
  }
  return out;
}

}  // namespace kvplan
