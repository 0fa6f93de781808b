// The story behind kvplan's performance model (issue #5): a 61-layer MoE
// (DeepSeek-V3 geometry, FP8) at TP 8 on eight RTX PRO 6000 over PCIe Gen5
// (dual socket), single stream, against the same launch on eight H200 over
// NVLink. Published outcomes: 82 tok/s plain; EAGLE-3 54 tok/s; a custom
// allreduce forced onto PCIe 38 tok/s; cuda_graph_max_bs 512 -> 128 freed
// memory for KV (tested with the planner in perf/tune_test.cc).
#include <gtest/gtest.h>

#include "perf/collectives.h"
#include "perf/perf_test_util.h"
#include "perf/speculative.h"

namespace kvplan {
namespace {

using perf_test::Context;
using perf_test::Decode;

constexpr double kCtx = 2048;

class StoryTest : public ::testing::Test {
 protected:
  ModelGeometry ds_ = MakeGeometry(ReferenceModel("deepseek-v3"));
  ModelGeometry draft_ = MakeGeometry(ReferenceModel("eagle3-deepseek"));
  StepContext Pcie(const ModelGeometry* g,
                   AllreducePolicy p = AllreducePolicy::kEngineDefault) const {
    return Context(g, "rtx-pro-6000", Topology::kPcieDualSocket, 8, p);
  }
  StepContext Nvlink(const ModelGeometry* g) const {
    return Context(g, "h200", Topology::kNvswitch, 8);
  }
  static SpecConfig Eagle3(std::optional<double> tau = {}) {
    SpecConfig s = ResolveSglangSpec(SpecAlgorithm::kEagle3, "DeepseekV3ForCausalLM", 3, 1, 4);
    s.accept_length = tau;
    return s;
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

// On PCIe the allreduces are the largest part of a decode step; on NVLink
// they are a minor one. In the verify step their share on PCIe is more than
// twice the NVLink share.
TEST_F(StoryTest, AllreduceDominatesOnPcie) {
  const StepBreakdown pcie = ForwardTime(Pcie(&ds_), Decode(1, kCtx));
  EXPECT_GT(pcie.comm_us, pcie.gemm_us + pcie.attention_us);
  EXPECT_GT(pcie.comm_us / pcie.total_us, 0.5);
  const StepBreakdown nv = ForwardTime(Nvlink(&ds_), Decode(1, kCtx));
  EXPECT_LT(nv.comm_us / nv.total_us, 0.35);
  const StepBreakdown pv = ForwardTime(Pcie(&ds_), {1, 4, kCtx, 4, true});
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

// On eight H200 over NVLink the same EAGLE-3 launch (3 steps, topk 1, 4 draft
// tokens) at kvplan's default acceptance is faster than plain decoding.
TEST_F(StoryTest, Eagle3FasterOnH200) {
  const SpecStep s =
      SpeculativeStep(Nvlink(&ds_), Nvlink(&draft_), Eagle3(), SpecEngine::kSglang, 1, kCtx, true);
  EXPECT_GT(s.speedup, 1.0);
}

// On the PCIe box EAGLE-3 loses below a break-even acceptance length: each
// iteration pays a verify pass that reads ~4x the routed experts of a decode
// step (E(1-(1-k/E)^4) = 30.5 of 256 instead of 8) plus the draft passes and
// their allreduces. kvplan puts the break-even between 1.4 and 2.0 accepted
// tokens; the story's 54 vs 82 tok/s implies an acceptance below it.
TEST_F(StoryTest, Eagle3OnPcieLosesBelowBreakEvenAcceptance) {
  const auto speedup = [&](double tau) {
    return SpeculativeStep(Pcie(&ds_), Pcie(&draft_), Eagle3(tau), SpecEngine::kSglang, 1, kCtx,
                           true)
        .speedup;
  };
  EXPECT_LT(speedup(1.4), 1.0);
  EXPECT_GT(speedup(2.0), 1.0);
  // The story's ratio, 54/82 = 0.66, needs an acceptance near 1.1 here.
  EXPECT_NEAR(speedup(1.1), 54.0 / 82.0, 0.66 * 0.25);
}

}  // namespace
}  // namespace kvplan
