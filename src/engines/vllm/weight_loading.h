// vLLM's --dtype and --quantization as they change the weights it loads.
#pragma once

#include "catalog/quantization.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

// The loading rules of vLLM for `a` (catalog ModelAsLaunched applies them).
WeightLoading VllmWeightLoading(const VllmArgs& a);

}  // namespace kvplan
