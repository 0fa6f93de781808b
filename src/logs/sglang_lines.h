// SGLang start-up lines, every era in ../shared/reference/sglang-memory.md §4:
// server_args, init distributed, load weight begin/end, KV cache allocated (MHA
// and MLA), memory pool end, CUDA graph capture begin/bs/end, the
// max_total_num_tokens summary, the ready line and the memory failures.
#pragma once

#include <string_view>

#include "logs/run_builder.h"

namespace kvplan {

// Reads `message` into the current run when it is an SGLang start-up line;
// false when it is not one.
bool HandleSglangLine(std::string_view message, RunBuilder& b);

// `server_args=ServerArgs(...)`: every argument becomes a setting.
void ReadServerArgs(std::string_view repr, RunBuilder& b);

}  // namespace kvplan
