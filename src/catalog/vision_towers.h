// Parameters of a multimodal model's vision encoder and of the projector that
// feeds its output to the text model, from config.json's vision_config.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json_fwd.hpp>

#include "catalog/model.h"

namespace kvplan {

// Parameters of the vision tower plus projector that `vision` (a vision_config
// object) describes, for the tower kinds kvplan sizes: "qwen2_vl",
// "qwen2_5_vl", "qwen3_vl" (and qwen3_vl_moe), "pixtral" (Mistral3),
// "clip_vision_model" (LLaVA, LLaVA-NeXT). `root` is the whole config.json
// (Mistral3 and LLaVA keep the projector's settings there) and `text_hidden`
// the text model's hidden size. 0 for a kind kvplan does not size. Throws
// InputError for a field out of range.
int64_t VisionTowerParams(const nlohmann::json& root, const nlohmann::json& vision,
                          const std::string& kind, int64_t text_hidden, const std::string& origin);

// SigLIP (Gemma-3) and Llama-4 towers, from the fields ReadVision fills.
int64_t SiglipOrLlama4TowerParams(const ModelSpec& m);

}  // namespace kvplan
