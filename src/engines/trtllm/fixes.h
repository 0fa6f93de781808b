// Re-planned fixes for a TensorRT-LLM launch that cannot serve one request of
// max_seq_len: a larger fraction, a shorter max_seq_len, fp8 KV, more TP.
#pragma once

#include <string>
#include <vector>

#include "engines/trtllm/trtllm.h"

namespace kvplan {

std::vector<Fix> TrtllmFixes(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                             const TrtllmArgs& args, const TrtllmMeasured& measured,
                             const PlanResult& failed);

}  // namespace kvplan
