// The story behind kvplan's performance model (issue #5): a 61-layer MoE
// (DeepSeek-V3 geometry, FP8) at TP 8 on eight RTX PRO 6000 over PCIe Gen5
// (dual socket), single stream, against the same launch on eight H200 over
// NVLink, both with SGLang's default attention backend. Published outcomes:
// 82 tok/s plain; EAGLE-3 54 tok/s; a custom allreduce forced onto PCIe
// 38 tok/s; cuda_graph_max_bs 512 -> 128 freed memory for KV (tested with the
// planner in tune/tune_test.cc).
#include <gtest/gtest.h>

#include "perf/attention_kernels.h"
#include "perf/collectives.h"
#include "perf/speculative.h"
#include "testing/perf_test_util.h"

namespace kvplan {
namespace {

using perf_test::Context;
using perf_test::Decode;

constexpr double kCtx = 2048;

class StoryTest : public ::testing::Test {
 protected:
  ModelGeometry ds_ = MakeGeometry(ReferenceModel("deepseek-v3"));
  ModelGeometry draft_ = MakeGeometry(ReferenceModel("eagle3-deepseek"));
  // SGLang picks the attention backend from the target (MLA): Triton on SM120, FA3 on Hopper.
  StepContext Pcie(const ModelGeometry* g,
                   AllreducePolicy p = AllreducePolicy::kEngineDefault) const {
    StepContext c = Context(g, "rtx-pro-6000-server", Topology::kPcieDualSocket, 8, p);
    c.extend_attention = SglangExtendAttention(120, true, "");
    return c;
  }
  StepContext Nvlink(const ModelGeometry* g) const {
    StepContext c = Context(g, "h200", Topology::kNvswitch, 8);
    c.extend_attention = SglangExtendAttention(90, true, "");
    return c;
  }
};

// 2 allreduces per layer (o_proj, MoE/MLP down) = 122, plus the embedding's.
TEST_F(StoryTest, TwoAllreducesPerLayerPlusEmbedding) {
  const StepContext c = Pcie(&ds_);
  const CommBreakdown comm = ForwardComm(c, Decode(1, kCtx), 61, 58);
  EXPECT_EQ(comm.allreduces, 2 * 61 + 1);
  const CommBreakdown verify = ForwardComm(c, {1, 4, kCtx, 4, true}, 61, 58);
  EXPECT_EQ(verify.allreduces, 2 * 61 + 1);
  EXPECT_EQ(verify.allreduce_bytes, 4 * 7168 * 2);  // bs x draft tokens x hidden x bf16
}

// On PCIe the allreduces are the largest part of a decode step: more than the
// GEMMs and attention together and more than the launches and small memory
// kernels together; on NVLink they are a minor one. With the same kernels on
// both (split-KV attention), their share of the verify step on PCIe is more
// than twice the NVLink share.
TEST_F(StoryTest, AllreduceDominatesOnPcie) {
  const StepBreakdown pcie = ForwardTime(Pcie(&ds_), Decode(1, kCtx));
  EXPECT_GT(pcie.comm_us, pcie.gemm_us + pcie.attention_us);
  EXPECT_GT(pcie.comm_us, pcie.overhead_us);
  const StepBreakdown nv = ForwardTime(Nvlink(&ds_), Decode(1, kCtx));
  EXPECT_LT(nv.comm_us / nv.total_us, 0.35);
  StepContext pcie_split = Pcie(&ds_);
  pcie_split.extend_attention = ExtendAttention::kSplitKv;
  const StepBreakdown pv = ForwardTime(pcie_split, {1, 4, kCtx, 4, true});
  const StepBreakdown nvv = ForwardTime(Nvlink(&ds_), {1, 4, kCtx, 4, true});
  EXPECT_GT(pv.comm_us / pv.total_us, 2 * nvv.comm_us / nvv.total_us);
}

// The story's plain decode: 82 tok/s (its context and box are not fully
// known; kvplan's dual-socket NCCL latency comes from the rtx6kpro tables).
TEST_F(StoryTest, PlainDecodeNearTheStorysFigure) {
  const double tok_s = 1e6 / ForwardTime(Pcie(&ds_), Decode(1, kCtx)).total_us;
  EXPECT_NEAR(tok_s, 82.0, 82.0 * 0.25);
}

// A custom allreduce forced onto PCIe at 8 GPUs: every rank reads 7 peers
// over one link across the socket boundary -> slower than NCCL (story: 38 vs
// 82 tok/s).
TEST_F(StoryTest, ForcedCustomAllreduceOnPcieIsSlowerThanNccl) {
  const double nccl = ForwardTime(Pcie(&ds_), Decode(1, kCtx)).total_us;
  const double custom =
      ForwardTime(Pcie(&ds_, AllreducePolicy::kForceCustom), Decode(1, kCtx)).total_us;
  EXPECT_GT(custom, nccl * 1.3);
  // The engines' own rule would not pick it: more than two PCIe-only GPUs.
  EXPECT_EQ(EngineAllreduceUs(14336, 8, Pcie(&ds_).fabric, AllreducePolicy::kEngineDefault, true),
            EngineAllreduceUs(14336, 8, Pcie(&ds_).fabric, AllreducePolicy::kNcclOnly, true));
}

// A realistic acceptance length for a 3-step EAGLE-3 chain on a 61-layer MoE,
// measured on this very hardware: Kimi-K2.6's EAGLE-3 head on 8x RTX PRO 6000
// accepts the three draft positions at 0.645 / 0.393 / 0.240
// (local-inference-lab/rtx6kpro models/kimi-k26-v4.md), tau = 2.278.
constexpr double kMeasuredTau = 1 + 0.645 + 0.393 + 0.240;

double Speedup(const StepContext& target, const StepContext& draft, double tau, double ctx,
               bool spec_v2 = false) {
  SpecConfig s = ResolveSglangSpec(SpecAlgorithm::kEagle3, "DeepseekV3ForCausalLM", 3, 1, 4);
  s.accept_length = tau;
  s.sglang_spec_v2 = spec_v2;
  return SpeculativeStep(target, draft, s, SpecEngine::kSglang, 1, ctx, true).speedup;
}

// The story does not record its context, and the loss grows with it (the
// verify kernel's work does): the context at which the model's EAGLE-3 ratio
// on the PCIe box is the story's measured 54 / 82, by bisection over 2k-16k.
double StoryContext(const StepContext& target, const StepContext& draft) {
  double lo = 2048, hi = 16384;
  for (int i = 0; i < 40; ++i) {
    const double mid = (lo + hi) / 2;
    (Speedup(target, draft, kMeasuredTau, mid) > 54.0 / 82.0 ? lo : hi) = mid;
  }
  return lo;
}

// The story's EAGLE-3 outcome: at the measured acceptance, at the context its
// measured ratio implies, EAGLE-3 is slower than plain decoding on the PCIe box
// and faster on eight H200 with the same launch. That context lies between 4k
// and 8k tokens; at 2k the PCIe box gains less than 20 %.
TEST_F(StoryTest, Eagle3SlowerOnPcieFasterOnH200AtTheMeasuredAcceptance) {
  const double ctx = StoryContext(Pcie(&ds_), Pcie(&draft_));
  EXPECT_GT(ctx, 4096);
  EXPECT_LT(ctx, 8192);
  EXPECT_LT(Speedup(Pcie(&ds_), Pcie(&draft_), kMeasuredTau, ctx), 1.0);
  EXPECT_GT(Speedup(Nvlink(&ds_), Nvlink(&draft_), kMeasuredTau, ctx), 1.0);
  EXPECT_LT(Speedup(Pcie(&ds_), Pcie(&draft_), kMeasuredTau, kCtx), 1.2);
}

// Why: SGLang runs the 4-token verify through its Triton extend kernel on
// SM120 (MLA's default backend there), one thread block per head, each
// padding the 4 query rows to BLOCK_M = 32 and looping over the whole cache:
// 16 blocks on 188 SMs. At 2048 tokens that is 32 x 2052 x 2176 FLOPs per
// block and layer at 1/188 of 467.8 TFLOP/s x 0.5 = 115 us, x 61 layers = 7 ms;
// FA3 on the H200 splits the cache over the GPU.
TEST_F(StoryTest, VerifyAttentionIsTheCostOnTheSm120Box) {
  const ForwardShape verify{1, 4, kCtx, 4, true};
  const StepBreakdown pcie = ForwardTime(Pcie(&ds_), verify);
  const double per_layer_us = 32.0 * (kCtx + 4) * 2176 / (467.8e12 / 188 * 0.5) * 1e6;
  EXPECT_NEAR(pcie.attention_us, 61 * per_layer_us, 61 * per_layer_us * 1e-9);
  const StepBreakdown h200 = ForwardTime(Nvlink(&ds_), verify);
  EXPECT_LT(h200.attention_us, 0.1 * pcie.attention_us);
  // Plain decode uses the split-KV decode kernel on both.
  EXPECT_LT(ForwardTime(Pcie(&ds_), Decode(1, kCtx)).attention_us, 0.1 * pcie.attention_us);
}

// The loss grows with the context (the verify kernel's work does), and the
// story's 54 vs 82 tok/s sits between the model's 4k and 8k contexts.
TEST_F(StoryTest, StorysRatioLiesBetweenFourAndEightThousandTokens) {
  const double at2k = Speedup(Pcie(&ds_), Pcie(&draft_), kMeasuredTau, 2048);
  const double at4k = Speedup(Pcie(&ds_), Pcie(&draft_), kMeasuredTau, 4096);
  const double at8k = Speedup(Pcie(&ds_), Pcie(&draft_), kMeasuredTau, 8192);
  EXPECT_GT(at2k, at4k);
  EXPECT_GT(at4k, at8k);
  EXPECT_GT(at4k, 54.0 / 82.0);
  EXPECT_LT(at8k, 54.0 / 82.0);
}

// A split-KV backend and SGLang's spec v2 (overlap scheduler kept on) make
// EAGLE-3 pay on the same PCIe box, as full verify graphs did for vLLM there
// (Kimi-K2.6: 92.4 -> 122.0 tok/s, models/kimi-k26-v4.md).
TEST_F(StoryTest, SplitKvBackendAndSpecV2MakeEagle3PayOnPcie) {
  StepContext t = Pcie(&ds_), d = Pcie(&draft_);
  t.extend_attention = d.extend_attention = SglangExtendAttention(120, true, "flashinfer");
  EXPECT_GT(Speedup(t, d, kMeasuredTau, kCtx, true), 1.0);
  // Spec v1's exposed host time alone costs something but does not decide it.
  EXPECT_LT(Speedup(t, d, kMeasuredTau, kCtx, false), Speedup(t, d, kMeasuredTau, kCtx, true));
}

}  // namespace
}  // namespace kvplan
