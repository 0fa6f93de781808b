// vLLM V1's hybrid page for PLaMo-2 on the pfnet/plamo-2-1b config keys of
// tests/data/real/configs/ (SOURCES.md), by hand from mamba_utils.py mamba2_state_shape (n_groups
// 0, plamo2.py get_mamba_state_shape_from_config) and config.py HybridAttentionMambaModelConfig
// @v0.10.2; plamo2.py is SupportsV0Only until 0.10.2 (vllm-project/vllm#23998).
#include <gtest/gtest.h>

#include "engines/vllm/hybrid.h"
#include "engines/vllm/vllm.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

const ModelSpec& Plamo2() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/pfnet--plamo-2-1b.quoted.json"));
  return m;
}

VllmHybridBlock Plamo2Block(const std::string& release, int tp) {
  VllmArgs a;
  a.tp = tp;
  return VllmHybridAttentionBlock(Plamo2(), testing::H100(), a, ParseVllmRelease(release), true,
                                  16);
}

// TP 1: conv (4096, 3) and SSM (32, 128, 64) in bf16: 24,576 + 524,288 = 548,864 B a layer. An
// attention layer's one K/V head of 128 takes 512 B a token: 16 x cdiv(548,864, 16 x 512) =
// 16 x 67 = 1,072 tokens, a page of exactly 548,864 B. TP 2 halves the state (274,432 B) but not
// the replicated K/V head: 16 x cdiv(274,432, 8,192) = 16 x 34 = 544 tokens.
TEST(VllmPlamo2, StatePageAndBlockSize) {
  VllmHybridBlock h = Plamo2Block("0.10.2", 1);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  ASSERT_EQ(h.state.size(), 2u);
  EXPECT_EQ(h.state[0].elements, 4096 * 3);
  EXPECT_EQ(h.state[1].elements, 32 * 128 * 64);
  EXPECT_EQ(h.state_bytes, 548'864);
  EXPECT_EQ(h.attn_bytes_per_token, 512);
  EXPECT_EQ(h.block_size, 1'072);
  EXPECT_TRUE(h.enlarged);
  EXPECT_EQ(h.page_bytes, 548'864);
  VllmHybridBlock t2 = Plamo2Block("0.10.2", 2);
  EXPECT_EQ(t2.state_bytes, 274'432);
  EXPECT_EQ(t2.attn_bytes_per_token, 512);
  EXPECT_EQ(t2.block_size, 544);
}

// vLLM 0.10.1's plamo2.py is SupportsV0Only: the V0 state is said to be unmodelled, naming the
// release that moved it to V1.
TEST(VllmPlamo2, V0OnlyReleasesLeaveTheStateUnmodelled) {
  VllmHybridBlock h = Plamo2Block("0.10.1", 1);
  EXPECT_FALSE(h.modelled);
  EXPECT_NE(h.not_modelled_reason.find("V0 engine only (V1 support arrived in 0.10.2)"),
            std::string::npos)
      << h.not_modelled_reason;
}

}  // namespace
}  // namespace kvplan
