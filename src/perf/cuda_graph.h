// CUDA graphs: the decode batch sizes each engine captures, and the memory
// the captured graphs hold (their private pool keeps the activations of the
// largest graph plus per-graph buffers). The engines measure this memory
// (before - after capture) rather than model it; kvplan fits it to the public
// logs that print it (docs/perf-validation.md).
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "catalog/weights.h"
#include "engines/common/cuda_graph_memory.h"
#include "perf/model_geometry.h"

namespace kvplan {

// SGLang v0.5.3+ server_args._generate_cuda_graph_batch_sizes:
//   plain:       [1,2,4,8,12] + range(16,257,8) + range(272,512,16) + range(512,max+1,32)
//   speculative: range(1,9) + range(10,33,2) + range(40,65,4) + range(72,257,8) +
//   range(272,max+1,16)
// kept <= max_bs.
std::vector<int> SglangCaptureBatchSizes(int max_bs, bool speculative);

// vLLM v1 (vllm/config/vllm.py set_cudagraph_sizes, v0.11+):
//   max_graph_size = min(max_num_seqs * 2, 512)
//   [1, 2, 4] + range(8, 256, 8) + range(256, max_graph_size + 1, 16), kept <= max_graph_size.
std::vector<int> VllmCaptureSizes(int max_num_seqs);

// What decides the sizes one vLLM launch captures.
struct VllmGraphSizing {
  int64_t max_num_seqs = 256;
  int64_t max_num_batched_tokens = 8192;
  std::optional<int64_t>
      max_size;                // max_cudagraph_capture_size (--cuda-graph-sizes N at 0.10-0.11)
  std::vector<int64_t> sizes;  // cudagraph_capture_sizes as given (empty: the pattern)
  bool enforce_eager = false;
};
// vllm/config/vllm.py _set_cudagraph_sizes (v0.11+): none with --enforce-eager; the sizes
// given, deduplicated, sorted, those <= max_num_batched_tokens; else VllmCaptureSizes' pattern
// up to min(max_cudagraph_capture_size or min(2 * max_num_seqs, 512), max_num_batched_tokens).
std::vector<int> VllmLaunchCaptureSizes(const VllmGraphSizing& g);

// Whether a decode of `group_batch` requests (the whole TP group's) replays a graph captured up
// to `largest` (0: none). python/sglang/srt/model_executor/cuda_graph_runner.py can_run (SGLang
// v0.5): under DP attention (require_mlp_tp_gather) the graph batch is the largest rank's,
// max(global_num_tokens), not the group's sum; the ranks are dealt round robin, so the largest
// holds ceil(group_batch / dp). Without DP attention a replica's batch is its own.
bool DecodeReplaysGraph(int64_t group_batch, int largest, const Parallelism& par);

// Memory of the CUDA graphs of one model on one rank when the largest graph
// runs `max_tokens` tokens (decode: max_bs; verify: max_bs x draft tokens):
// the fit in engines/common/cuda_graph_memory.h (kGraphMemPerHidden, kGraphMemPerExpert)
// over the geometry's layers per pipeline stage, hidden size and top_k.
int64_t CudaGraphMemoryBytes(const ModelGeometry& m, const Parallelism& par, double max_tokens);

}  // namespace kvplan
