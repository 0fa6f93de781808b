// Re-plans a logged vLLM launch through kvplan's vLLM model (PlanVllm) with
// the terms the log measured (total memory, weights or the torch peak,
// non-torch memory, activation peak), for `kvplan explain` and `kvplan diff`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/vllm/vllm.h"
#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

struct VllmReplanInputs {
  VllmArgs args;
  VllmMeasured measured;
  ModelSpec model;
  GpuSpec gpu;
  std::string version;  // the printed release, or a representative of the log's era
  std::vector<std::string> notes;
  double logged_kv_gib = 0;  // the KV budget the log printed
  bool kv_logged = true;     // false: the log stops before it (logged_kv_gib is 0)
  bool kv_only = false;      // the KV budget is the log's (V1 at INFO): the check is the tokens
  bool budget_only = false;  // no model and no KV tokens: the budget sum is all there is
};

// The run's printed engine arguments (layout, lengths, eager mode, KV dtype).
VllmArgs VllmArgsOfRun(const RunRecord& run);

// The KV tokens the log reports (V1's tokens, or V0's and early V1's blocks x 16).
std::optional<double> LoggedKvTokens(const RunRecord& run);

// nullopt (reason in `why`) when the log lacks vLLM's profiling lines.
std::optional<VllmReplanInputs> VllmReplanInputsOf(const RunRecord& run, std::string* why);

// PlanVllm on the inputs; a launch it refuses is a failed verdict with the message.
VllmReplanVerdict ReplanVllm(const VllmReplanInputs& in);

// `--set gpu_memory_utilization=F` (the one setting that leaves the measured
// terms as they are). Throws InputError otherwise or for a bad value.
void ApplyVllmSet(VllmReplanInputs* in, const std::string& flag, const std::string& value);

}  // namespace kvplan
