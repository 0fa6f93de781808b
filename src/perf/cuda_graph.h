// CUDA graphs: the decode batch sizes each engine captures, and the memory
// the captured graphs hold (their private pool keeps the activations of the
// largest graph plus per-graph buffers). The engines measure this memory
// (before - after capture) rather than model it; kvplan fits it to the public
// logs that print it (docs/perf-validation.md).
#pragma once

#include <cstdint>
#include <vector>

#include "models/weights.h"
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

// Fitted coefficients: graph memory per rank = max_tokens x layers x hidden x
// 2 B x (kPerHidden + kPerExpert x top_k).
//   Qwen2.5-7B-class, B200, bs <= 512 (52 graphs): 1.44 GiB (sglang PR #11830)
//     -> kPerHidden = 1.44 GiB / (512 x 28 x 3584 x 2) = 15.05
//   DeepSeek-V3, H200 TP8, bs <= 256: 6.22-6.27 GiB (sglang PR #5893)
//     -> kPerExpert = (6.245 GiB / (256 x 61 x 7168 x 2) - 15.05) / 8 = 1.86
inline constexpr double kGraphMemPerHidden = 15.05;
inline constexpr double kGraphMemPerExpert = 1.86;

// Memory of the CUDA graphs of one model on one rank when the largest graph
// runs `max_tokens` tokens (decode: max_bs; verify: max_bs x draft tokens).
int64_t CudaGraphMemoryBytes(const ModelGeometry& m, const Parallelism& par, double max_tokens);

}  // namespace kvplan
