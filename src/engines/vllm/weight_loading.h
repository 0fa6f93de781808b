// vLLM's --dtype and --quantization as they change the weights it loads.
#pragma once

#include "catalog/gpu.h"
#include "catalog/quantization.h"
#include "catalog/weights.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

// The loading rules of vLLM for `a` (catalog ModelAsLaunched applies them).
WeightLoading VllmWeightLoading(const VllmArgs& a);

// The weight memory a rank of `m` reports ("Model loading took"), from its estimate `w`.
int64_t VllmLoadedWeightBytes(const ModelSpec& m, const WeightEstimate& w);

// The fused-MoE kernel vLLM runs MXFP4 (gpt-oss) experts through; it decides their layout.
enum class VllmMxfp4Backend {
  kNotModelled,  // compute capability 10.0 and up: FlashInfer's layouts, not modelled
  kMarlin,       // weight-only FP4 through Marlin (Ampere; Hopper before 0.12.0)
  kTriton,       // OpenAI's triton_kernels (Hopper from 0.12.0)
};

// The backend vLLM `release` picks on `gpu` with its default environment.
VllmMxfp4Backend VllmMxfp4BackendFor(const VllmRelease& release, const GpuSpec& gpu);

// The bytes a rank's MXFP4 experts take beyond the checkpoint's (`w`'s "experts" part) once that
// backend has padded and repacked them; 0 for a model without MXFP4 experts.
int64_t VllmMxfp4ExpertExtraBytes(const ModelSpec& m, const WeightEstimate& w, const VllmArgs& a,
                                  const GpuSpec& gpu, const VllmRelease& release);

}  // namespace kvplan
