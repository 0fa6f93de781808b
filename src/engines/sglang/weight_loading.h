// SGLang's --dtype and --quantization as they change the weights it loads.
#pragma once

#include "catalog/quantization.h"
#include "engines/sglang/sglang.h"

namespace kvplan {

// The loading rules of SGLang for `a` (catalog ModelAsLaunched applies them).
WeightLoading SglangWeightLoading(const SglangArgs& a);

}  // namespace kvplan
