#include "perf/cuda_graph.h"

#include <algorithm>

#include "engines/sglang/era.h"

namespace kvplan {
namespace {

void AddRange(std::vector<int>* out, int start, int stop_exclusive, int step, int max_bs) {
  for (int b = start; b < stop_exclusive && b <= max_bs; b += step) out->push_back(b);
}

}  // namespace

std::vector<int> SglangCaptureBatchSizes(int max_bs, bool speculative) {
  if (max_bs <= 0) return {};
  const std::vector<int64_t> list = SglangCaptureListV05(max_bs, speculative);
  return std::vector<int>(list.begin(), list.end());
}

std::vector<int> VllmCaptureSizes(int max_num_seqs) {
  // vllm/config/vllm.py set_cudagraph_sizes: max_graph_size = min(max_num_seqs * 2, 512).
  const int max_size = std::min(max_num_seqs * 2, 512);
  std::vector<int> sizes;
  for (int b : {1, 2, 4}) {
    if (b <= max_size) sizes.push_back(b);
  }
  AddRange(&sizes, 8, 256, 8, max_size);
  AddRange(&sizes, 256, max_size + 1, 16, max_size);
  return sizes;
}

int64_t CudaGraphMemoryBytes(const ModelGeometry& m, const Parallelism& par, double max_tokens) {
  GraphMemoryShape shape;
  shape.layers_per_rank = LayersPerPipelineRank(m.layers, par.pp);
  shape.hidden = m.hidden;
  shape.top_k = m.top_k;
  return FittedCudaGraphBytes(shape, max_tokens);
}

}  // namespace kvplan
