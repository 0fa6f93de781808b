#include "catalog/vision_towers.h"

#include <optional>

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

// The Qwen3-VL block of 1152 (MoonViT's is the same shape): 2 LayerNorms
// 4,608 + qkv 3,984,768 + proj 1,328,256 + fc1 4,962,512 + fc2 4,959,360.
constexpr int64_t kBlock1152 = 15'239'504;

// The Qwen3-VL / Qwen3.5 tower without deepstack: 27 blocks, Conv3d 3x2x16x16
// x1152 with its bias, 2304 positions, the merger (LayerNorm 2,304, [4608 ->
// 4608] 21,238,272, [4608 -> out] biased).
int64_t Qwen35TowerByHand(int64_t out) {
  return 27 * kBlock1152 + 1'769'472 + 1'152 + 2'654'208 + 2'304 + 21'238'272 + 4608 * out + out;
}

// Qwen/Qwen3.5-27B and Qwen3.5-397B-A17B (real configs): the vision_config of
// model_type qwen3_5 / qwen3_5_moe is Qwen3-VL's tower without the deepstack
// mergers (transformers qwen3_5/modular_qwen3_5.py Qwen3_5VisionModel), now
// counted: 460,730,096 and 456,010,480 parameters.
TEST(VisionTowers, Qwen35RealConfigs) {
  ModelSpec dense = LoadModel(testing::RealData("configs/Qwen--Qwen3.5-27B.json"));
  EXPECT_EQ(dense.vision_kind, "qwen3_5");
  EXPECT_EQ(dense.vision_params, Qwen35TowerByHand(5120));
  EXPECT_EQ(dense.vision_params, 460'730'096);
  EXPECT_EQ(dense.uncounted_weights, "");
  ModelSpec moe = LoadModel(testing::RealData("configs/Qwen--Qwen3.5-397B-A17B.json"));
  EXPECT_EQ(moe.vision_params, Qwen35TowerByHand(4096));
  EXPECT_EQ(moe.uncounted_weights, "");
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(moe)), 397e9, "Qwen3.5-397B-A17B");
}

// moonshotai/Kimi-K2.5 (real config): MoonViT3d (vLLM kimi_k25_vit.py) from the
// vt_* fields: 27 blocks of 1152, a biased Conv2d 3x14x14 -> 1152 (678,528), a
// 64 x 64 position table (4,718,592), the final LayerNorm (2,304); the
// patchmerger projector: LayerNorm 2,304, [4608 -> 4608] 21,238,272 and [4608 ->
// 7168] 33,037,312. Its text model is Kimi-K2's, so the whole model is Kimi-K2
// plus the tower.
TEST(VisionTowers, KimiK25MoonVitRealConfig) {
  ModelSpec m = LoadModel(testing::RealData("configs/moonshotai--Kimi-K2.5.json"));
  EXPECT_EQ(m.vision_kind, "kimi_k25");
  // The geometry `models show` prints, from vt_num_hidden_layers,
  // vt_hidden_size and vt_intermediate_size.
  EXPECT_EQ(m.vision_layers, 27);
  EXPECT_EQ(m.vision_hidden_size, 1152);
  EXPECT_EQ(m.vision_intermediate_size, 4304);
  const int64_t tower =
      27 * kBlock1152 + 678'528 + 4'718'592 + 2'304 + 2'304 + 21'238'272 + 33'037'312;
  EXPECT_EQ(m.vision_params, tower);
  EXPECT_EQ(m.vision_params, 471'143'920);
  EXPECT_EQ(m.uncounted_weights, "");
  EXPECT_EQ(TowerModelParams(m),
            TowerModelParams(LoadModel("moonshotai/Kimi-K2-Instruct")) + tower);
  // SGLang's KimiK25VisionConfig (configs/kimi_k25.py) has num_hidden_layers
  // 27 and hidden_size 1152 by default: the config's vt_* keys are other names.
  const std::optional<TowerConfigAttributes> a = TowerConfigAsLoaded(m);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->num_hidden_layers, 27);
  EXPECT_EQ(a->hidden_size, 1152);
}

