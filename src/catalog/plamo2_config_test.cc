// PLaMo-2 (catalog/plamo2_config.cc) on the pfnet/plamo-2-1b config.json keys a public port's
// test quotes (tests/data/real/configs/SOURCES.md): the layer pattern of vLLM's plamo2.py
// is_mamba, the parameter count by hand, the KV bytes per token and the state bytes per request
// per rank by hand from vLLM's get_mamba_state_shape_from_config (n_groups 0), and the configs
// vLLM would refuse.
#include <gtest/gtest.h>

#include <string>

#include "catalog/engine_support.h"
#include "catalog/layer_geometry.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

const ModelSpec& Plamo2_1b() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/pfnet--plamo-2-1b.quoted.json"));
  return m;
}

// A synthetic 4-layer PLaMo-2 config with `key: value` added.
ModelSpec Plamo2With(const std::string& key, const std::string& value) {
  std::string text = R"({"architectures": ["Plamo2ForCausalLM"], "hidden_size": 256,
      "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2,
      "hidden_size_per_head": 64, "mamba_num_heads": 8, "intermediate_size": 512,
      "vocab_size": 1000, ")" +
                     key + "\": " + value + "}";
  return ParseModelConfig(text, "synthetic-plamo2");
}

// mamba_step 2: layer i attends when i % 2 == 1, so 8 Mamba and 8 attention layers, each
// attention layer sliding over attention_window_size 2048 (no full_attention_idx). Attention:
// 16 query heads and 1 K/V head of hidden_size_per_head 128; the mixer 32 heads x 128 = 4096
// channels, state 64, conv 4, no groups, dt rank max(64, 2048 / 16) = 128.
TEST(Plamo2Config, OneBLayersAndGeometry) {
  const ModelSpec& m = Plamo2_1b();
  EXPECT_EQ(m.architecture, "Plamo2ForCausalLM");
  EXPECT_EQ(m.family, "plamo2");
  EXPECT_EQ(m.num_layers, 16);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 8);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 8);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 0);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[1], LayerKind::kSliding);
  EXPECT_EQ(m.sliding_window, 2048);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_kv_heads, 1);
  EXPECT_EQ(m.state_kind, StateKind::kMamba2);
  EXPECT_EQ(m.mamba_intermediate_size, 4096);
  EXPECT_EQ(m.mamba_num_heads, 32);
  EXPECT_EQ(m.mamba_head_dim, 128);
  EXPECT_EQ(m.mamba_n_groups, 0);
  EXPECT_EQ(m.mamba_dt_rank, 128);
  EXPECT_TRUE(m.tie_word_embeddings);
}

