// What a TensorRT-LLM start-up log says about its KV cache: every figure the
// reader captured, what they imply (bytes per token, blocks x tokens per
// block), and why the KV budget cannot be re-planned when a figure is missing.
#pragma once

#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

TrtllmExplain ExplainTrtllm(const RunRecord& r);

}  // namespace kvplan
