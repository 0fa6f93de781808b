// Config readers for architectures whose layers each have their own attention
// geometry (ModelSpec::layer_geometry): DeciLM's block_configs and
// MiMo-V2-Flash's sliding / full layer pattern. Called by config_parser.cc.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// DeciLM / Nemotron-NAS (model_type nemotron-nas): one block_configs entry per
// layer; fills layer_geometry (each layer's KV heads, no_op attention, FFN width),
// num_kv_heads (the first attention block's, as vLLM's get_total_num_kv_heads) and
// intermediate_size (the widest layer's). Throws InputError for what neither
// engine builds (replace_with_linear).
void ReadDeciLmBlocks(const nlohmann::json& cfg, const std::string& origin, ModelSpec& m);

// The FFN width of a DeciLM block with `ffn_mult` over `hidden`
// (nemotron_nas.py _ffn_mult_to_intermediate_size: int(2 * mult * hidden / 3)
// rounded up to a multiple of 256).
int64_t DeciLmFfnWidth(double ffn_mult, int hidden);

// What MiMo-V2-Flash's config says per layer, for config_parser.cc's tables.
struct MimoV2Layers {
  std::vector<std::string> layer_types;  // "sliding_attention" / "full_attention"
  std::vector<bool> moe_layers;          // moe_layer_freq as a list
};

// MiMo-V2-Flash (vllm/model_executor/models/mimo_v2_flash.py): hybrid_layer_pattern
// 1 = sliding layer (swa_num_attention_heads, swa_num_key_value_heads,
// swa_head_dim, swa_v_head_dim), 0 = full layer (num_attention_heads,
// num_key_value_heads, head_dim, v_head_dim); fills layer_geometry and v_head_dim.
MimoV2Layers ReadMimoV2Layers(const nlohmann::json& cfg, const std::string& origin, ModelSpec& m);

}  // namespace kvplan
