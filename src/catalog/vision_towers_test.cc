#include "catalog/vision_towers.h"

#include <gtest/gtest.h>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t TowerModelParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

void ExpectTowerModelNear(double got, double want, const char* what) {
  EXPECT_NEAR(got, want, 0.01 * want) << what << ": " << got;
}

// A text model of the given shape for a synthetic wrapper config (the field
// values are the public configs'; the files themselves are not stored).
std::string TowerTextFields(int hidden, int layers, int heads, int kv, int inter, int vocab) {
  return "\"hidden_size\":" + std::to_string(hidden) +
         ",\"num_hidden_layers\":" + std::to_string(layers) +
         ",\"num_attention_heads\":" + std::to_string(heads) +
         ",\"num_key_value_heads\":" + std::to_string(kv) +
         ",\"intermediate_size\":" + std::to_string(inter) +
         ",\"vocab_size\":" + std::to_string(vocab) + ",\"torch_dtype\":\"bfloat16\"";
}

// Qwen/Qwen2.5-VL-3B-Instruct (real config): the tower is now counted. By hand:
// 32 blocks x (2 RMSNorms 2,560 + qkv 4,919,040 + proj 1,639,680 + gate/up
// 2 x 4,381,020 + down 4,378,880 = 19,702,200) + Conv3d 3x2x14x14x1280
// 1,505,280 + merger (ln_q 1,280 + 5120x5120+5120 + 2048x5120+2048 =
// 36,708,608) = 668,684,288; with the 3.09B text model, the published 3.75B.
TEST(VisionTowers, Qwen25Vl3bRealConfig) {
  ModelSpec m = LoadModel(testing::RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  EXPECT_EQ(m.vision_kind, "qwen2_5_vl");  // from the wrapper's model_type
  EXPECT_EQ(m.vision_params, 668'684'288);
  EXPECT_EQ(m.uncounted_weights, "");
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(m)), 3.75e9, "Qwen2.5-VL-3B");
  // Replicated on every rank, in bf16.
  WeightEstimate tp2 = EstimateWeights(m, Parallelism{.tp = 2});
  bool found = false;
  for (const WeightPart& p : tp2.parts) {
    if (p.name != "vision tower") continue;
    found = true;
    EXPECT_EQ(p.bytes_per_rank, 668'684'288LL * 2);
  }
  EXPECT_TRUE(found);
}

// Qwen2-VL-7B-Instruct's fields (synthetic file): LayerNorm blocks, fc1/fc2 of
// 4 x 1280, a LayerNorm merger to vision_config.hidden_size 3584. The tower is
// 675,759,104 and the whole model 8,291,375,616 (the Hub's parameter count).
TEST(VisionTowers, Qwen2VlSevenB) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["Qwen2VLForConditionalGeneration"],"model_type":"qwen2_vl",)" +
          TowerTextFields(3584, 28, 28, 4, 18944, 152064) +
          R"(,"vision_config":{"depth":32,"embed_dim":1280,"mlp_ratio":4,"num_heads":16,
          "in_chans":3,"hidden_size":3584,"patch_size":14,"spatial_merge_size":2,
          "temporal_patch_size":2}})",
      "synthetic Qwen2-VL-7B");
  EXPECT_EQ(m.vision_params, 675'759'104);
  EXPECT_EQ(TowerModelParams(m), 8'291'375'616);
}

// Qwen3-VL-8B's vision fields: 27 LayerNorm blocks of 1152 (fc 4304), biased
// Conv3d 16x16, 2304 learned positions, the merger and 3 deepstack mergers
// (post-shuffle LayerNorm of 4608). By hand: blocks 27 x 15,239,504 =
// 411,466,608; patch 1,769,472 + 1,152; positions 2,654,208; merger 2,304 +
// 21,238,272 + 18,878,464 = 40,119,040; deepstack 3 x (9,216 + 21,238,272 +
// 18,878,464) = 120,377,856.
TEST(VisionTowers, Qwen3VlDeepstack) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["Qwen3VLForConditionalGeneration"],"model_type":"qwen3_vl",
      "text_config":{"model_type":"qwen3_vl_text","head_dim":128,)" +
          TowerTextFields(4096, 36, 32, 8, 12288, 151936) +
          R"(},"vision_config":{"model_type":"qwen3_vl","depth":27,"hidden_size":1152,
          "intermediate_size":4304,"num_heads":16,"in_channels":3,"patch_size":16,
          "spatial_merge_size":2,"temporal_patch_size":2,"out_hidden_size":4096,
          "num_position_embeddings":2304,"deepstack_visual_indexes":[8,16,24]}})",
      "synthetic Qwen3-VL-8B");
  EXPECT_EQ(m.vision_params,
            411'466'608 + 1'769'472 + 1'152 + 2'654'208 + 40'119'040 + 120'377'856);
}

