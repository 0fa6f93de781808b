// Fixes for a vLLM launch that failed its KV check ("... KV cache is needed, which is
// larger than the available KV cache memory", V0's "larger than the maximum number of
// tokens that can be stored in KV cache"), computed from the figures the error prints:
// each fix moves in the direction that helps (more utilization, never less; a shorter
// --max-model-len; more tensor parallelism).
#pragma once

#include <vector>

#include "kvplan/plan.h"
#include "logs/run_record.h"

namespace kvplan {

// Empty when the run did not fail its KV check or the log lacks the error's figures.
std::vector<Fix> VllmKvShortFixes(const RunRecord& r);

}  // namespace kvplan
