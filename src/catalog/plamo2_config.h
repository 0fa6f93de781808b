// PLaMo-2 configs (architectures.cc ModelFamily::kPlamo2): Mamba layers and sliding-window
// GQA attention layers interleaved by mamba_step, each layer with a SwiGLU MLP. config_parser.cc
// calls ReadPlamo2; the state shapes are catalog/state_shapes.h's (a Mamba2 shape of n_groups
// 0), the mixer's weights catalog/weights.cc's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// Reads the attention geometry (hidden_size_per_head heads), the Mamba mixer (mamba_num_heads
// heads of hidden_size_per_head channels, mamba_d_state, mamba_d_conv, the dt rank) and the
// sliding window into `m`, and returns each layer's type: "mamba" or "sliding_attention" (every
// attention layer, as vLLM caches them). Throws InputError for a config vLLM's plamo2.py would
// refuse.
std::vector<std::string> ReadPlamo2(const nlohmann::json& cfg, const std::string& origin,
                                    ModelSpec& m);

}  // namespace kvplan