// Mistral-Small-3.1-24B's fields: the Pixtral tower (24 RMSNorm layers of 1024,
// bias-free: 24 x 16,779,264 + Conv2d 602,112 + ln_pre 1,024 = 403,305,472)
// and the Mistral3 projector (norm 1,024, patch merger
// 4096x1024, linear_1 5120x1024, linear_2 5120x5120, no biases) 35,652,608;
// with the 23.57B text model the published 24B.
TEST(VisionTowers, Mistral3Pixtral) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["Mistral3ForConditionalGeneration"],"model_type":"mistral3",
      "spatial_merge_size":2,"multimodal_projector_bias":false,
      "text_config":{"model_type":"mistral","head_dim":128,)" +
          TowerTextFields(5120, 40, 32, 8, 32768, 131072) +
          R"(},"vision_config":{"model_type":"pixtral","hidden_size":1024,
          "intermediate_size":4096,"num_hidden_layers":24,"num_attention_heads":16,
          "patch_size":14,"image_size":1540,"num_channels":3}})",
      "synthetic Mistral-Small-3.1");
  EXPECT_EQ(m.vision_params, 403'305'472 + 35'652'608);
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(m)), 24.0e9, "Mistral-Small-3.1-24B");
}

// llava-hf/llava-1.5-7b-hf's fields: CLIP ViT-L/14 at 336 px (303,507,456: the
// 224 px tower's 303,179,776 plus 320 more positions of 1024) and the biased
// two-layer projector 4,198,400 + 16,781,312; with LLaMA-7B the published 7.06B.
TEST(VisionTowers, LlavaClip) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["LlavaForConditionalGeneration"],"model_type":"llava",
      "text_config":{"model_type":"llama",)" +
          TowerTextFields(4096, 32, 32, 32, 11008, 32064) +
          R"(},"vision_config":{"model_type":"clip_vision_model","hidden_size":1024,
          "image_size":336,"intermediate_size":4096,"num_attention_heads":16,
          "num_hidden_layers":24,"patch_size":14,"projection_dim":768}})",
      "synthetic llava-1.5-7b");
  EXPECT_EQ(m.vision_params, 303'507'456 + 4'198'400 + 16'781'312);
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(m)), 7.06e9, "llava-1.5-7b");
}

// A tower kvplan does not size stays named as not counted; a hostile field is
// one InputError line.
TEST(VisionTowers, UnsizedAndHostileTowers) {
  const std::string text = TowerTextFields(64, 2, 4, 2, 128, 1000);
  ModelSpec omni = ParseModelConfig(
      R"({"architectures":["Qwen3OmniMoeForConditionalGeneration"],"thinker_config":{
      "vision_config":{"model_type":"qwen3_omni_moe_vision_encoder","depth":27},
      "text_config":{"model_type":"qwen3_omni_moe_text","num_experts":8,
      "num_experts_per_tok":2,"moe_intermediate_size":32,)" +
          text + "}}}",
      "t");
  EXPECT_EQ(omni.vision_params, 0);
  EXPECT_NE(omni.uncounted_weights.find("vision"), std::string::npos);
  EXPECT_THROW(
      ParseModelConfig(R"({"architectures":["Qwen2_5_VLForConditionalGeneration"],)" + text +
                           R"(,"vision_config":{"depth":32,"hidden_size":1099511627776}})",
                       "t"),
      InputError);
}

}  // namespace
}  // namespace kvplan
