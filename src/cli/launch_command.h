// A pasted engine launch command, split into the engine and its own flags.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kvplan::cli {

struct LaunchCommand {
  std::string engine;                                    // "sglang" | "vllm" | "trtllm"
  std::vector<std::string> args;                         // the engine's own flags, in order
  std::vector<std::pair<std::string, std::string>> env;  // leading VAR=value assignments
  std::string entry_point;                               // e.g. "python -m sglang.launch_server"
};

// `words` is what followed `--` on kvplan's command line: shell-split words,
// or one word holding a whole pasted command. Throws InputError.
LaunchCommand ParseLaunchCommand(const std::vector<std::string>& words);

}  // namespace kvplan::cli
