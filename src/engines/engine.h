// One launch to plan, engine-neutral: which engine and release, the engine's
// own flags (typed by the user or taken from a pasted launch command), and
// what the user measured. Each engine parses its own flags.
#pragma once

#include <string>
#include <utility>

#include "engines/common/plan.h"

namespace kvplan {

// Plans `req` with the engine it names. Throws InputError for bad input.
PlanResult PlanLaunch(const PlanRequest& req);

// "sglang@0.5.3" -> {"sglang", "0.5.3"}; "vllm" -> {"vllm", ""}.
std::pair<std::string, std::string> SplitEngineSpec(const std::string& spec);

}  // namespace kvplan
