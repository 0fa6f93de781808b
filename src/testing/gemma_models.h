// Gemma-4 / Gemma-3n models the tests share (catalog/gemma_families_test.cc,
// engines/vllm/gemma_kv_test.cc): the real E4B config read without its quantization, and
// the synthetic configs where no public config.json was reachable.
#pragma once

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/model.h"
#include "testing/test_data.h"

namespace kvplan::testing {

// The real E4B config is a W4A16 fine-tune's (auto-round, which kvplan does not read):
// its geometry is gemma-4-E4B-it's, so the rows read it without quantization_config.
inline ModelSpec WithoutQuantization(const std::string& file) {
  const std::string path = RealData("configs/" + file);
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json j = nlohmann::json::parse(text.str());
  j.erase("quantization_config");
  return ParseModelConfig(j.dump(), path);
}

// Synthetic: google/gemma-4-E2B's text_config as a public Python file states it ("official
// Gemma 4 E2B text_config subset, verified against the checkpoint's config.json"; code
// index file id 61689293231, repository not named): hidden 1536, 35 layers (every fifth full), 8
// heads, 1 KV head of 256 (512 on full layers), MLP 6144 doubled on the 20 KV-sharing layers,
// per-layer inputs of 256.
constexpr const char* kGemma4E2bSynthetic = R"({"architectures":
  ["Gemma4ForConditionalGeneration"],"model_type":"gemma4","text_config":{
  "model_type":"gemma4_text","hidden_size":1536,"intermediate_size":6144,
  "num_hidden_layers":35,"num_attention_heads":8,"num_key_value_heads":1,"head_dim":256,
  "global_head_dim":512,"vocab_size":262144,"sliding_window":512,"num_kv_shared_layers":20,
  "hidden_size_per_layer_input":256,"hidden_activation":"gelu_pytorch_tanh",
  "use_double_wide_mlp":true,"tie_word_embeddings":true,"layer_types":[
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention",
  "sliding_attention","sliding_attention","sliding_attention","sliding_attention","full_attention"]}})";

// Synthetic: an empty text_config takes every size from transformers' Gemma3nTextConfig,
// whose defaults are gemma-3n-E4B's text model (architectures.cc kGemma3nTextDefaults).
constexpr const char* kGemma3nE4bSynthetic =
    R"({"architectures":["Gemma3nForConditionalGeneration"],"model_type":"gemma3n",
        "text_config":{"model_type":"gemma3n_text"},"audio_config":{},"vision_config":{}})";
// Synthetic: gemma-3n-E2B's text sizes over those defaults (30 layers, MLP 8192 given
// per layer as the released config does, 10 KV-sharing layers).
inline std::string Gemma3nE2bSynthetic() {
  std::string widths;
  for (int i = 0; i < 30; ++i) widths += (i ? "," : "") + std::string("8192");
  return R"({"architectures":["Gemma3nForConditionalGeneration"],"model_type":"gemma3n",
      "text_config":{"model_type":"gemma3n_text","num_hidden_layers":30,
      "num_kv_shared_layers":10,"intermediate_size":[)" +
         widths + "]}}";
}

}  // namespace kvplan::testing
