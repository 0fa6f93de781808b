// The memory CUDA graphs hold on one rank, as kvplan's fit to the public
// logs that print it. The engines measure this memory (free before - after
// capture) instead of modelling it, so there is no engine rule to mirror;
// the fit lives here so that both the planners (slack checks) and the
// performance model (perf/cuda_graph.h) use the one formula.
#pragma once

#include <cstdint>

#include "catalog/model.h"

namespace kvplan {

// Fitted coefficients: graph memory per rank = max_tokens x layers x hidden x
// 2 B x (kPerHidden + kPerExpert x top_k).
//   Qwen2.5-7B-class, B200, bs <= 512 (52 graphs): 1.44 GiB (sglang PR #11830)
//     -> kPerHidden = 1.44 GiB / (512 x 28 x 3584 x 2) = 15.05
//   DeepSeek-V3, H200 TP8, bs <= 256: 6.22-6.27 GiB (sglang PR #5893)
//     -> kPerExpert = (6.245 GiB / (256 x 61 x 7168 x 2) - 15.05) / 8 = 1.86
inline constexpr double kGraphMemPerHidden = 15.05;
inline constexpr double kGraphMemPerExpert = 1.86;

// What the fit reads of a model on one rank.
struct GraphMemoryShape {
  int layers_per_rank = 0;  // decoder layers on one pipeline stage
  double hidden = 0;        // hidden size
  double top_k = 0;         // routed experts per token (0 for dense models)
};

// Layers of the busiest pipeline stage: ceil(layers / pp).
int LayersPerPipelineRank(int layers, int pp);

// The shape of `m` on one rank of a `pp`-stage pipeline (top_k only for MoE models).
GraphMemoryShape GraphShapeOf(const ModelSpec& m, int pp);

// Memory of one model's CUDA graphs on one rank when the largest graph runs
// `max_tokens` tokens (decode: max_bs; verify: max_bs x draft tokens). 0 when
// max_tokens <= 0 (graphs disabled).
int64_t FittedCudaGraphBytes(const GraphMemoryShape& shape, double max_tokens);

}  // namespace kvplan
