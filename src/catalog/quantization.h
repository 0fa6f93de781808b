// config.json "quantization_config": which method, how many bits, which
// modules stay in the checkpoint's 16-bit dtype, and what one quantized linear
// layer costs in bytes as stored (weights plus scales, zero points, indices).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// The quantization methods ParseQuantization accepts (quant_method values).
const std::vector<std::string>& SupportedQuantMethods();

// Reads a "quantization_config" object (or the "quantization" object of a
// ModelOpt hf_quant_config.json, with quant_method set to "modelopt") (gpt-oss mxfp4 quantizes the
// experts only; the other methods every decoder linear layer not named in modules_to_not_convert /
// ignore / ignored_layers). Throws InputError for an unknown method or malformed fields.
Quantization ParseQuantization(const nlohmann::json& qc, const std::string& origin);

// True when `module` (a Hugging Face parameter prefix such as
// "model.layers.0.mlp.gate") is matched by one of the patterns. Patterns match
// whole dot-separated components anywhere in the name, '*' and numeric
// components match any component, and "re:<regex>" patterns (compressed-tensors)
// are searched as regular expressions.
bool MatchesModulePattern(const std::vector<std::string>& patterns, std::string_view module);

// Bytes of one [out x in] linear weight stored with `q` (quantized), including
// its scales; `dtype_bytes` per element when `quantized` is false.
int64_t LinearBytes(const Quantization& q, bool quantized, int64_t out, int64_t in,
                    int dtype_bytes);

}  // namespace kvplan
