#include "perf/cuda_graph.h"

#include <algorithm>

namespace kvplan {
namespace {

void AddRange(std::vector<int>* out, int start, int stop_exclusive, int step, int max_bs) {
  for (int b = start; b < stop_exclusive && b <= max_bs; b += step) out->push_back(b);
}

}  // namespace

std::vector<int> SglangCaptureBatchSizes(int max_bs, bool speculative) {
  std::vector<int> bs;
  if (max_bs <= 0) return bs;
  // python/sglang/srt/server_args.py @v0.5.3 _generate_cuda_graph_batch_sizes.
  if (speculative) {
    AddRange(&bs, 1, 9, 1, max_bs);
    AddRange(&bs, 10, 33, 2, max_bs);
    AddRange(&bs, 40, 65, 4, max_bs);
    AddRange(&bs, 72, 257, 8, max_bs);
    AddRange(&bs, 272, max_bs + 1, 16, max_bs);
  } else {
    for (int b : {1, 2, 4, 8, 12}) {
      if (b <= max_bs) bs.push_back(b);
    }
    AddRange(&bs, 16, 257, 8, max_bs);
    AddRange(&bs, 272, 512, 16, max_bs);
    AddRange(&bs, 512, max_bs + 1, 32, max_bs);
  }
  return bs;
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
