// The SGLang server_args that shape GPU memory, most telling first: the ones
// `kvplan explain` shows among a run's settings and `kvplan diff` re-plans or
// ranks first. Data only; the rules that use them are in sglang.h.
#pragma once

#include <string>
#include <vector>

namespace kvplan {

// server_args.py names (sglang python/sglang/srt/server_args.py @v0.5.5).
const std::vector<std::string>& SglangMemorySettings();

}  // namespace kvplan
