// vLLM start-up lines of the V0 and V1 eras (../shared/reference/
// vllm-trtllm-memory.md §2): version, non-default args, model loading, memory
// profiling, KV budget, blocks/tokens, concurrency, graph capture, failures.
#pragma once

#include <string_view>

#include "logs/run_builder.h"

namespace kvplan {

// Reads `message` into the current run when it is a vLLM start-up line.
bool HandleVllmLine(std::string_view message, RunBuilder& b);

}  // namespace kvplan
