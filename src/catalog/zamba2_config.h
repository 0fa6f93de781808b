// Zamba2 configs (architectures.cc ModelFamily::kZamba2): a Mamba2 layer per decoder layer,
// and before the Mamba2 mixer of each "hybrid" layer an application of one of num_mem_blocks
// shared attention + MLP blocks. config_parser.cc calls ReadZamba2; the state shapes are
// catalog/state_shapes.h's, the weights catalog/weights.cc's.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// The kvplan layers of a Zamba2 model.
struct Zamba2Layers {
  // "attention" for each application of a shared block, "mamba" for each Mamba2 layer: a
  // hybrid layer becomes an attention layer and then a Mamba2 layer, so that the engines
  // count one KV layer per application (vLLM zamba2.py gives each its own Attention) and one
  // state layer per decoder layer.
  std::vector<std::string> layer_types;
  std::vector<bool> has_mlp;  // none: the shared blocks' MLPs are priced once, by the weights
};

// Reads the attention geometry (2 x hidden_size wide, num_attention_heads K/V heads), the
// Mamba2 mixer, the shared blocks and their adapters into `m`, and returns the layers.
// Released configs use transformers' Zamba2Config names; pre-release ones (written by
// Zyphra's transformers_zamba2 fork) the fork's, which architectures.cc aliases. Throws
// InputError for a config vLLM would refuse or read differently.
Zamba2Layers ReadZamba2(const nlohmann::json& cfg, const std::string& origin, ModelSpec& m);

}  // namespace kvplan
