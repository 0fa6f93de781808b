// Parameters of a multimodal model's vision encoder and of the projector that
// feeds its output to the text model, from config.json's vision_config.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// Parameters of the encoder towers plus projectors that `vision` (a
// vision_config object, or Phi-3-vision's img_processor) describes, for the
// tower kinds of vision_towers.cc's table: "qwen2_vl", "qwen2_5_vl", "qwen3_vl"
// (and qwen3_vl_moe, qwen3_5, qwen3_5_moe), "qwen3_omni_moe_vision_encoder"
// (with the thinker's audio encoder), "pixtral" (Mistral3), "clip_vision_model"
// (LLaVA, LLaVA-NeXT), "intern_vit_6b" (InternVL), "moonvit" (Kimi-VL),
// "kimi_k25", "phi3_v". `root` is the whole config.json (Mistral3, LLaVA and
// InternVL keep the projector's settings there, Qwen3-Omni its audio encoder)
// and `text_hidden` the text model's hidden size. 0 for a kind kvplan does not
// size. Throws InputError for a field out of range.
int64_t VisionTowerParams(const nlohmann::json& root, const nlohmann::json& vision,
                          const std::string& kind, int64_t text_hidden, const std::string& origin);

// What Transformers' config class of a model's vision tower holds, as
// `getattr(hf_config.vision_config, name)` finds it on the loaded config: the
// config.json's value or the class's default; nullopt for an attribute the
// class does not have (the Qwen VL classes name their depth `depth`).
struct TowerConfigAttributes {
  std::optional<int64_t> num_hidden_layers;
  std::optional<int64_t> hidden_size;
};

// nullopt when the loaded config has no top-level vision_config (a text model;
// Qwen3-Omni keeps it in thinker_config; Phi-3-vision has img_processor).
std::optional<TowerConfigAttributes> TowerConfigAsLoaded(const ModelSpec& m);

// A tower's depth and widths under the names its vision_config gives them:
// the Qwen VL configs say depth (and Qwen2-VL embed_dim, its hidden_size being
// the merger's output), Kimi-K2.5's remote-code config vt_num_hidden_layers,
// vt_hidden_size and vt_intermediate_size. nullopt for a field it leaves out.
struct TowerGeometry {
  std::optional<int64_t> layers, hidden, intermediate;
};
TowerGeometry VisionTowerGeometry(const nlohmann::json& vision, const std::string& origin);

// SigLIP (Gemma-3) and Llama-4 towers, from the fields ReadVision fills.
int64_t SiglipOrLlama4TowerParams(const ModelSpec& m);

}  // namespace kvplan
