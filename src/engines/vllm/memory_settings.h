// The vLLM engine arguments that shape GPU memory, most telling first: the
// ones `kvplan explain` shows among a run's settings and `kvplan diff`
// re-plans or ranks first. Data only; the rules that use them are in vllm.h.
#pragma once

#include <string>
#include <vector>

namespace kvplan {

// EngineArgs names (vllm/engine/arg_utils.py @v0.10.1).
const std::vector<std::string>& VllmMemorySettings();

}  // namespace kvplan
