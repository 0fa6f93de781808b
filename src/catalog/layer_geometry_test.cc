// Per-layer attention geometry (catalog/layer_geometry.h) and the two real
// configs that need it (tests/data/real/configs/SOURCES.md): DeciLM's
// Llama-3.3-Nemotron-Super-49B and MiMo-V2-Flash. Parameter counts against a
// hand computation in each test and the published size; KV bytes per token per
// rank against hand arithmetic.
#include "catalog/layer_geometry.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/per_layer_config.h"
#include "catalog/weights.h"
#include "testing/input_error.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

void ExpectParamsNear(int64_t actual, double published) {
  EXPECT_LT(std::fabs(static_cast<double>(actual) - published) / published, 0.01)
      << actual << " vs published " << published;
}

// A model without layer_geometry reads its model-level fields on every layer.
TEST(LayerGeometry, UniformModelsReadTheModelLevelFields) {
  const ModelSpec m = testing::Llama31_8B();
  EXPECT_FALSE(HasPerLayerGeometry(m));
  const LayerGeometry g = LayerGeometryAt(m, 5);
  EXPECT_EQ(g.kv, LayerKv::kOwn);
  EXPECT_EQ(g.kv_heads, 8);
  EXPECT_EQ(g.head_dim, 128);
  EXPECT_EQ(g.v_head_dim, 128);
  EXPECT_EQ(g.mlp_intermediate, 14336);
  // 8 KV heads x (128 + 128) x 2 bytes; at TP 16 the heads are replicated: 1 a rank.
  EXPECT_EQ(LayerKvBytesPerToken(m, 0, 1, 2), 8 * 256 * 2);
  EXPECT_EQ(LayerKvBytesPerToken(m, 0, 16, 2), 1 * 256 * 2);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 32, 1, 2), 32 * 8 * 256 * 2);
}

TEST(LayerGeometry, PipelineStagesGiveTheRemainderToTheStagesBeforeTheLast) {
  EXPECT_EQ(PipelineStageLayers(80, 3), (std::vector<int>{27, 27, 26}));
  EXPECT_EQ(PipelineStageLayers(10, 4), (std::vector<int>{2, 3, 3, 2}));
}

// nemotron_nas.py _ffn_mult_to_intermediate_size: int(2 * mult * 8192 / 3) up to 256.
TEST(LayerGeometry, DeciLmFfnWidthRoundsUpToAMultipleOf256) {
  EXPECT_EQ(DeciLmFfnWidth(5.25, 8192), 28672);  // 28672 exactly
  EXPECT_EQ(DeciLmFfnWidth(1.0, 8192), 5632);    // int(5461.33) = 5461 -> 5632
  EXPECT_EQ(DeciLmFfnWidth(0.5, 8192), 2816);    // 2730 -> 2816
  EXPECT_EQ(DeciLmFfnWidth(3.28125, 8192), 17920);
}

// nvidia/Llama-3_3-Nemotron-Super-49B-v1: 80 blocks, 49 with attention (8 KV
// heads each, n_heads_in_group 8), 31 no_op attention; FFN widths from ffn_mult:
// 49 x 28672 (5.25), 6 x 14336 (2.625), 10 x 7168 (1.3125), 8 x 5632 (1.0),
// 6 x 2816 (0.5), 1 x 17920 (3.28125); sum 1,642,496.
TEST(LayerGeometry, NemotronSuper49BBlockConfigs) {
  const ModelSpec m = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  EXPECT_EQ(m.family, "decilm");
  ASSERT_EQ(m.layer_geometry.size(), 80u);
  EXPECT_EQ(NumKvLayers(m, 0, 80), 49);
  EXPECT_EQ(m.num_kv_heads, 8);
  EXPECT_EQ(m.intermediate_size, 28672);
  int64_t widths = 0;
  for (int i = 0; i < 80; ++i) widths += LayerGeometryAt(m, i).mlp_intermediate;
  EXPECT_EQ(widths, 1'642'496);
  // Embedding and lm_head (untied) 128256 x 8192 each, the final norm; 49 attention
  // modules of q 8192x8192, k and v 8192x1024, o 8192x8192 and their input norm;
  // gate, up, down of each width and the post-attention norm on all 80 layers.
  const int64_t attention = 2 * int64_t{8192} * 8192 + 2 * int64_t{8192} * 1024 + 8192;
  const int64_t expected = 2 * int64_t{128256} * 8192 + 8192 + 49 * attention +
                           3 * int64_t{8192} * 1'642'496 + 80 * 8192;
  const int64_t params = EstimateWeights(m, {}).total_params;
  EXPECT_EQ(params, expected);
  ExpectParamsNear(params, 49.9e9);  // model card: "49B" (49.9B parameters)
  // KV of the 49 attention layers: 8 heads x (128 + 128) x 2 bytes each; TP 4: 2 heads.
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 80, 1, 2), 49 * 8 * 256 * 2);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 80, 4, 2), 49 * 2 * 256 * 2);
  EXPECT_EQ(LayerKvBytesPerToken(m, 6, 1, 2), 0);  // block 6 is no_op attention
}

