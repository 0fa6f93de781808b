#include "engines/sglang/graph_estimate.h"

#include <algorithm>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/common/cuda_graph_memory.h"

namespace kvplan {
namespace {

// The draft the graphs run over, with its layers as SGLang counts them
// (pool_configurator.py @main 2026-08, as in engines/sglang/cell.cc): a NextN/MTP
// draft is num_nextn_predict_layers of the target's own layer shape.
// False when there is no draft to capture.
bool DraftShape(const ModelSpec& model, const ModelSpec* draft, const std::string& algo, int pp,
                GraphMemoryShape* out) {
  if (draft != nullptr) {
    *out = GraphShapeOf(*draft, pp);
    if (draft->num_nextn_predict_layers > 0) {
      out->layers_per_rank = LayersPerPipelineRank(draft->num_nextn_predict_layers, pp);
    }
    return true;
  }
  if (algo != "NEXTN" && algo != "EAGLE") return false;
  *out = GraphShapeOf(model, pp);
  out->layers_per_rank = std::max(1, model.num_nextn_predict_layers);
  return true;
}

std::string ShapeText(const GraphMemoryShape& s) {
  std::string t = fmt::format("{} layer{} x hidden {}", s.layers_per_rank,
                              s.layers_per_rank == 1 ? "" : "s", s.hidden);
  if (s.top_k > 0) t += fmt::format(" (top_k {})", s.top_k);
  return t;
}

}  // namespace

double SglangTargetGraphTokens(int64_t graph_max_bs, bool spec, const SglangSpecParams& sp) {
  // model_executor/cuda_graph_runner.py @0021673: an EAGLE target captures
  // TARGET_VERIFY graphs, num_tokens_per_bs = speculative_num_draft_tokens.
  const double per_bs = spec ? static_cast<double>(sp.draft_tokens) : 1.0;
  return static_cast<double>(graph_max_bs) * per_bs;
}

SglangDraftGraphWidths SglangDraftGraphTokens(int64_t graph_max_bs, const SglangSpecParams& sp) {
  // speculative/eagle_draft_cuda_graph_runner.py (v0.4.x-v0.5.x and main):
  // num_tokens_per_bs = topk; eagle_draft_extend_cuda_graph_runner.py (v0.5.x):
  // speculative_num_steps + 1 (main 2026 captures num_draft_tokens wide, the
  // same when topk is 1; not modelled per era).
  const double bs = static_cast<double>(graph_max_bs);
  return {bs * static_cast<double>(std::max<int64_t>(1, sp.topk)),
          bs * static_cast<double>(sp.steps + 1)};
}

SglangGraphEstimate EstimateSglangGraphs(const ModelSpec& model, const ModelSpec* draft,
                                         const SglangArgs& a, bool spec, const SglangSpecParams& sp,
                                         int64_t graph_max_bs, bool with_formula) {
  SglangGraphEstimate e;
  if (graph_max_bs <= 0) return e;
  const GraphMemoryShape target = GraphShapeOf(model, a.pp);
  const double target_tokens = SglangTargetGraphTokens(graph_max_bs, spec, sp);
  e.target_bytes = FittedCudaGraphBytes(target, target_tokens);
  GraphMemoryShape d;
  const bool has_draft = spec && DraftShape(model, draft, a.speculative_algorithm, a.pp, &d);
  const SglangDraftGraphWidths w = SglangDraftGraphTokens(graph_max_bs, sp);
  if (has_draft)
    e.draft_bytes = FittedCudaGraphBytes(d, w.decode) + FittedCudaGraphBytes(d, w.extend);
  if (!with_formula) return e;
  e.formula = fmt::format(
      "kvplan fit (sglang PR #11830, #5893): tokens x layers x hidden x 2 B x ({} + {} x top_k); "
      "target{}: {} tokens ({}) x {} = {:.3f} GiB",
      kGraphMemPerHidden, kGraphMemPerExpert, spec ? " verify" : "", target_tokens,
      spec ? fmt::format("bs {} x {} draft tokens", graph_max_bs, sp.draft_tokens)
           : fmt::format("bs {}", graph_max_bs),
      ShapeText(target), ToGiB(e.target_bytes));
  if (has_draft) {
    e.formula += fmt::format(
        "; draft: {} tokens (bs {} x topk {} + bs {} x (steps {} + 1)) x {} = {:.3f} GiB",
        w.decode + w.extend, graph_max_bs, sp.topk, graph_max_bs, sp.steps, ShapeText(d),
        ToGiB(e.draft_bytes));
  }
  return e;
}

}  // namespace kvplan
