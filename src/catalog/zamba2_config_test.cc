// Zamba2 (catalog/zamba2_config.cc) on the real pre-release Zyphra/Zamba2-7B config.json of
// tests/data/real/configs/ (SOURCES.md): the parameter count by hand, counting each shared
// block once, within 1 % of the published 7.4B; the KV bytes per token and the state bytes per
// request per rank by hand; and the configs vLLM would refuse or read differently.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/engine_support.h"
#include "catalog/layer_geometry.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

const ModelSpec& Zamba2_7b() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/Zyphra--Zamba2-7B.prerelease.json"));
  return m;
}

// The real config with `edit` (a JSON object's members) merged over it, parsed.
ModelSpec Zamba2With(const std::string& key, const std::string& value) {
  std::string text = R"({"architectures": ["Zamba2ForCausalLM"], "hidden_size": 256,
      "num_hidden_layers": 3, "layers_block_type": ["mamba", "hybrid", "mamba"],
      "num_attention_heads": 4, ")" +
                     key + "\": " + value + "}";
  return ParseModelConfig(text, "synthetic-zamba2");
}

// The 81 decoder layers (13 hybrid) become 94 kvplan layers: each hybrid one an attention layer
// (one application of a shared block) and a Mamba2 layer. Attention: 2 x 3584 = 7168 wide over
// 32 heads of 224, as many K/V heads; the fork's names give the Mamba2 mixer: expansion_factor
// 2 (7168 channels), mamba_headdim 64 (so 112 heads), state_size 64, conv_dimension 4, 2 groups.
TEST(Zamba2Config, SevenBLayersAndGeometry) {
  const ModelSpec& m = Zamba2_7b();
  EXPECT_EQ(m.architecture, "Zamba2ForCausalLM");
  EXPECT_EQ(m.family, "zamba2");
  EXPECT_EQ(m.num_layers, 94);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 81);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 13);
  EXPECT_EQ(m.layer_kinds[6], LayerKind::kFull);  // layers_block_type[6] is the first hybrid
  EXPECT_EQ(m.layer_kinds[7], LayerKind::kLinear);
  EXPECT_EQ(m.head_dim, 224);
  EXPECT_EQ(m.num_kv_heads, 32);
  EXPECT_EQ(m.state_kind, StateKind::kMamba2);
  EXPECT_EQ(m.mamba_intermediate_size, 7168);
  EXPECT_EQ(m.mamba_num_heads, 112);
  EXPECT_EQ(m.mamba_head_dim, 64);
  EXPECT_EQ(m.mamba_state_size, 64);
  EXPECT_EQ(m.mamba_conv_kernel, 4);
  EXPECT_EQ(m.mamba_n_groups, 2);
  EXPECT_EQ(m.shared_blocks, 2);
  EXPECT_EQ(m.adapter_rank, 128);
  EXPECT_FALSE(m.shared_attention_adapter);
  EXPECT_EQ(m.intermediate_size, 14336);  // ffn_hidden_size
  EXPECT_TRUE(m.tie_word_embeddings);
}

