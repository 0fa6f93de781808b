// TensorRT-LLM start-up lines (../shared/reference/vllm-trtllm-memory.md §3): the C++
// runtime's engine size, TensorRT-managed memory, runtime and decoder buffers, and the
// paged KV cache it allocates (bytes, GiB, tokens, tokens per block, blocks per pool),
// with or without the "[TensorRT-LLM][INFO] " prefix a user may have cut.
#pragma once

#include <string_view>

#include "logs/run_builder.h"

namespace kvplan {

// Reads `message` into the current run when it is a TensorRT-LLM start-up line.
bool HandleTrtllmLine(std::string_view message, RunBuilder& b);

}  // namespace kvplan