// microsoft/Phi-3.5-vision-instruct (real config): img_processor names
// openai/clip-vit-large-patch14-336, the full CLIP vision model (303,507,456,
// as LLaVA-1.5's test counts it), the HD separators glb_GN + sub_GN (2 x 4096)
// and the projection [4096 -> 3072] + [3072 -> 3072], biased (12,585,984 +
// 9,440,256). With Phi-3.5-mini's text model the Hub's 4.15B (the parameter
// count https://promptlayer.com/models/phi-35-vision-instruct-1f31 copies).
TEST(VisionTowers, Phi35VisionClipRealConfig) {
  ModelSpec m = LoadModel(testing::RealData("configs/microsoft--Phi-3.5-vision-instruct.json"));
  EXPECT_EQ(m.vision_kind, "phi3_v");
  EXPECT_EQ(m.vision_params, 303'507'456 + 8'192 + 12'585'984 + 9'440'256);
  EXPECT_EQ(m.uncounted_weights, "");
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(m)), 4.15e9, "Phi-3.5-vision");
  // No vision_config: SGLang's getattr(hf_config, "vision_config") finds none.
  EXPECT_FALSE(TowerConfigAsLoaded(m).has_value());
}

// OpenGVLab/InternVL2_5-8B's fields (synthetic file; the values are the public
// config's): InternViT-300M (24 layers of 1024, qkv bias, LayerNorms, no q/k
// norm, 448 px / 14) and mlp1 to InternLM2.5-7B's 4096. By hand, a layer is qkv
// 3,148,800 + proj 1,049,600 + fc1 4,198,400 + fc2 4,195,328 + norms 4,096 +
// ls1/ls2 2,048 = 12,598,272; 24 layers 302,358,528 + class 1,024 + patch
// 603,136 + positions 1025 x 1024 = 304,012,288 (the "300M"); mlp1 LayerNorm
// 8,192 + 2 x 16,781,312. With the 7.74B text model the Hub's 8.08B.
TEST(VisionTowers, InternVl25InternVit) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["InternVLChatModel"],"model_type":"internvl_chat",
      "downsample_ratio":0.5,"llm_config":{"architectures":["InternLM2ForCausalLM"],
      "model_type":"internlm2","rope_theta":1000000,)" +
          TowerTextFields(4096, 32, 32, 8, 14336, 92553) +
          R"(},"vision_config":{"model_type":"intern_vit_6b","hidden_size":1024,
          "intermediate_size":4096,"num_hidden_layers":24,"num_attention_heads":16,
          "image_size":448,"patch_size":14,"qkv_bias":true,"qk_normalization":false,
          "norm_type":"layer_norm","num_channels":3}})",
      "synthetic InternVL2_5-8B");
  EXPECT_EQ(m.vision_params, 304'012'288 + 8'192 + 2 * 16'781'312);
  EXPECT_EQ(m.uncounted_weights, "");
  ExpectTowerModelNear(static_cast<double>(TowerModelParams(m)), 8.08e9, "InternVL2_5-8B");
}

// moonshotai/Kimi-VL-A3B-Instruct's vision fields (synthetic file): MoonViT
// (vLLM moonvit.py) of 27 x 1152 and KimiVLMultiModalProjector to the text
// width 2048: the K2.5 tower's parts with [4608 -> 2048] (9,439,232).
TEST(VisionTowers, KimiVlMoonVit) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["KimiVLForConditionalGeneration"],"model_type":"kimi_vl",
      "text_config":{"model_type":"deepseek_v3","kv_lora_rank":512,"qk_rope_head_dim":64,
      "qk_nope_head_dim":128,"v_head_dim":128,"q_lora_rank":null,"n_routed_experts":64,
      "num_experts_per_tok":6,"n_shared_experts":2,"moe_intermediate_size":1408,
      "first_k_dense_replace":1,)" +
          TowerTextFields(2048, 27, 16, 16, 11264, 163840) +
          R"(},"vision_config":{"model_type":"moonvit","patch_size":14,
          "init_pos_emb_height":64,"init_pos_emb_width":64,"num_attention_heads":16,
          "num_hidden_layers":27,"hidden_size":1152,"intermediate_size":4304,
          "merge_kernel_size":[2,2]}})",
      "synthetic Kimi-VL-A3B");
  EXPECT_EQ(m.vision_params,
            27 * kBlock1152 + 678'528 + 4'718'592 + 2'304 + 2'304 + 21'238'272 + 9'439'232);
}

