// One log line split into the parts the engines' loggers put in front of the
// message: SGLang's "[2025-07-05 10:11:12 DP1 TP2 EP2] ", vLLM's
// "(EngineCore_DP0 pid=6880) INFO 10-31 15:07:49 [gpu_worker.py:298] ", and a
// container runtime's leading ISO timestamp.
#pragma once

#include <string>
#include <string_view>

namespace kvplan {

struct LogLine {
  std::string_view time;     // as printed; "" when the line has none
  std::string_view rank;     // "TP3", "DP1 TP2 EP2", "EngineCore_DP0", "" when none
  std::string_view level;    // vLLM's "INFO", "ERROR", ...; "" for SGLang
  std::string_view message;  // the rest
};

// What stands for vLLM's "MM-DD HH:MM:SS" where the one who pasted a log elided the time
// ("INFO ... [gpu_worker.py:489] Available KV cache memory: 4.11 GiB").
inline constexpr std::string_view kElidedVllmTime = "... [";

// Splits `line` (without its terminator). Never fails: a line without a
// recognised prefix is all message.
LogLine SplitLogLine(std::string_view line);

// `line` without ANSI escape sequences (colours). Returns `line` itself when it
// holds none; otherwise the cleaned text, stored in `scratch`.
std::string_view StripAnsi(std::string_view line, std::string* scratch);

}  // namespace kvplan
