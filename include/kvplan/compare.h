// Comparing engines: SGLang, vLLM and TensorRT-LLM planned for the same model,
// GPU, tensor parallelism and context length, each with its own default
// memory knob.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kvplan/plan.h"

namespace kvplan {

struct CompareRequest {
  std::string model;                        // catalog id, config.json or model directory
  std::string gpu;                          // GPU id or alias
  std::optional<int64_t> gpu_capacity_mib;  // --gpu-capacity-mib: nvidia-smi memory.total
  int tp = 1;                               // tensor parallel size, 1..64
  int64_t context_length = 0;               // 0: the model's own
  // --engine NAME@VERSION, repeatable: the release of each engine named; the others plan
  // the newest release kvplan models (and the output says so).
  std::vector<std::string> engines;
};

// One engine's plan, or why kvplan could not plan it.
struct CompareRow {
  std::string engine;  // "sglang", "vllm", "trtllm"
  std::optional<PlanResult> plan;
  PlanContext context;         // how the plan names the launch
  std::string error;           // kvplan could not plan it (InputError)
  bool release_given = false;  // by --engine NAME@VERSION; else the newest modelled
};

struct CompareResult {
  CompareRequest request;
  int64_t context_length = 0;    // resolved: the request's, else the model's
  std::vector<CompareRow> rows;  // sglang, vllm, trtllm
};

// Plans the launch on every engine. Throws InputError for an impossible
// request, an unknown model or an unknown GPU (one error for the whole
// comparison); an engine that cannot plan it gets a row with `error`.
CompareResult CompareEngines(const CompareRequest& req);

}  // namespace kvplan
