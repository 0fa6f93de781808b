// SGLang's --dtype and --quantization as they change the weights it loads.
#pragma once

#include "catalog/quantization.h"
#include "catalog/weights.h"
#include "engines/sglang/sglang.h"

namespace kvplan {

// The loading rules of SGLang for `a` (catalog ModelAsLaunched applies them).
WeightLoading SglangWeightLoading(const SglangArgs& a);

// The weight memory a rank of `m` reports ("Load weight end ... mem usage"), from its estimate,
// under the release of SglangVersionKey `version_key` (its rotary tables).
int64_t SglangLoadedWeightBytes(const ModelSpec& m, const WeightEstimate& w, int64_t version_key);

}  // namespace kvplan
