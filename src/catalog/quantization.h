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

// How one engine loads a checkpoint: its --dtype and --quantization values and
// the engine's own rules for them (each engine fills this from its flags).
struct WeightLoading {
  std::string engine;  // "vLLM", "SGLang": names the engine in messages
  std::string dtype;   // --dtype: "", "auto", "half", "float16", "bfloat16", "float", "float32"
  std::string quantization;  // --quantization: "" when not given
  // --quantization values that quantize a 16-bit checkpoint at load time.
  std::vector<std::string> online_methods;
  // Every --quantization value kvplan models for this engine (named in refusals).
  std::vector<std::string> accepted_methods;
  // Online fp8 stores one float32 scale per output row (SGLang on NVIDIA)
  // instead of one per tensor (vLLM).
  bool online_fp8_per_channel = false;
};

// The model as the engine holds it after loading: --dtype sets the bytes of
// every unquantized parameter (and so the "auto" KV dtype); --quantization on
// a 16-bit checkpoint quantizes it at load time (fp8: every decoder linear
// layer and expert, embeddings, norms, routers and lm_head stay;
// bitsandbytes: 4-bit nf4 in 64-value blocks); on a quantized checkpoint it
// must name the checkpoint's method or a kernel for it. Throws InputError for
// a method the engine does not accept here, naming the accepted ones.
ModelSpec ModelAsLaunched(ModelSpec m, const WeightLoading& how);

}  // namespace kvplan
