#include "perf/speculative.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/perf_test_util.h"

namespace kvplan {
namespace {

using perf_test::Context;

TEST(Speculative, SglangAutoParameters) {
  // SGLang docs: auto 5/4/8 for Llama and Grok, 3/1/4 otherwise.
  const SpecConfig llama =
      ResolveSglangSpec(SpecAlgorithm::kEagle3, "LlamaForCausalLM", {}, {}, {});
  EXPECT_EQ(llama.num_steps, 5);
  EXPECT_EQ(llama.eagle_topk, 4);
  EXPECT_EQ(llama.num_draft_tokens, 8);
  const SpecConfig qwen =
      ResolveSglangSpec(SpecAlgorithm::kEagle3, "Qwen3MoeForCausalLM", {}, {}, {});
  EXPECT_EQ(qwen.num_steps, 3);
  EXPECT_EQ(qwen.eagle_topk, 1);
  EXPECT_EQ(qwen.num_draft_tokens, 4);
  // "If topk=1, it is adjusted to num_steps + 1".
  EXPECT_EQ(ResolveSglangSpec(SpecAlgorithm::kEagle, "X", 5, 1, 16).num_draft_tokens, 6);
  EXPECT_THROW(ResolveSglangSpec(SpecAlgorithm::kEagle, "X", {}, 2, {}), InputError);
  EXPECT_THROW(ResolveSglangSpec(SpecAlgorithm::kEagle, "X", 0, 1, 2), InputError);
  EXPECT_THROW(ParseSpecAlgorithm("MEDUSA"), InputError);
  EXPECT_EQ(ParseSpecAlgorithm("mtp"), SpecAlgorithm::kNextn);
}

TEST(Speculative, DefaultAcceptLengthIsAGeometricChain) {
  SpecConfig s;
  s.algorithm = SpecAlgorithm::kEagle3;
  s.num_steps = 3;
  s.eagle_topk = 1;
  s.num_draft_tokens = 4;
  const double a = kEagleTokenAcceptance;
  EXPECT_NEAR(DefaultAcceptLength(s), 1 + a + a * a + a * a * a, 1e-12);
  // The K=7 chain the fit came from: published 2.77-2.88 (nebius card).
  s.num_steps = 7;
  s.num_draft_tokens = 8;
  EXPECT_NEAR(DefaultAcceptLength(s), 2.825, 0.02);
  s.accept_length = 3.1;
  EXPECT_EQ(AcceptLength(s), 3.1);
}

class SpecStepTest : public ::testing::Test {
 protected:
  ModelGeometry target_ = MakeGeometry(ReferenceModel("llama-3.1-8b"));
  ModelGeometry draft_ = MakeGeometry(ReferenceModel("eagle3-llama-8b"));
  StepContext tc_ = Context(&target_, "h100-sxm", Topology::kNvswitch, 1);
  StepContext dc_ = Context(&draft_, "h100-sxm", Topology::kNvswitch, 1);
  SpecConfig Spec(double tau) {
    SpecConfig s;
    s.algorithm = SpecAlgorithm::kEagle3;
    s.num_steps = 3;
    s.eagle_topk = 1;
    s.num_draft_tokens = 4;
    s.accept_length = tau;
    return s;
  }
};

TEST_F(SpecStepTest, NothingAcceptedIsAlwaysSlower) {
  for (double bs : {1, 8, 64}) {
    EXPECT_LT(SpeculativeStep(tc_, dc_, Spec(1.0), SpecEngine::kSglang, bs, 1024, true).speedup,
              1.0);
  }
}

TEST_F(SpecStepTest, SpeedupGrowsWithAcceptance) {
  double prev = 0;
  for (double tau : {1.0, 1.5, 2.0, 3.0, 4.0}) {
    const SpecStep s = SpeculativeStep(tc_, dc_, Spec(tau), SpecEngine::kSglang, 1, 1024, true);
    EXPECT_GT(s.speedup, prev);
    EXPECT_NEAR(s.tokens_per_s, tau / s.iteration_us * 1e6, 1e-6);
    prev = s.speedup;
  }
}

// perf-model.md 5: speculative speedups shrink as the batch grows (SGLang
// EAGLE-3 1.81x at b2 down to 1.38x at b64).
TEST_F(SpecStepTest, SpeedupShrinksWithBatch) {
  const double b1 =
      SpeculativeStep(tc_, dc_, Spec(3.0), SpecEngine::kSglang, 1, 1024, true).speedup;
  const double b256 =
      SpeculativeStep(tc_, dc_, Spec(3.0), SpecEngine::kSglang, 256, 1024, true).speedup;
  EXPECT_GT(b1, b256);
}

TEST_F(SpecStepTest, VllmAndSglangSchedulesDiffer) {
  const SpecStep sg = SpeculativeStep(tc_, dc_, Spec(2.5), SpecEngine::kSglang, 4, 1024, true);
  const SpecStep vl = SpeculativeStep(tc_, dc_, Spec(2.5), SpecEngine::kVllm, 4, 1024, true);
  EXPECT_GT(sg.verify_us, 0);
  EXPECT_GT(vl.verify_us, 0);
  EXPECT_NE(sg.draft_us, vl.draft_us);
}

// SGLang spec v1 (no SGLANG_ENABLE_SPEC_V2) runs with the overlap scheduler
// off: each iteration exposes the serial host time; spec v2 and vLLM do not.
TEST_F(SpecStepTest, SglangSpecV1ExposesTheSchedulerPerIteration) {
  SpecConfig v1 = Spec(2.5), v2 = Spec(2.5);
  v2.sglang_spec_v2 = true;
  const SpecStep a = SpeculativeStep(tc_, dc_, v1, SpecEngine::kSglang, 1, 1024, true);
  const SpecStep b = SpeculativeStep(tc_, dc_, v2, SpecEngine::kSglang, 1, 1024, true);
  const SpecStep c = SpeculativeStep(tc_, dc_, v1, SpecEngine::kVllm, 1, 1024, true);
  EXPECT_DOUBLE_EQ(a.host_us - b.host_us, tc_.eff.sglang_spec_v1_serial_us);
  EXPECT_DOUBLE_EQ(b.host_us, tc_.eff.spec_iteration_overhead_us);
  EXPECT_DOUBLE_EQ(c.host_us, tc_.eff.spec_iteration_overhead_us);
  EXPECT_NEAR(a.iteration_us - b.iteration_us, tc_.eff.sglang_spec_v1_serial_us, 1e-9);
}

// sglang-memory.md 6: an EAGLE-3 draft for Llama-3.1-8B (1 layer, 8 KV heads,
// head_dim 128, bf16) costs 4096 B/token.
TEST(SpeculativeMemory, Eagle3DraftKvPerToken) {
  SpecConfig s;
  s.algorithm = SpecAlgorithm::kEagle3;
  s.num_steps = 3;
  s.eagle_topk = 1;
  s.num_draft_tokens = 4;
  Parallelism par;
  const ModelGeometry d = MakeGeometry(ReferenceModel("eagle3-llama-8b"));
  const SpecMemory m = SpeculativeMemory(d, par, 2, s, 128, false);
  EXPECT_EQ(m.kv_bytes_per_token, 2 * 8 * 128 * 2);
  EXPECT_GT(m.weight_bytes, 0);
  EXPECT_GT(m.graph_bytes, 0);
  // TP 8 splits the 8 KV heads one per rank and the weights eight ways.
  par.tp = 8;
  const SpecMemory m8 = SpeculativeMemory(d, par, 2, s, 128, false);
  EXPECT_EQ(m8.kv_bytes_per_token, 2 * 1 * 128 * 2);
  EXPECT_NEAR(static_cast<double>(m.weight_bytes) / m8.weight_bytes, 8.0, 0.01);
  s.algorithm = SpecAlgorithm::kNone;
  EXPECT_EQ(SpeculativeMemory(d, par, 2, s, 128, false).weight_bytes, 0);
}

}  // namespace
}  // namespace kvplan
