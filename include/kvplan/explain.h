// `kvplan explain LOG`: one launch's memory accounting rebuilt from its
// start-up log, checked against kvplan's engine model, re-planned with
// --set, and its decode measured and predicted. An excerpt is re-planned from
// whatever figures it holds, each input marked measured, derived or assumed;
// when it cannot be, one line names the missing figure and the flag that
// supplies it. ExplainLog computes the result; the Render functions print it.
//
// The result's types are plain structs of the explain layer
// (explain/explain_types.h, which needs only logs/run_record.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "explain/explain_types.h"

namespace kvplan {

struct ExplainRequest {
  std::string log_path;
  int launch = 0;   // 1-based; 0: the last launch in the log
  std::string gpu;  // the GPU the run used when the log has no nvidia-smi table
  std::optional<int64_t> gpu_capacity_mib;  // --gpu-capacity-mib: nvidia-smi memory.total
  std::vector<std::string> sets;            // "FLAG=VALUE", in order
};

// Throws InputError when the log cannot be read, the launch or GPU does not
// exist, or a --set cannot be re-planned.
ExplainResult ExplainLog(const ExplainRequest& request);

// The report as `kvplan explain` prints it.
std::string RenderExplainText(const ExplainResult& result);
// The JSON document of `kvplan explain --json` (indented, ends with a newline).
std::string RenderExplainJson(const ExplainResult& result);

}  // namespace kvplan