TEST(LayerGeometry, DeciLmReplaceWithLinearIsRefused) {
  const std::string what = testing::InputErrorOf([&] {
    ParseModelConfig(R"({"architectures":["DeciLMForCausalLM"],"model_type":"nemotron-nas",
        "hidden_size":64,"num_hidden_layers":1,"num_attention_heads":4,"vocab_size":100,
        "block_configs":[{"attention":{"n_heads_in_group":2,"no_op":false,
        "replace_with_linear":true},"ffn":{"ffn_mult":1.0,"no_op":false}}]})",
                     "synthetic.json");
  });
  EXPECT_NE(what.find("replace_with_linear"), std::string::npos) << what;
}

// XiaomiMiMo/MiMo-V2-Flash: 48 layers, hybrid_layer_pattern 1 = sliding (39),
// 0 = full (9: layers 0, 5, 11, 17, 23, 29, 35, 41, 47). Full: 64 q heads, 4 KV
// heads; sliding: 64 q heads, 8 KV heads; K 192, V 128 on both. Layer 0 dense
// (16384), 47 MoE layers of 256 experts of 2048.
TEST(LayerGeometry, MimoV2FlashSlidingAndFullLayersHaveTheirOwnHeads) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  EXPECT_EQ(m.family, "mimo_v2_flash");
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 9);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 39);
  EXPECT_EQ(m.layer_kinds[5], LayerKind::kFull);
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.NumMoeLayers(), 47);
  EXPECT_EQ(LayerGeometryAt(m, 0).kv_heads, 4);
  EXPECT_EQ(LayerGeometryAt(m, 1).kv_heads, 8);
  EXPECT_EQ(LayerGeometryAt(m, 1).v_head_dim, 128);
  // Full q 4096x(64x192), k 4096x(4x192), v 4096x(4x128), o (64x128)x4096;
  // sliding the same with 8 KV heads; two norms a layer; the dense MLP of layer 0;
  // per MoE layer 256 experts of 3 x 4096 x 2048, the router 256 x 4096 and its
  // e_score_correction_bias; embedding and lm_head 152576 x 4096, the final norm.
  // (The sliding layers' 64 attention-sink biases a layer are not counted.)
  const int64_t h = 4096;
  const int64_t full = h * 64 * 192 + h * 4 * 192 + h * 4 * 128 + 64 * 128 * h;
  const int64_t swa = h * 64 * 192 + h * 8 * 192 + h * 8 * 128 + 64 * 128 * h;
  const int64_t moe = 256 * 3 * h * 2048 + 256 * h + 256;
  const int64_t expected =
      2 * int64_t{152576} * h + h + 9 * full + 39 * swa + 48 * 2 * h + 3 * h * 16384 + 47 * moe;
  const int64_t params = EstimateWeights(m, {}).total_params;
  EXPECT_EQ(params, expected);
  ExpectParamsNear(params, 309e9);  // model card: 309B total parameters
  // KV per token: full 4 x (192 + 128) x 2 = 2560 B, sliding 8 x 320 x 2 = 5120 B;
  // TP 4: 1 and 2 heads (640, 1280 B); TP 8: 1 head on both (640 B).
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 48, 1, 2), 9 * 2560 + 39 * 5120);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 48, 4, 2), 9 * 640 + 39 * 1280);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, 48, 8, 2), 48 * 640);
}

}  // namespace
}  // namespace kvplan
