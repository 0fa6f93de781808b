// vLLM V1's hybrid page for Zamba2 on the real pre-release Zyphra/Zamba2-7B config.json, by
// hand from mamba_utils.py mamba2_state_shape / mamba2_state_dtype and config.py
// HybridAttentionMambaModelConfig @v0.10.2: each application of a shared block is an attention
// layer of its own (zamba2.py), every decoder layer a Mamba2 state layer.
#include <gtest/gtest.h>

#include "engines/vllm/hybrid.h"
#include "engines/vllm/vllm.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

const ModelSpec& Zamba2() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/Zyphra--Zamba2-7B.prerelease.json"));
  return m;
}

VllmHybridBlock Zamba2Block(const std::string& release, int tp) {
  VllmArgs a;
  a.tp = tp;
  return VllmHybridAttentionBlock(Zamba2(), testing::H100(), a, ParseVllmRelease(release), true,
                                  16);
}

// TP 1: conv (7424, 3) and SSM (112, 64, 64), both bf16 (the auto SSM dtype is the conv
// dtype): 44,544 + 917,504 = 962,048 B a layer. An attention layer's 32 K/V heads of 224 take
// 28,672 B a token: 16 x cdiv(962048, 16 x 28672) = 48 tokens, a 1,376,256 B page that pads the
// state by 414,208 / 962,048 = 43.05 %. TP 2 halves both: again 48 tokens.
TEST(VllmZamba2, StatePageAndBlockSize) {
  VllmHybridBlock h = Zamba2Block("0.10.2", 1);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  ASSERT_EQ(h.state.size(), 2u);
  EXPECT_EQ(h.state[0].elements, 7424 * 3);
  EXPECT_EQ(h.state[1].elements, 112 * 64 * 64);
  EXPECT_EQ(h.state[1].dtype_bytes, 2);
  EXPECT_EQ(h.state_bytes, 962'048);
  EXPECT_EQ(h.attn_bytes_per_token, 28'672);
  EXPECT_EQ(h.block_size, 48);
  EXPECT_TRUE(h.enlarged);
  EXPECT_EQ(h.page_bytes, 1'376'256);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("by 43.05%"), std::string::npos) << lines.back();
  VllmHybridBlock t2 = Zamba2Block("0.10.2", 2);
  EXPECT_EQ(t2.state_bytes, 481'024);
  EXPECT_EQ(t2.attn_bytes_per_token, 14'336);
  EXPECT_EQ(t2.block_size, 48);
}

// Before 0.10.0 the V1 hybrid layout does not exist: the state is said to be unmodelled.
TEST(VllmZamba2, OlderReleasesLeaveTheStateUnmodelled) {
  VllmHybridBlock h = Zamba2Block("0.9.2", 1);
  EXPECT_FALSE(h.modelled);
  EXPECT_NE(h.not_modelled_reason.find("0.10.0"), std::string::npos) << h.not_modelled_reason;
}

}  // namespace
}  // namespace kvplan
