// vLLM's --dtype and --quantization as they change the weights it loads.
#pragma once

#include "catalog/quantization.h"
#include "catalog/weights.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

// The loading rules of vLLM for `a` (catalog ModelAsLaunched applies them).
WeightLoading VllmWeightLoading(const VllmArgs& a);

// The weight memory a rank of `m` reports ("Model loading took"), from its estimate `w`.
int64_t VllmLoadedWeightBytes(const ModelSpec& m, const WeightEstimate& w);

}  // namespace kvplan
