// A launch command pasted after `--` on kvplan's command line, e.g.
//   kvplan plan -- CUDA_VISIBLE_DEVICES=0,1 python -m sglang.launch_server --model-path X --tp 2
// reduced to the engine, its own flags in order, and the environment it was given.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "kvplan/plan.h"

namespace kvplan::cli {

struct LaunchCommand {
  std::string engine;                                    // "sglang" | "vllm" | "trtllm"
  std::vector<std::string> args;                         // the engine's own flags, in order
  std::vector<std::pair<std::string, std::string>> env;  // VAR=value given to the command
  std::string entry_point;  // e.g. "python -m sglang.launch_server", "vllm serve"
  // The engine release the paste names, when it names one: the tag of the engine's docker
  // image (`lmsysorg/sglang:v0.5.6.post2-cu129`, `vllm/vllm-openai:v0.10.1.1`,
  // `nvcr.io/nvidia/tensorrt-llm/release:1.0.0rc4`) or a pip pin in an earlier command
  // (`pip install vllm==0.11.0`). `release_source` says where it was read ("the docker image
  // ..."); it is also set, with `release` empty, for an image whose tag names no release
  // (`latest`, `nightly`).
  std::string release;
  std::string release_source;
};

// `words` is what followed `--`: many words already split by the shell, or ONE word
// holding a whole pasted command (split here shell-style; see cli/shell_words.h).
// Recognised entry points: [python|python3|python3.12|/path/python] -m
// sglang.launch_server, sglang serve, vllm serve [MODEL], python -m
// vllm.entrypoints.openai.api_server, trtllm-serve [serve] [MODEL], python -m
// tensorrt_llm.commands.serve. A positional MODEL becomes "--model MODEL" at the front
// of args. Before the entry point: VAR=value words, env/nohup/sudo -E/exec/time/docker
// run ... (skipped; docker's -e VAR=value is kept in env). Earlier commands of the
// paste (`export VAR=value`, `cd dir`, `source venv/bin/activate &&`) contribute only
// their exported assignments; `&`, `| tee log`, `> out.log`, `2>&1` are dropped.
// Lines that start with a flag right after the launch line are joined to it (a lost
// trailing backslash). Throws InputError for an empty command, an unterminated quote,
// `-m` without a module, or no recognised entry point.
LaunchCommand ParseLaunchCommand(const std::vector<std::string>& words);

// The environment prefix whose variables the engine's planner reads ("VLLM_", "SGLANG_");
// "" for none.
std::string EngineEnvPrefix(const std::string& engine);

// Puts the pasted command `words` into `req` (engine, release, flags, the engine's own
// environment variables) as `kvplan plan -- ...` does: the flags already in `req->args`,
// typed before `--`, come after the pasted ones and so refine them. `engine_flag` is
// --engine's engine when the user gave one: another engine's command is an error.
void ApplyPastedLaunch(const std::vector<std::string>& words, const std::string& engine_flag,
                       PlanRequest* req);

}  // namespace kvplan::cli
