#include "perf/cuda_graph.h"

#include <algorithm>

#include "engines/sglang/era.h"

namespace kvplan {
namespace {

void AddRange(std::vector<int>* out, int start, int stop_exclusive, int step, int max_bs) {
  for (int b = start; b < stop_exclusive && b <= max_bs; b += step) out->push_back(b);
}

// [1, 2, 4] + range(8, 256, 8) + range(256, max_size + 1, 16), kept <= max_size.
std::vector<int> VllmCapturePattern(int max_size) {
  std::vector<int> sizes;
  for (int b : {1, 2, 4}) {
    if (b <= max_size) sizes.push_back(b);
  }
  AddRange(&sizes, 8, 256, 8, max_size);
  AddRange(&sizes, 256, max_size + 1, 16, max_size);
  return sizes;
}

}  // namespace

std::vector<int> SglangCaptureBatchSizes(int max_bs, bool speculative) {
  if (max_bs <= 0) return {};
  const std::vector<int64_t> list = SglangCaptureListV05(max_bs, speculative);
  return std::vector<int>(list.begin(), list.end());
}

std::vector<int> VllmCaptureSizes(int max_num_seqs) {
  // vllm/config/vllm.py set_cudagraph_sizes: max_graph_size = min(max_num_seqs * 2, 512).
  return VllmCapturePattern(std::min(max_num_seqs * 2, 512));
}

std::vector<int> VllmLaunchCaptureSizes(const VllmGraphSizing& g) {
  if (g.enforce_eager) return {};
  const int64_t max_tokens = g.max_num_batched_tokens;
  if (!g.sizes.empty()) {
    std::vector<int> sizes;
    for (int64_t s : g.sizes) {
      if (s >= 1 && s <= max_tokens) sizes.push_back(static_cast<int>(s));
    }
    std::sort(sizes.begin(), sizes.end());
    sizes.erase(std::unique(sizes.begin(), sizes.end()), sizes.end());
    return sizes;
  }
  const int64_t max_size =
      std::min(g.max_size.value_or(std::min<int64_t>(g.max_num_seqs * 2, 512)), max_tokens);
  return VllmCapturePattern(static_cast<int>(std::clamp<int64_t>(max_size, 0, 1 << 20)));
}

bool DecodeReplaysGraph(int64_t group_batch, int largest, const Parallelism& par) {
  const int64_t ranks = par.dp_attention ? std::max(1, par.dp) : 1;
  const int64_t largest_rank = (group_batch + ranks - 1) / ranks;
  return largest_rank <= largest;
}

int64_t CudaGraphMemoryBytes(const ModelGeometry& m, const Parallelism& par, double max_tokens) {
  GraphMemoryShape shape;
  shape.layers_per_rank = LayersPerPipelineRank(m.layers, par.pp);
  shape.hidden = m.hidden;
  shape.top_k = m.top_k;
  return FittedCudaGraphBytes(shape, max_tokens);
}

}  // namespace kvplan
