// An SGLang plan's figures, the bar of one GPU's memory and the warnings
// about what the stages found; texts only.
#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "engines/sglang/stages.h"

namespace kvplan {
namespace {

// The KV pool's size as the engine logs it.
void DescribeKvFigures(const SglangStages& s, const ModelSpec& model, std::vector<Figure>* f) {
  const SglangCell& cell = s.cell;
  const int64_t tokens = s.tokens.tokens;
  const int64_t page = s.settings.page_size;
  if (!cell.mla) {
    // The log's "K size": (tokens + page_size) * heads * head_dim * layers * elem / 2^30
    const int k_layers = cell.hybrid_mode != 0 ? cell.n_full : cell.layers;
    const double scale = static_cast<double>(tokens + page) * cell.kv_heads_per_rank * k_layers *
                         cell.elem_bytes / static_cast<double>(kGiB);
    f->push_back({"k_size_gib", scale * model.head_dim, ""});
    f->push_back({"v_size_gib", scale * model.v_head_dim, ""});
  } else {
    f->push_back(
        {"kv_size_gib", static_cast<double>(s.slack.kv_pool) / static_cast<double>(kGiB), ""});
  }
  if (s.tokens.swa_tokens >= 0) {
    f->push_back({"full_layer_tokens", static_cast<double>(tokens), ""});
    f->push_back({"swa_layer_tokens", static_cast<double>(s.tokens.swa_tokens), ""});
  }
}

// What the state-pool stage does not know.
void DescribeStateWarnings(const SglangStages& s, const ModelSpec& model,
                           std::vector<std::string>* w) {
  if (!s.state.active) return;
  if (model.state_kind != StateKind::kGatedDeltaNet && !SglangHybridReleaseKnown(model)) {
    w->push_back(fmt::format(
        "{}: kvplan applies SGLang's Mamba state pool rule without checking from which release "
        "SGLang serves this architecture",
        model.architecture));
  }
  if (s.launch.args.pp > 1) {
    w->push_back(
        fmt::format("the mamba state pool counts all {} state layers on each pipeline stage (the "
                    "per-stage split of the state is not modelled)",
                    s.state.shape.layers));
  }
  if (s.state.slots_per_request > 1 && s.pool.state_cap == 0) {
    w->push_back(fmt::format("max_mamba_cache_size {} // {} leaves no request slot", s.state.slots,
                             s.state.slots_per_request));
  }
}

}  // namespace

void DescribeSglangFigures(const SglangStages& s, const ModelSpec& model, PlanResult* r) {
  const SglangArgs& a = s.launch.args;
  const SglangSpecParams& sp = s.settings.spec;
  const SglangSlack& sl = s.slack;
  std::vector<Figure>& f = r->figures;
  auto add = [&f](const char* key, int64_t value) {
    f.push_back({key, static_cast<double>(value), ""});
  };
  add("gpus_per_replica", a.tp * a.pp);
  add("page_size", s.settings.page_size);
  add("profiled_tokens", s.tokens.profiled);
  add("max_num_reqs", s.pool.max_num_reqs);
  add("req_to_token_bytes", sl.req_to_token);
  add("chunked_prefill_size", s.settings.chunked_prefill_size);
  add("cuda_graph_max_bs", sl.graph_max_bs);
  if (s.launch.spec) {
    add("speculative_num_steps", sp.steps);
    add("speculative_eagle_topk", sp.topk);
    add("speculative_num_draft_tokens", sp.draft_tokens);
  }
  if (s.verdict.ok) DescribeKvFigures(s, model, &f);
  if (s.state.active) {
    add("mamba_cache_per_req_bytes", s.state.per_req);
    add("max_mamba_cache_size", s.state.slots);
    add("mamba_state_bytes", s.state.bytes);
    add("mamba_intermediate_bytes", s.state.intermediate_bytes);
  }
  add("draft_weights_bytes", s.weights.draft_weights);
  add("draft_kv_bytes", sl.draft_kv);
  add("slack_bytes", s.budget.slack_bytes);
  add("slack_used_estimate_bytes", sl.used);
  add("cuda_graph_estimate_bytes", sl.graphs.Total());
  if (s.launch.spec) add("draft_graph_estimate_bytes", sl.graphs.draft_bytes);
}

void DescribeSglangMemory(const SglangStages& s, const GpuSpec& gpu, PlanResult* r) {
  // The bar: one GPU's memory, in allocation order.
  const int64_t draft_weights = s.weights.draft_weights;
  const bool draft_first = s.launch.era->draft_weights_before_profile;
  const SglangSlack& sl = s.slack;
  std::vector<MemorySlice>& m = r->memory;
  m.push_back({"CUDA context + communicators", gpu.total_bytes - s.weights.pre_load_free});
  m.push_back({"weights", s.weights.weights});
  if (draft_first && draft_weights > 0) m.push_back({"draft weights", draft_weights});
  if (!s.verdict.ok) return;
  if (s.state.intermediate_bytes > 0) {
    m.push_back({"mamba intermediate states", s.state.intermediate_bytes});
  }
  if (s.state.active) m.push_back({"mamba state pool", s.state.bytes + s.state.padding_bytes});
  m.push_back({"KV cache", sl.kv_pool});
  if (sl.draft_kv > 0) m.push_back({"draft KV cache", sl.draft_kv});
  if (!draft_first && draft_weights > 0) m.push_back({"draft weights", draft_weights});
  m.push_back({"req_to_token pool", sl.req_to_token});
  m.push_back({"CUDA graphs + activations (rest of slack)",
               std::max<int64_t>(0, s.budget.slack_bytes - sl.req_to_token - sl.draft_kv -
                                        sl.draft_weights_in_slack - s.state.padding_bytes)});
}

void DescribeSglangWarnings(const SglangStages& s, const ModelSpec& model, PlanResult* r) {
  const SglangArgs& a = s.launch.args;
  std::vector<std::string>& w = r->warnings;
  // Reached only under SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 (otherwise the
  // launch is refused): model_config.py logs the message without its last sentence.
  if (a.context_length && model.max_position_embeddings > 0 &&
      *a.context_length > model.max_position_embeddings) {
    const std::string error =
        SglangContextLengthError(*a.context_length, model.max_position_embeddings);
    w.push_back(error.substr(0, error.find(" To allow overriding")));
  }
  if (a.max_total_tokens && *a.max_total_tokens > s.tokens.before_user_cap) {
    w.push_back(
        fmt::format("max_total_tokens={} is larger than the profiled value {}. Use the profiled "
                    "value instead.",
                    *a.max_total_tokens, s.tokens.before_user_cap));
  }
  const SglangSlack& sl = s.slack;
  if (s.verdict.ok && sl.used > s.budget.slack_bytes) {
    const SglangGraphEstimate& g = sl.graphs;
    w.push_back(fmt::format(
        "the slack pre_load_free * (1 - mem_fraction_static) = {} may not hold what is allocated "
        "after the KV pool (req_to_token {}, CUDA graphs ~{} ({}), draft KV/weights {}): "
        "expect an out-of-memory error during CUDA-graph capture",
        FormatGiB(s.budget.slack_bytes, 3), FormatGiB(sl.req_to_token, 3), FormatGiB(g.Total(), 3),
        s.launch.spec ? fmt::format("fitted: target {} + draft {}", FormatGiB(g.target_bytes, 3),
                                    FormatGiB(g.draft_bytes, 3))
                      : std::string("fitted"),
        FormatGiB(sl.draft_kv + sl.draft_weights_in_slack, 3)));
  }
  DescribeStateWarnings(s, model, &w);
  if (s.settings.gpu_mem_mib == 0) {
    w.push_back("GPU capacity unknown: SGLang falls back to mem_fraction_static 0.88");
  }
}

}  // namespace kvplan
