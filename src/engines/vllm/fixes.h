// Fixes for a vLLM launch that fails, each found by re-planning the launch
// with one change: a higher utilization, a shorter --max-model-len, an fp8 KV
// cache, or more tensor parallelism; for a launch refused at start-up, the
// change that passes the check (the model's length or the override, the
// nearest TP sizes that shard, the smallest TP or PP that holds the weights).
#pragma once

#include <string>
#include <vector>

#include "engines/vllm/vllm.h"

namespace kvplan {

// PlanVllm without the fix search (the re-plans use it).
PlanResult PlanVllmNoFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                           const VllmArgs& args, const VllmMeasured& measured,
                           const ModelSpec* draft);

std::vector<Fix> VllmFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                           const VllmArgs& args, const VllmMeasured& measured,
                           const ModelSpec* draft, const PlanResult& failed);

}  // namespace kvplan
