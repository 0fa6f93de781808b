// The rotary-embedding cos/sin tables a model builds when the engine creates it: GPU buffers
// that are not checkpoint tensors but are held from load on, so the engines' logged weight
// memory includes them (vLLM's "Model loading took", SGLang's "Load weight end ... mem usage").
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// Elements of every cos/sin table the model's attention layers share (one per distinct RoPE),
// from the text config `cfg` and the geometry already read into `m`; 0 for a model without
// RoPE. Throws InputError for a rope_scaling object whose fields are not numbers.
int64_t RopeCacheElements(const nlohmann::json& cfg, const ModelSpec& m, const std::string& origin);

// The elements of the tables SGLang builds for `m` where its model file builds other tables
// than RopeCacheElements counts (vLLM's): Gemma-3's gemma3_causal.py, which builds none when
// `gemma3_layers_call_get_rope` is false (the releases before SGLang #12590) and two unscaled
// ones after. m.rope_cache_elements for every other family.
int64_t SglangRopeCacheElements(const ModelSpec& m, bool gemma3_layers_call_get_rope);

}  // namespace kvplan
