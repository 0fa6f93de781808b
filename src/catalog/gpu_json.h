// A GpuSpec as JSON, for `kvplan gpus --json` and any verb that reports its GPU.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "catalog/gpu.h"

namespace kvplan {

// The link kind as written in data/gpus.json: "nvlink", "pcie", "infinity-fabric".
std::string LinkKindName(LinkKind link);

// All fields in base units (bytes, bytes/s, FLOP/s) plus total_gib for reading.
nlohmann::json GpuToJson(const GpuSpec& gpu);

}  // namespace kvplan