// By hand (vLLM plamo2.py @v0.10.2):
//   a Mamba layer: in_proj 2048 x 8192 = 16,777,216; conv1d 4096 x 4 = 16,384; bcdt_proj 4096
//   x (128 + 2 x 64) = 1,048,576; dt_proj 128 x 32 = 4,096; A, D, dt_bias 3 x 32 = 96; out_proj
//   4096 x 2048 = 8,388,608; dt/B/C norms 128 + 64 + 64 = 256: 26,235,232;
//   an attention layer: qkv 2048 x (16 + 2) x 128 = 4,718,592; o_proj 2048 x 2048 = 4,194,304;
//   q_norm 16 x 128 = 2,048; k_norm 128: 8,915,072;
//   every layer: MLP 2048 x 2 x 8192 + 8192 x 2048 = 50,331,648; four norms 4 x 2048 = 8,192;
//   embedding 100,000 x 2048 = 204,800,000 (tied); final norm 2048.
// A rank's bytes: bf16, A in float32 (32 x 8 x 2 bytes more), and the embedding padded to a
// multiple of 64 rows (vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE): 100,032 rows,
// 32 x 2048 x 2 bytes more.
TEST(Plamo2Config, OneBParametersByHand) {
  const int64_t mixer = 16'777'216 + 16'384 + 1'048'576 + 4'096 + 96 + 8'388'608 + 256;
  EXPECT_EQ(mixer, 26'235'232);
  const int64_t attention = 4'718'592 + 4'194'304 + 2'048 + 128;
  EXPECT_EQ(attention, 8'915'072);
  const int64_t every = 50'331'648 + 8'192;
  const int64_t expected = 8 * (mixer + every) + 8 * (attention + every) + 204'800'000 + 2048;
  EXPECT_EQ(expected, 1'291'441'920);
  const WeightEstimate w = EstimateWeights(Plamo2_1b(), {});
  EXPECT_EQ(w.total_params, expected);
  EXPECT_EQ(w.bytes_per_rank, 2 * expected + 8 * 32 * 2 + 32 * 2048 * 2);  // TP 1
}

// KV: 8 attention layers x 2 (K, V) x 1 head x 128 x 2 B = 4,096 B a token; at TP 2 the one K/V
// head is replicated on both ranks (plamo2.py: num_kv_heads = max(1, 1 // 2)): still 4,096.
TEST(Plamo2Config, OneBKvBytesPerTokenByHand) {
  const ModelSpec& m = Plamo2_1b();
  int64_t tp1 = 0, tp2 = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    if (m.layer_kinds[i] == LayerKind::kLinear) continue;
    tp1 += LayerKvBytesPerToken(m, i, 1, 2);
    tp2 += LayerKvBytesPerToken(m, i, 2, 2);
  }
  EXPECT_EQ(tp1, 8 * 2 * 1 * 128 * 2);
  EXPECT_EQ(tp1, 4'096);
  EXPECT_EQ(tp2, 4'096);
}

// State (mamba_utils.py mamba2_state_shape with n_groups 0): conv (4096 + 0, 4 - 1) = 12,288
// elements, SSM (32, 128, 64) = 262,144; bf16: 548,864 B a layer, 4,390,912 B a request over 8
// layers. TP 2: 2048 channels and 16 heads a rank, 2,195,456 B.
TEST(Plamo2Config, OneBStateBytesPerRequestByHand) {
  const HybridState s = HybridStateShapes(Plamo2_1b(), 1);
  EXPECT_EQ(s.layers, 8);
  EXPECT_EQ(s.shape.ConvElements(), 4096 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 32 * 128 * 64);
  EXPECT_EQ(s.BytesPerRequest(2, 2), (12'288 + 262'144) * 2 * 8);
  EXPECT_EQ(s.BytesPerRequest(2, 2), 4'390'912);
  const HybridState s2 = HybridStateShapes(Plamo2_1b(), 2);
  EXPECT_EQ(s2.shape.conv_channels, 2048);
  EXPECT_EQ(s2.shape.heads, 16);
  EXPECT_EQ(s2.BytesPerRequest(2, 2), 2'195'456);
}

// vLLM serves it from 0.8.5 (#14323); SGLang has no model file for it.
TEST(Plamo2Config, ServingBounds) {
  const std::optional<ServingRelease> vllm = FirstServingRelease("Plamo2ForCausalLM", "vllm");
  ASSERT_TRUE(vllm.has_value());
  EXPECT_EQ(vllm->text, "0.8.5");
  const std::optional<ServingRelease> sglang = FirstServingRelease("Plamo2ForCausalLM", "sglang");
  ASSERT_TRUE(sglang.has_value());
  EXPECT_EQ(sglang->major, kNoServingRelease);
}

// Synthetic configs: full_attention_idx, which only the remote modeling code reads, leaves vLLM's
// sliding window on every attention layer; fewer layers than mamba_step / 2 leave only the last
// layer attending; what vLLM refuses, one line each.
TEST(Plamo2Config, SyntheticPatternsAndRefusals) {
  const ModelSpec full = Plamo2With("full_attention_idx", "[3]");
  EXPECT_EQ(full.layer_kinds[1], LayerKind::kSliding);
  EXPECT_EQ(full.layer_kinds[3], LayerKind::kSliding);
  const ModelSpec step8 = Plamo2With("mamba_step", "8");
  EXPECT_EQ(step8.NumLayersOfKind(LayerKind::kLinear), 3);
  EXPECT_EQ(step8.layer_kinds[3], LayerKind::kSliding);
  const ModelSpec defaults = Plamo2With("rms_norm_eps", "1e-6");
  EXPECT_EQ(defaults.mamba_state_size, 64);  // Plamo2Config's mamba_d_state
  EXPECT_EQ(defaults.mamba_conv_kernel, 4);
  EXPECT_EQ(defaults.sliding_window, 2048);
  EXPECT_EQ(defaults.mamba_dt_rank, 64);  // max(64, 256 / 16)
  auto refusal = [](const std::string& key, const std::string& value) {
    return testing::InputErrorOf([&] { Plamo2With(key, value); });
  };
  EXPECT_NE(refusal("mamba_step", "1").find("asserts mamba_step > 1"), std::string::npos);
  EXPECT_NE(refusal("mamba_enabled", "false").find("mamba_enabled is false"), std::string::npos);
}

}  // namespace
}  // namespace kvplan