// Qwen/Qwen3-Omni-30B-A3B-Instruct's thinker fields (synthetic file): the
// Qwen3-VL vision encoder with 3 deepstack mergers to 2048 (538,631,408) and
// the audio encoder (transformers Qwen3OmniMoeAudioEncoder): 32 layers of 1280
// (4 biased 1280^2 projections 6,558,720, fc1 6,558,720, fc2 6,554,880,
// LayerNorms 5,120: 19,677,440 each), Conv2d 4,800 + 2 x 2,074,080, conv_out
// 7680 x 1280, ln_post 2,560, proj1 1,639,680, proj2 2,623,488 = 647,927,168.
// The talker is not loaded by vLLM or SGLang and is not counted.
TEST(VisionTowers, Qwen3OmniVisionAndAudio) {
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["Qwen3OmniMoeForConditionalGeneration"],"thinker_config":{
      "audio_config":{"model_type":"qwen3_omni_moe_audio_encoder","d_model":1280,
      "encoder_layers":32,"encoder_attention_heads":20,"encoder_ffn_dim":5120,
      "num_mel_bins":128,"output_dim":2048,"downsample_hidden_size":480},
      "vision_config":{"model_type":"qwen3_omni_moe_vision_encoder","depth":27,
      "hidden_size":1152,"intermediate_size":4304,"in_channels":3,"patch_size":16,
      "spatial_merge_size":2,"temporal_patch_size":2,"out_hidden_size":2048,
      "num_position_embeddings":2304,"deepstack_visual_indexes":[8,16,24]},
      "text_config":{"model_type":"qwen3_omni_moe_text","num_experts":128,
      "num_experts_per_tok":8,"moe_intermediate_size":768,"head_dim":128,)" +
          TowerTextFields(2048, 48, 32, 4, 768, 152064) + "}}}",
      "synthetic Qwen3-Omni-30B-A3B");
  const int64_t merger = 2'304 + 21'238'272 + 4608 * 2048 + 2048;
  const int64_t deepstack = 9'216 + 21'238'272 + 4608 * 2048 + 2048;
  const int64_t vision = 27 * kBlock1152 + 1'769'472 + 1'152 + 2'654'208 + merger + 3 * deepstack;
  EXPECT_EQ(m.vision_params, vision + 647'927'168);
  EXPECT_EQ(m.uncounted_weights, "");
  // The vision config is in thinker_config: no hf_config.vision_config.
  EXPECT_FALSE(TowerConfigAsLoaded(m).has_value());
}

// What getattr sees on the loaded vision config: Qwen2.5-VL's class names its
// depth `depth` (no num_hidden_layers attribute), CLIP's names both.
TEST(VisionTowers, ConfigClassAttributes) {
  ModelSpec qwen = LoadModel(testing::RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  std::optional<TowerConfigAttributes> a = TowerConfigAsLoaded(qwen);
  ASSERT_TRUE(a.has_value());
  EXPECT_FALSE(a->num_hidden_layers.has_value());
  EXPECT_EQ(a->hidden_size, 1280);
  ModelSpec text = LoadModel(testing::RealData("configs/microsoft--phi-4.json"));
  EXPECT_FALSE(TowerConfigAsLoaded(text).has_value());
}

// A tower kvplan does not size stays named as not counted; a hostile field is
// one InputError line.
TEST(VisionTowers, UnsizedAndHostileTowers) {
  const std::string text = TowerTextFields(64, 2, 4, 2, 128, 1000);
  ModelSpec unknown = ParseModelConfig(
      R"({"architectures":["LlavaForConditionalGeneration"],"text_config":{"model_type":"llama",)" +
          text + R"(},"vision_config":{"model_type":"siglip_vision_model","num_hidden_layers":2}})",
      "t");
  EXPECT_EQ(unknown.vision_params, 0);
  EXPECT_NE(unknown.uncounted_weights.find("vision"), std::string::npos);
  EXPECT_THROW(ParseModelConfig(R"({"architectures":["InternVLChatModel"],"downsample_ratio":0.3,
          "llm_config":{"model_type":"qwen2",)" +
                                    text + R"(},"vision_config":{"model_type":"intern_vit_6b"}})",
                                "t"),
               InputError);
  EXPECT_THROW(
      ParseModelConfig(R"({"architectures":["Qwen2_5_VLForConditionalGeneration"],)" + text +
                           R"(,"vision_config":{"depth":32,"hidden_size":1099511627776}})",
                       "t"),
      InputError);
}

}  // namespace
}  // namespace kvplan
