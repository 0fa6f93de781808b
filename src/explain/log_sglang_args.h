// A logged SGLang launch's effective configuration as the planner's inputs:
// the server_args line becomes SglangArgs, the line formats pick a release.
#pragma once

#include <string>

#include "engines/sglang/sglang.h"
#include "logs/run_record.h"

namespace kvplan {

// The printed server_args that shape memory. mem_fraction_static, page_size,
// chunked_prefill_size and cuda_graph_max_bs are passed as printed (the
// engine's effective values); max_running_requests only when the user set it
// (speculative decoding's 48 is engine-set, and the planner applies it).
SglangArgs SglangArgsOfRun(const RunRecord& run);

// A representative release for the era the log's formats imply ("0.4.6",
// "0.4.9", "0.5.6", "0.5.10", "main"); `why` says how it was chosen.
std::string SglangReleaseOfRun(const RunRecord& run, std::string* why);

}  // namespace kvplan
