// The per-rank state shapes of hybrid models, each against a hand computation.
#include "catalog/state_shapes.h"

#include <gtest/gtest.h>

#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

// Qwen3-Next-80B-A3B (config.json): 48 layers, full attention every 4th, so 36
// gated delta-net layers of 16 key heads x 128 and 32 value heads x 128, conv
// kernel 4. One layer at TP 4, by hand:
//   conv channels = (2 x 16 x 128 + 32 x 128) / 4 = 8192 / 4 = 2048, window 3
//     -> 6,144 elements, 12,288 B in bf16;
//   SSM state = 32/4 heads x 128 x 128 = 131,072 elements, 524,288 B in float32;
//   one layer 536,576 B; 36 layers 19,316,736 B per request.
TEST(StateShapes, Qwen3NextOneLayerByHand) {
  ModelSpec m = LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking");
  HybridState s = HybridStateShapes(m, 4);
  EXPECT_EQ(s.layers, 36);
  EXPECT_EQ(s.conv_dim, 8192);
  EXPECT_EQ(s.shape.conv_channels, 2048);
  EXPECT_EQ(s.shape.conv_width, 3);
  EXPECT_EQ(s.shape.ConvElements(), 6144);
  EXPECT_EQ(s.shape.heads, 8);
  EXPECT_EQ(s.shape.TemporalElements(), 131072);
  EXPECT_EQ(s.shape.ConvElements() * 2 + s.shape.TemporalElements() * 4, 536576);
  EXPECT_EQ(s.BytesPerRequest(2, 4), 36 * 536576);
  EXPECT_EQ(s.BytesPerRequest(2, 4), 19316736);
  // bf16 SSM state (--mamba-ssm-dtype bfloat16): 6,144 x 2 + 131,072 x 2 per layer.
  EXPECT_EQ(s.BytesPerRequest(2, 2), 36 * (6144 * 2 + 131072 * 2));
  // TP 1 holds four times the TP 4 state.
  EXPECT_EQ(HybridStateShapes(m, 1).BytesPerRequest(2, 4), 4 * 19316736);
}

TEST(StateShapes, AttentionOnlyModelHasNoState) {
  ModelSpec m = LoadModel("Qwen/Qwen3-8B");
  EXPECT_EQ(HybridStateShapes(m, 2).layers, 0);
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 4), 0);
}

// Mamba2 with one group: the groups are replicated to one per rank before the
// conv width is split (mamba_utils.py extra_groups_for_head_shards).
TEST(StateShapes, Mamba2ReplicatesASingleGroupPerRank) {
  ModelSpec m;
  m.id = "hand-built";
  m.num_layers = 2;
  m.layer_kinds = {LayerKind::kLinear, LayerKind::kFull};
  m.state_kind = StateKind::kMamba2;
  m.mamba_num_heads = 128, m.mamba_head_dim = 64, m.mamba_state_size = 128;
  m.mamba_n_groups = 1, m.mamba_conv_kernel = 4, m.mamba_intermediate_size = 8192;
  // TP 1: conv_dim 8192 + 2 x 1 x 128 = 8448; TP 4: groups 1 -> 4,
  // conv_dim 8192 + 2 x 4 x 128 = 9216, 2304 a rank.
  EXPECT_EQ(HybridStateShapes(m, 1).conv_dim, 8448);
  HybridState s = HybridStateShapes(m, 4);
  EXPECT_EQ(s.conv_dim, 9216);
  EXPECT_EQ(s.shape.conv_channels, 2304);
  EXPECT_EQ(s.shape.heads, 32);
  EXPECT_EQ(s.BytesPerRequest(2, 4), 2304 * 3 * 2 + 32 * 64 * 128 * 4);
  // 128 heads do not split over 3 ranks: refused, as both engines assert.
  EXPECT_THROW(HybridStateShapes(m, 3), InputError);
}

// Granite-4.0-H-Tiny (a synthetic config of its published fields, see
// tests/data/synthetic/hybrid/README.md; "7B total parameters" on its model
// card). Every layer: 64 experts of 3 x 512 x 1536 + a shared MLP 3 x 1024 x
// 1536 + router 64 x 1536 = 155,811,840, two norms. 36 Mamba2 layers: conv_dim
// 3072 + 2 x 128 = 3328, in_proj (3072 + 3328 + 48) x 1536, out_proj 3072 x
// 1536, conv1d 3328 x 4 + bias 3328, dt_bias/A_log/D 3 x 48, norm 3072 =
// 14,642,576. 4 attention layers: 2 x 1536^2 + 2 x 512 x 1536 = 6,291,456.
// Tied embedding 100352 x 1536, final norm.
TEST(StateShapes, GraniteHybridTinySynthetic) {
  ModelSpec m =
      LoadModel(kvplan::testing::SyntheticData("hybrid/granite-4.0-h-tiny-synthetic.json"));
  EXPECT_EQ(m.family, "granitemoehybrid");
  EXPECT_EQ(m.state_kind, StateKind::kMamba2);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 36);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 4);
  EXPECT_EQ(m.mamba_intermediate_size, 3072);
  EXPECT_EQ(m.shared_expert_intermediate_size, 1024);
  const int64_t h = 1536;
  const int64_t expected = 100352 * h + 40 * (int64_t{155'811'840} + 2 * h) +
                           36 * int64_t{14'642'576} + 4 * int64_t{6'291'456} + h;
  EXPECT_EQ(EstimateWeights(m, {}).total_params, expected);
  EXPECT_NEAR(static_cast<double>(expected) / 7e9, 1.0, 0.01);
  // State per request, by hand. TP 1: conv 3328 x 3 x 2 B = 19,968, SSM
  // 48 x 64 x 128 x 4 B = 1,572,864, one layer 1,592,832, 36 layers 57,341,952.
  EXPECT_EQ(HybridStateShapes(m, 1).BytesPerRequest(2, 4), 57'341'952);
  // TP 2: the one group becomes two, conv_dim 3072 + 2 x 2 x 128 = 3584, 1792
  // a rank: 1792 x 3 x 2 B + 24 x 64 x 128 x 4 B = 797,184 a layer.
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 4), 36 * 797'184);
}

}  // namespace
}  // namespace kvplan
