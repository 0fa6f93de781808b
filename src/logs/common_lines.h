// Lines any engine's log may hold: the launch command a person pasted or a
// script echoed, an nvidia-smi table, Python tracebacks and exception lines.
#pragma once

#include <string_view>

#include "logs/run_builder.h"

namespace kvplan {

// Reads `message` into the current run when it is one of these; `raw` is the
// whole line (tracebacks and tables carry no logger prefix).
bool HandleCommonLine(std::string_view message, std::string_view raw, RunBuilder& b);

// "RuntimeError: ..." / "torch.OutOfMemoryError: ..." -> true.
bool IsExceptionLine(std::string_view message);

}  // namespace kvplan
