// SGLang's memory for a multimodal model's vision tower beyond the weight
// estimate's replicated copy (the mem_fraction_static factor is settings.cc's).
#pragma once

#include <cstdint>

#include "catalog/model.h"
#include "catalog/weights.h"

namespace kvplan {

// Bytes the weight estimate (which replicates the vision tower on every rank)
// over-counts on one SGLang rank: the Qwen VL towers' attention, MLP and merger
// linears split over TP in SGLang's model files. 0 at TP 1 and for the other
// towers (kept replicated, as estimated).
int64_t SglangEncoderWeightsOvercount(const ModelSpec& m, const WeightEstimate& w, int tp);

}  // namespace kvplan
