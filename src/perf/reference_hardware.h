// The GPUs and models of the published measurements kvplan's performance
// model is validated against (data/reference/: the setups of
// ../shared/reference/perf-model.md section 6 and the real config.json
// geometry of data/models). A reference GPU is the catalog's (data/gpus.json
// owns every GPU figure); data/reference/gpus.json states what each published
// setup assumes, and reference_hardware_test holds the catalog to it, so a
// catalog edit cannot move the validation tables unnoticed.
#pragma once

#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan {

// A GPU of the published setups, with the figures they assume (units of
// data/gpus.json; link_gb_s is the scale-up link: NVLink or PCIe).
struct ReferenceGpuSetup {
  std::string id;  // a catalog id
  double hbm_tb_s = 0, bf16_tflops = 0, fp8_tflops = 0, link_gb_s = 0;
  std::string source;
};

// data/reference/gpus.json, in file order.
const std::vector<ReferenceGpuSetup>& ReferenceGpuSetups();

// The catalog GPU of a published setup: one of ReferenceGpuSetups()' ids.
// Throws InputError for others.
GpuSpec ReferenceGpu(const std::string& id);

// The ids of data/reference/models.json, in file order.
std::vector<std::string> ReferenceModelIds();

// A model of data/reference/models.json: "deepseek-v3" (61 layers, MLA, 256
// experts top-8, FP8), "llama-3.1-8b", "llama-3.1-70b", "qwen2.5-7b",
// "eagle3-llama-8b" (SpecForge/EAGLE-3 head: one Llama layer),
// "eagle3-deepseek" (one Llama-style layer at hidden 7168), "llama-3.3-70b-fp8",
// "kimi-k2.6" (INT4 routed experts), "qwen3-30b-a3b", "qwen3-1.7b".
// Throws InputError for others.
ModelSpec ReferenceModel(const std::string& id);

}  // namespace kvplan
