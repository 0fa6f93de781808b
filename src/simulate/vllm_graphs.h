// The CUDA-graph capture sizes a vLLM launch asks for, read from its flags as
// the release's parser takes them (data/flags/vllm/ lists which release has
// which): --cuda-graph-sizes (0.10.1.1, 0.11.0: one value is the largest size,
// several the list), --cudagraph-capture-sizes and --max-cudagraph-capture-size
// (0.14.1+), and --compilation-config's cudagraph_capture_sizes,
// max_cudagraph_capture_size and cudagraph_mode NONE (no graphs; as
// --enforce-eager). perf/cuda_graph.h VllmLaunchCaptureSizes turns
// them into the sizes captured.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "perf/cuda_graph.h"

namespace kvplan {

// Throws InputError for a size that is not a whole number >= 1 or a
// --compilation-config that is not a JSON object.
VllmGraphSizing VllmGraphSizingOf(const std::vector<std::string>& args, int64_t max_num_seqs,
                                  int64_t max_num_batched_tokens, bool enforce_eager);

}  // namespace kvplan
