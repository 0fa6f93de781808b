// vLLM's KV-cache spec on models whose layers have their own KV geometry, each
// on its real config (tests/data/real/configs/SOURCES.md), against hand
// arithmetic in the comments.
#include <gtest/gtest.h>

#include <string>

#include "engines/vllm/kv_spec.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// nemotron_nas.py builds no Attention for a no_op block, so only the 49
// attention layers have a spec: 8 KV heads (2 a rank at TP 4) x (128 + 128) x 2.
TEST(VllmPerLayer, NemotronSuperSpecHoldsTheAttentionLayersOnly) {
  const ModelSpec m = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  VllmKvOptions o;
  o.tp = 4;
  const VllmKvSpec s = BuildVllmKvSpec(m, o);
  EXPECT_EQ(s.layers.size(), 49u);
  EXPECT_EQ(s.BytesPerTokenAllLayers(), 49 * 2 * 256 * 2);
  EXPECT_FALSE(s.hybrid);
  EXPECT_EQ(s.page_bytes, 16 * 2 * 256 * 2);
}

// mimo_v2_flash.py: full layers 1 KV head a rank at TP 4 (640 B a token), sliding
// layers 2 (1280 B). unify_kv_cache_spec_page_size gives the full layers 32-token
// blocks (32 x 640 = 16 x 1280 = 20,480 B pages); 9 full and 39 sliding layers
// group by 9 (39 >= 1.5 x 9): 1 full group, ceil(39 / 9) = 5 sliding groups with
// 6 padding slots.
TEST(VllmPerLayer, MimoV2FlashUnifiesThePagesOfItsTwoKinds) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  VllmKvOptions o;
  o.tp = 4;
  const VllmKvSpec s = BuildVllmKvSpec(m, o);
  ASSERT_EQ(s.layers.size(), 48u);
  EXPECT_TRUE(s.hybrid);
  EXPECT_EQ(s.BytesPerTokenAllLayers(), 9 * 640 + 39 * 1280);
  EXPECT_EQ(s.page_bytes, 20480);
  EXPECT_EQ(s.layers[0].bytes_per_token, 640);
  EXPECT_EQ(s.layers[0].block_size, 32);
  EXPECT_EQ(s.layers[1].block_size, 0);  // the spec's 16
  EXPECT_EQ(s.group_size, 9);
  EXPECT_EQ(s.num_groups, 6);
  EXPECT_EQ(s.padding_layers, 6);
  // A full layer at max_model_len 1000: cdiv(1000, 32) = 32 blocks of 20,480 B.
  EXPECT_EQ(VllmLayerMaxMemory(s, s.layers[0], 1000, 8192), 32 * 20480);
}

}  // namespace
}  // namespace kvplan
