// The GPUs and models of the published measurements kvplan's performance
// model is validated against, with the figures of
// ../shared/reference/perf-model.md section 6 and the real config.json
// geometry (data/models). Kept apart from the catalog so the validation does
// not move when the catalog is edited.
#pragma once

#include <string>

#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan {

// "h100-sxm", "h100-pcie", "h200", "h800", "b200", "b300", "a100-80gb", "rtx-pro-6000",
// "rtx-4090", "rtx-5090". Throws InputError for others.
GpuSpec ReferenceGpu(const std::string& id);

// "deepseek-v3" (61 layers, MLA, 256 experts top-8, FP8), "llama-3.1-8b",
// "llama-3.1-70b", "qwen2.5-7b", "eagle3-llama-8b" (SpecForge/EAGLE-3 head:
// one Llama layer), "eagle3-deepseek" (one Llama-style layer at hidden 7168),
// "llama-3.3-70b-fp8", "kimi-k2.6" (INT4 routed experts), "qwen3-30b-a3b",
// "qwen3-1.7b".
// Throws InputError for others.
ModelSpec ReferenceModel(const std::string& id);

}  // namespace kvplan
