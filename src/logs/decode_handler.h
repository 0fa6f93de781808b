// Feeds the engines' decode reports (logs/decode_lines.h) into the run being
// built, naming whose report it is so that each step counts once.
#pragma once

#include <string_view>

#include "logs/run_builder.h"

namespace kvplan {

// True when `message` is a decode report of SGLang or vLLM (read or, when
// garbled, skipped).
bool HandleDecodeLine(std::string_view message, RunBuilder& b);

}  // namespace kvplan
