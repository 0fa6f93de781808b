// vLLM's hybrid page for LFM2's short convolution and MiniMax's lightning attention, by hand
// from mamba_utils.py (short_conv_state_shape @v0.10.2, linear_attention_state_shape
// @v0.10.1) and config.py HybridAttentionMambaModelConfig @v0.10.2, and the releases that
// serve each model.
#include <gtest/gtest.h>

#include "engines/vllm/hybrid.h"
#include "engines/vllm/vllm.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

const ModelSpec& Lfm2() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/LiquidAI--LFM2-1.2B.json"));
  return m;
}

const ModelSpec& MiniMaxM1() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/MiniMaxAI--MiniMax-M1.github.json"));
  return m;
}

VllmArgs TpArgs(int tp) {
  VllmArgs a;
  a.tp = tp;
  return a;
}

VllmHybridBlock BlockOf(const ModelSpec& m, const std::string& release, const VllmArgs& a) {
  return VllmHybridAttentionBlock(m, testing::H100(), a, ParseVllmRelease(release), true, 16);
}

// LFM2-1.2B at TP 1: one conv tensor of (3 - 1) x 2048 = 4,096 bf16 elements, an 8,192 B state
// page; a full layer's 8 KV heads of 64 take 2 x 8 x 64 x 2 = 2,048 B a token, so
// 16 x cdiv(8192, 16 x 2048) = 16 tokens hold it and the page (32,768 B) pads the state by
// (32768 - 8192) / 8192 = 300 %. At TP 2: 4,096 B state, 1,024 B a token, again 16.
TEST(VllmLfm2Minimax, Lfm2ShortConvPage) {
  VllmHybridBlock h = BlockOf(Lfm2(), "0.10.2", TpArgs(1));
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  ASSERT_EQ(h.state.size(), 1u);
  EXPECT_EQ(h.state[0].elements, 4096);
  EXPECT_EQ(h.state[0].dtype_bytes, 2);
  EXPECT_EQ(h.state_bytes, 8192);
  EXPECT_EQ(h.attn_bytes_per_token, 2048);
  EXPECT_EQ(h.block_size, 16);
  EXPECT_EQ(h.page_bytes, 32768);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_FALSE(lines.empty());
  EXPECT_NE(lines.back().find("by 300.00%"), std::string::npos) << lines.back();
  VllmHybridBlock t2 = BlockOf(Lfm2(), "0.10.2", TpArgs(2));
  EXPECT_EQ(t2.state_bytes, 4096);
  EXPECT_EQ(t2.block_size, 16);
  // --mamba-cache-dtype float32 doubles the conv window: 16 x cdiv(16384, 32768) = 16.
  VllmArgs f32 = TpArgs(1);
  f32.mamba_cache_dtype = "float32";
  EXPECT_EQ(BlockOf(Lfm2(), "0.10.2", f32).state_bytes, 16384);
}

// MiniMax-M1 at TP 8: (64 / 8, 128, 128) bf16 = 262,144 B a lightning layer; a softmax layer's
// one KV head a rank of 128 takes 512 B a token: 16 x cdiv(262144, 16 x 512) = 512 tokens, whose
// page is the state exactly (no padding line). --mamba-ssm-cache-dtype does not reach it.
TEST(VllmLfm2Minimax, MiniMaxLightningPageAtTp8) {
  VllmArgs a = TpArgs(8);
  a.mamba_ssm_cache_dtype = "float32";
  VllmHybridBlock h = BlockOf(MiniMaxM1(), "0.10.2", a);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  ASSERT_EQ(h.state.size(), 1u);
  EXPECT_EQ(h.state[0].elements, 8 * 128 * 128);
  EXPECT_EQ(h.state[0].dtype_bytes, 2);
  EXPECT_EQ(h.state_bytes, 262'144);
  EXPECT_EQ(h.attn_bytes_per_token, 512);
  EXPECT_EQ(h.block_size, 512);
  EXPECT_TRUE(h.enlarged);
  EXPECT_EQ(h.page_bytes, 262'144);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("Setting attention block size to 512 tokens"), std::string::npos);
}

// MiniMax: V0 only before 0.10.1 (#22151); a float32 state raises until 0.20.1.
TEST(VllmLfm2Minimax, MiniMaxReleases) {
  VllmHybridBlock v0 = BlockOf(MiniMaxM1(), "0.10.0", TpArgs(8));
  EXPECT_FALSE(v0.modelled);
  EXPECT_NE(v0.not_modelled_reason.find("V0 engine only"), std::string::npos)
      << v0.not_modelled_reason;
  EXPECT_TRUE(BlockOf(MiniMaxM1(), "0.10.1", TpArgs(8)).modelled);
  VllmArgs f32 = TpArgs(8);
  f32.mamba_cache_dtype = "float32";
  VllmHybridBlock raised = BlockOf(MiniMaxM1(), "0.11.0", f32);
  EXPECT_FALSE(raised.modelled);
  EXPECT_NE(raised.not_modelled_reason.find("fp32 state for minimax is not yet supported"),
            std::string::npos);
  VllmHybridBlock later = BlockOf(MiniMaxM1(), "0.20.1", f32);
  ASSERT_TRUE(later.modelled) << later.not_modelled_reason;
  EXPECT_EQ(later.state_bytes, 8 * 128 * 128 * 4);
}

// The registry's refusal before the first release that serves each (catalog/engine_support.cc):
// LFM2 before 0.10.2, MiniMax-M1 before 0.9.2.
TEST(VllmLfm2Minimax, RefusedBeforeTheirFirstRelease) {
  PlanResult lfm2 = PlanVllm("0.10.1", Lfm2(), testing::H100(), ParseVllmArgs({}), {});
  EXPECT_FALSE(lfm2.ok);
  EXPECT_NE(lfm2.error_message.find("['Lfm2ForCausalLM'] are not supported for now. (kvplan: "
                                    "vLLM 0.10.1 does not serve it; it was added in 0.10.2"),
            std::string::npos)
      << lfm2.error_message;
  PlanResult m1 = PlanVllm("0.9.1", MiniMaxM1(), testing::H100(),
                           ParseVllmArgs({"--tensor-parallel-size", "8"}), {});
  EXPECT_FALSE(m1.ok);
  EXPECT_NE(m1.error_message.find("it was added in 0.9.2"), std::string::npos) << m1.error_message;
}

}  // namespace
}  // namespace kvplan
