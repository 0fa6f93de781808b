// The CUDA-graph memory an SGLang launch captures after the KV pool, out of
// the pre_load_free * (1 - mem_fraction_static) slack. SGLang measures it
// (free memory before - after capture) and keeps the target's and the
// draft's graphs in one memory pool; kvplan estimates it with its fit
// (engines/common/cuda_graph_memory.h) at the token count of each runner's largest
// graph.
#pragma once

#include <cstdint>
#include <string>

#include "catalog/model.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/speculative.h"

namespace kvplan {

struct SglangGraphEstimate {
  int64_t target_bytes = 0;
  int64_t draft_bytes = 0;  // draft-decode + draft-extend graphs (speculative only)
  std::string formula;      // filled when asked for

  int64_t Total() const { return target_bytes + draft_bytes; }
};

// The token width of the target's largest graph at batch `graph_max_bs`:
// decode bs, or bs x num_draft_tokens for a speculative target's verify graphs.
double SglangTargetGraphTokens(int64_t graph_max_bs, bool spec, const SglangSpecParams& sp);

// The token widths of the draft's two graph runners at their largest batch
// `graph_max_bs`: draft decode bs x topk, draft extend bs x (steps + 1).
struct SglangDraftGraphWidths {
  double decode = 0;
  double extend = 0;
};
SglangDraftGraphWidths SglangDraftGraphTokens(int64_t graph_max_bs, const SglangSpecParams& sp);

// `graph_max_bs` is the largest captured batch (0: graphs disabled); `spec`
// whether a draft runs, with `sp` its resolved parameters; `draft` the draft
// model when one is given (nullptr: NEXTN/MTP heads of the target).
SglangGraphEstimate EstimateSglangGraphs(const ModelSpec& model, const ModelSpec* draft,
                                         const SglangArgs& args, bool spec,
                                         const SglangSpecParams& sp, int64_t graph_max_bs,
                                         bool with_formula);

}  // namespace kvplan
