// JSON views of a ModelSpec and a WeightEstimate (for --json outputs).
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"
#include "catalog/weights.h"

namespace kvplan {

std::string LayerKindName(LayerKind k);            // "full", "sliding", "chunked", "linear"
std::string AttentionSummary(const ModelSpec& m);  // "GQA 8x128", "MLA 512+64"
std::string QuantSummary(const Quantization& q);   // "fp8 128x128", "int4 g128", "-"

nlohmann::json ModelSpecToJson(const ModelSpec& m);
nlohmann::json WeightEstimateToJson(const WeightEstimate& w);

}  // namespace kvplan
