#include "engines/common/cuda_graph_memory.h"

#include <algorithm>

namespace kvplan {

int LayersPerPipelineRank(int layers, int pp) {
  const int stages = std::max(1, pp);
  return (std::max(0, layers) + stages - 1) / stages;
}

GraphMemoryShape GraphShapeOf(const ModelSpec& m, int pp) {
  GraphMemoryShape s;
  s.layers_per_rank = LayersPerPipelineRank(m.num_layers, pp);
  s.hidden = m.hidden_size;
  s.top_k = m.IsMoe() ? m.experts_per_token : 0;
  return s;
}

int64_t FittedCudaGraphBytes(const GraphMemoryShape& s, double max_tokens) {
  if (max_tokens <= 0) return 0;
  const double per_token_layer =
      s.hidden * 2.0 * (kGraphMemPerHidden + kGraphMemPerExpert * s.top_k);
  return static_cast<int64_t>(max_tokens * s.layers_per_rank * per_token_layer);
}

}  // namespace kvplan
