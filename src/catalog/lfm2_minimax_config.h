// LFM2 and MiniMax-Text-01 / M1 text configs (architectures.cc ModelFamily::kLfm2 and
// kMiniMaxText01): which layers hold a recurrent state and its geometry, and LFM2's MLP
// width. config_parser.cc calls these; the state shapes are catalog/state_shapes.h's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// LFM2 (transformers lfm2/configuration_lfm2.py Lfm2Config): reads the short-convolution
// geometry (conv_L_cache, conv_bias, conv_dim), the tied embedding (tie_embedding) and the
// MLP width into `m`, and returns each layer's type ("linear_attention" for a conv layer,
// "full_attention"): layer_types, else full_attn_idxs, else every layer full (the config
// class's rule). Throws InputError for a config the engines would read differently.
std::vector<std::string> ReadLfm2(const nlohmann::json& cfg, const std::string& origin,
                                  ModelSpec& m);

// MiniMax-Text-01 / M1: the lightning-attention state geometry into `m` and each layer's
// type from attn_type_list (0 lightning, 1 softmax), else layer_types, else every layer
// softmax attention (vLLM models/minimax_text_01.py MiniMaxText01Model @v0.10.2).
std::vector<std::string> ReadMiniMaxLayers(const nlohmann::json& cfg, const std::string& origin,
                                           ModelSpec& m);

}  // namespace kvplan