// Zamba2-7B: 7.4B (arXiv 2411.15242, "1.2B, 2.7B, and 7.4B parameter"). By hand:
//   a Mamba2 layer: in_proj 3584 x (2 x 7168 + 2 x 2 x 64 + 112) = 52,699,136; conv1d
//   (7168 + 256) x 4 + 7424 bias = 37,120; dt_bias, A, D 3 x 112 = 336; gated norm 7168;
//   out_proj 7168 x 3584 = 25,690,112; input norm 3584: 78,437,456, 81 times;
//   a shared block: norms 7168 + 3584; qkv 7168 x 21504 = 154,140,672; o_proj 7168 x 3584 =
//   25,690,112; gate/up 3584 x 28672 = 102,760,448; down 14336 x 3584 = 51,380,224:
//   333,982,208, twice (stored once each, whatever the 13 applications);
//   an application: linear 3584 x 3584 = 12,845,056 and the gate/up adapter 3584 x 128 +
//   128 x 28672 = 4,128,768: 16,973,824, 13 times; embedding 32000 x 3584 = 114,688,000, tied;
//   final norm 3584.
TEST(Zamba2Config, SevenBParametersByHand) {
  const int64_t mamba = 52'699'136 + 37'120 + 336 + 7168 + 25'690'112 + 3584;
  EXPECT_EQ(mamba, 78'437'456);
  const int64_t block = 7168 + 3584 + 154'140'672 + 25'690'112 + 102'760'448 + 51'380'224;
  EXPECT_EQ(block, 333'982'208);
  const int64_t application = 12'845'056 + 458'752 + 3'670'016;
  EXPECT_EQ(application, 16'973'824);
  const int64_t expected = 81 * mamba + 2 * block + 13 * application + 114'688'000 + 3584;
  EXPECT_EQ(expected, 7'356'749'648);
  const WeightEstimate w = EstimateWeights(Zamba2_7b(), {});
  EXPECT_EQ(w.total_params, expected);
  EXPECT_EQ(w.bytes_per_rank, 2 * expected);  // bf16, TP 1
  EXPECT_LT(std::fabs(static_cast<double>(w.total_params) - 7.4e9) / 7.4e9, 0.01);
}

// KV: each application has its own cache (vLLM zamba2.py: one Attention per hybrid layer):
// 13 x 2 (K, V) x 32 heads x 224 x 2 B = 372,736 B a token at TP 1, half at TP 2.
TEST(Zamba2Config, SevenBKvBytesPerTokenByHand) {
  const ModelSpec& m = Zamba2_7b();
  EXPECT_EQ(2 * 32 * 224 * 2, 28'672);
  int64_t tp1 = 0, tp2 = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    if (m.layer_kinds[i] == LayerKind::kLinear) continue;  // Mamba2 layers keep state only
    tp1 += LayerKvBytesPerToken(m, i, 1, 2);
    tp2 += LayerKvBytesPerToken(m, i, 2, 2);
  }
  EXPECT_EQ(tp1, 372'736);
  EXPECT_EQ(tp1, 13 * 28'672);
  EXPECT_EQ(tp2, 13 * 14'336);
}

// State (vLLM mamba_utils.py mamba2_state_shape, zamba2.py get_mamba_state_shape_from_config):
// conv (7168 + 2 x 2 x 64, 4 - 1) = 22,272 elements, SSM (112, 64, 64) = 458,752; in bf16
// (vLLM's auto SSM dtype is the conv dtype): (44,544 + 917,504) x 81 = 77,925,888 B a request.
// TP 2: the 2 groups split, 3712 channels and 56 heads a rank: 38,962,944 B.
TEST(Zamba2Config, SevenBStateBytesPerRequestByHand) {
  const HybridState s = HybridStateShapes(Zamba2_7b(), 1);
  EXPECT_EQ(s.layers, 81);
  EXPECT_EQ(s.shape.ConvElements(), 7424 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 112 * 64 * 64);
  EXPECT_EQ(s.BytesPerRequest(2, 2), (44'544 + 917'504) * 81);
  EXPECT_EQ(s.BytesPerRequest(2, 2), 77'925'888);
  const HybridState s2 = HybridStateShapes(Zamba2_7b(), 2);
  EXPECT_EQ(s2.shape.conv_channels, 3712);
  EXPECT_EQ(s2.shape.heads, 56);
  EXPECT_EQ(s2.BytesPerRequest(2, 2), 38'962'944);
}

// vLLM serves it from 0.8.0; SGLang has no model file for it.
TEST(Zamba2Config, ServingBounds) {
  const std::optional<ServingRelease> vllm = FirstServingRelease("Zamba2ForCausalLM", "vllm");
  ASSERT_TRUE(vllm.has_value());
  EXPECT_EQ(vllm->text, "0.8.0");
  const std::optional<ServingRelease> sglang = FirstServingRelease("Zamba2ForCausalLM", "sglang");
  ASSERT_TRUE(sglang.has_value());
  EXPECT_EQ(sglang->major, kNoServingRelease);
}

// Synthetic configs (3 layers, hidden 256): the defaults (n_mamba_heads 8, one shared block,
// rank 128) and what vLLM refuses or reads otherwise, each one line naming the field.
TEST(Zamba2Config, SyntheticDefaultsAndRefusals) {
  const ModelSpec d = Zamba2With("vocab_size", "1000");
  EXPECT_EQ(d.num_layers, 4);
  EXPECT_EQ(d.mamba_num_heads, 8);
  EXPECT_EQ(d.mamba_head_dim, 64);  // 2 x 256 / 8
  EXPECT_EQ(d.shared_blocks, 1);
  EXPECT_EQ(d.intermediate_size, 1024);  // 4 x hidden
  EXPECT_EQ(d.head_dim, 128);            // 2 x 256 / 4
  // use_shared_attention_adapter adds q/k/v adapters: 3 x (512 x 128 + 128 x 512) a use.
  const int64_t plain =
      EstimateWeights(Zamba2With("use_shared_attention_adapter", "false"), {}).total_params;
  const int64_t adapted =
      EstimateWeights(Zamba2With("use_shared_attention_adapter", "true"), {}).total_params;
  EXPECT_EQ(adapted - plain, 3 * 2 * 512 * 128);
  auto refused = [](const std::string& key, const std::string& value, const char* words) {
    try {
      Zamba2With(key, value);
      ADD_FAILURE() << key << " was accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(words), std::string::npos) << e.what();
    }
  };
  refused("num_key_value_heads", "2", "as many K/V heads as query heads");
  refused("hidden_act", "\"silu\"", "Only GELU activation is supported");
  refused("n_mamba_heads", "7", "must divide mamba_expand x hidden_size");
  try {
    Parallelism pp;
    pp.pp = 2;
    EstimateWeights(d, pp);
    ADD_FAILURE() << "pipeline parallelism was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("not SupportsPP"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace kvplan
