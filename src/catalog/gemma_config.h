// Gemma-4 and Gemma-3n text configs (architectures.cc ModelFamily::kGemma4 / kGemma3n):
// the layers' own KV geometry, the KV-sharing last layers, the per-layer input
// embeddings, Gemma-3n's AltUp and LAuReL, Gemma-4's experts beside the dense MLP.
// config_parser.cc calls these; the weights of the extra tensors are in
// catalog/gemma_weights.h.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// Reads the family's fields of `cfg` (the text config with the table's defaults merged)
// into `m` and returns each layer's type ("sliding_attention" / "full_attention"): the
// config's layer_types, else the config class's default pattern. `gemma3n` picks the
// family. Throws InputError for a field out of range.
std::vector<std::string> ReadGemmaFamily(const nlohmann::json& cfg, const std::string& origin,
                                         bool gemma3n, ModelSpec& m);

// Once m.layer_kinds is filled: each layer's geometry (Gemma-4's full layers with
// global_head_dim and their own KV heads; the last num_kv_shared_layers reading the KV
// of the last earlier layer of their kind; Gemma-4's double-wide MLP there), and the
// audio encoder named among the uncounted towers when `root` has an audio_config.
void FinishGemmaLayers(const nlohmann::json& root, const nlohmann::json& cfg,
                       const std::string& origin, ModelSpec& m);

}  // namespace kvplan
