// One launch to plan, engine-neutral: which engine and release, the engine's
// own flags (typed by the user or taken from a pasted launch command), and
// what the user measured. Each engine parses its own flags.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engines/plan.h"

namespace kvplan {

struct PlanRequest {
  std::string engine;                       // "sglang", "vllm", "trtllm"
  std::string version;                      // "" = the newest modelled release
  std::vector<std::string> args;            // the engine's own flags, as on its command line
  std::optional<std::string> model;         // kvplan --model (overrides the engine's model flag)
  std::string gpu;                          // kvplan --gpu
  std::optional<int64_t> gpu_capacity_mib;  // kvplan --gpu-capacity-mib
  // Figures the user read from a log or a debug print, by name, in GiB
  // ("pre_load_free", "post_load_free", and engine-specific terms).
  std::map<std::string, double> measured_gib;
};

// Plans `req` with the engine it names. Throws InputError for bad input.
PlanResult PlanLaunch(const PlanRequest& req);

// Each engine's entry point: parses req.args with the engine's own flag
// names, loads the model and GPU, and plans. PlanLaunch dispatches to these.
PlanResult PlanSglangRequest(const PlanRequest& req);  // engines/sglang_request.cc
PlanResult PlanVllmRequest(const PlanRequest& req);    // engines/vllm_request.cc
PlanResult PlanTrtllmRequest(const PlanRequest& req);  // engines/trtllm_request.cc

// "sglang@0.5.3" -> {"sglang", "0.5.3"}; "vllm" -> {"vllm", ""}.
std::pair<std::string, std::string> SplitEngineSpec(const std::string& spec);

}  // namespace kvplan
