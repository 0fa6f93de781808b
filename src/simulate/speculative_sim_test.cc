// Speculative decoding in the simulation, from first principles and against
// the performance model it must agree with: the accepted-length draws have
// the mean perf uses and the per-position acceptance a measured EAGLE-3 head
// shows; an accept length of 1 gives plain decoding's steps; the mean tokens
// a decode step gains is the accept length; at concurrency 1 the simulated
// TPOT is `kvplan perf`'s speculative TPOT and the speedup perf's.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "kvplan/perf.h"
#include "kvplan/simulate.h"
#include "perf/perf_report.h"
#include "perf/speculative.h"
#include "simulate/accept_sampler.h"
#include "simulate/scheduler_test_util.h"
#include "testing/cli_test_util.h"
#include "testing/input_error.h"

namespace kvplan {
// Named, not anonymous: the tests of this folder build as one unit.
namespace spec_sim_test {

const char* kModel = "meta-llama/Llama-3.1-8B-Instruct";
constexpr SimCalibrationOverrides kUncalibrated{1.0, 0.0, 0.0};
const char* kDraft = "sgl-project/SpecForge-llama3-8B-eagle3";
const std::vector<std::string> kEagle3 = {
    "--speculative-algorithm",        "EAGLE3", "--speculative-draft-model-path", kDraft,
    "--speculative-num-steps",        "3",      "--speculative-eagle-topk",       "1",
    "--speculative-num-draft-tokens", "4"};

SimulateQuery Query(const std::string& engine, const WorkloadSpec& w,
                    const std::vector<std::string>& args) {
  SimulateQuery q;
  q.launch.engine = engine;
  q.launch.model = kModel;
  q.launch.gpu = "h100";
  q.launch.args = args;
  q.workload = w;
  q.calib = kUncalibrated;
  return q;
}

double MeanDraw(double tau, int depth, int n) {
  AcceptSampler s(tau, depth, 7);
  double sum = 0;
  for (int i = 0; i < n; ++i) sum += static_cast<double>(s.Draw());
  return sum / n;
}

TEST(SpeculativeSimTest, DrawsHaveTheAcceptLengthAsTheirMean) {
  EXPECT_NEAR(MeanDraw(2.835, 7, 200000), 2.835, 2.835 * 0.005);
  EXPECT_NEAR(MeanDraw(2.278, 3, 200000), 2.278, 2.278 * 0.005);
  EXPECT_EQ(MeanDraw(1.0, 3, 1000), 1.0);  // nothing accepted: plain decoding
  EXPECT_EQ(MeanDraw(4.0, 3, 1000), 4.0);  // everything accepted
}

TEST(SpeculativeSimTest, TheChainRateInvertsPerfsDefaultAcceptLength) {
  // perf's default for a 3-step EAGLE-3 chain is 1 + a + a^2 + a^3 at a = 0.66.
  const SpecConfig s = ResolveSglangSpec(SpecAlgorithm::kEagle3, "LlamaForCausalLM", 3, 1, 4);
  EXPECT_NEAR(ChainTokenAcceptance(DefaultAcceptLength(s), SpecChainDepth(s)),
              kEagleTokenAcceptance, 1e-9);
  EXPECT_EQ(ChainTokenAcceptance(1.0, 3), 0.0);
  EXPECT_THROW(ChainTokenAcceptance(4.5, 3), InputError);
}

// Kimi-K2.6's EAGLE-3 head on 8x RTX PRO 6000 accepts draft positions 1-3 at
// 0.645 / 0.393 / 0.240 (local-inference-lab/rtx6kpro models/kimi-k26-v4.md):
// the chain at their mean (tau 2.278) puts each position within 0.035 of it.
TEST(SpeculativeSimTest, TheChainMatchesAMeasuredPerPositionAcceptance) {
  const double measured[] = {0.645, 0.393, 0.240};
  const double a = ChainTokenAcceptance(1 + 0.645 + 0.393 + 0.240, 3);
  double p = 1;
  for (double m : measured) {
    p *= a;
    EXPECT_NEAR(p, m, 0.035);
  }
}

TEST(SpeculativeSimTest, AcceptLengthOneTakesPlainDecodingsSteps) {
  // Both without the overlap scheduler (spec v1 turns it off), so that only
  // the accepted tokens could differ.
  const WorkloadSpec w = testing::ClosedLoop(4, 40, 512, 100);
  SimulateQuery spec = Query("sglang", w, kEagle3);
  spec.launch.args.push_back("--disable-overlap-schedule");
  spec.accept_length = 1.0;
  const SimulateResult s = Simulate(spec);
  const SimulateResult plain = Simulate(Query("sglang", w, {"--disable-overlap-schedule"}));
  EXPECT_EQ(s.steps, plain.steps);
  EXPECT_EQ(s.completed, plain.completed);
  EXPECT_GT(s.tpot_ms.mean, plain.tpot_ms.mean);  // the draft and verify passes cost
}

TEST(SpeculativeSimTest, ADecodeStepGainsTheAcceptLengthOnAverage) {
  // One request at a time, 128 in / 2,001 out: one prefill step each (its
  // first token), the other 2,000 tokens from decode steps.
  const int64_t n = 10;
  SimulateQuery q = Query("sglang", testing::ClosedLoop(1, n, 128, 2001), kEagle3);
  q.accept_length = 2.6;
  const SimulateResult r = Simulate(q);
  const double per_step = 2000.0 * n / static_cast<double>(r.steps - n);
  EXPECT_NEAR(per_step, 2.6, 2.6 * 0.02);
  EXPECT_DOUBLE_EQ(r.accept_length, 2.6);
}

PerfQuery SpecPerf(const std::string& engine, int64_t context) {
  PerfQuery pq;
  pq.model = kModel;
  pq.gpu = "h100";
  pq.engine = engine;
  pq.batch_sizes = {1};
  pq.prompt_lengths = {1024};
  pq.context = context;
  pq.spec_algo = "EAGLE3";
  pq.spec_steps = 3;
  pq.spec_topk = 1;
  pq.spec_draft_tokens = 4;
  pq.draft_path = kDraft;
  return pq;
}

TEST(SpeculativeSimTest, ConcurrencyOneIsPerfsSpeculativeTpot) {
  // 1,024 in / 257 out: the decode context runs from 1,024 to 1,280 tokens,
  // perf is asked at the mean; the draws' noise over 50 x ~90 steps is ~0.5 %.
  const SimulateResult r =
      Simulate(Query("sglang", testing::ClosedLoop(1, 50, 1024, 257), kEagle3));
  const auto perf = PredictPerf(SpecPerf("sglang", 1152));
  EXPECT_NEAR(r.accept_length, perf->accept_length, 1e-12);
  EXPECT_NEAR(r.tpot_ms.mean, perf->decode[0].spec_tpot_ms, perf->decode[0].spec_tpot_ms * 0.02);
}

TEST(SpeculativeSimTest, TpotFallsByPerfsSpeedupAtBatchOne) {
  // vLLM (the newest release: async scheduling, no host gap between steps):
  // plain TPOT / speculative TPOT is perf's speedup, accept length over the
  // iteration's cost in plain steps.
  const WorkloadSpec w = testing::ClosedLoop(1, 50, 1024, 257);
  const std::vector<std::string> spec = {
      "--speculative-config",
      R"({"method":"eagle3","model":"sgl-project/SpecForge-llama3-8B-eagle3",)"
      R"("num_speculative_tokens":3})"};
  const SimulateResult s = Simulate(Query("vllm", w, spec));
  const SimulateResult plain = Simulate(Query("vllm", w, {}));
  const auto perf = PredictPerf(SpecPerf("vllm", 1152));
  const double speedup = plain.tpot_ms.mean / s.tpot_ms.mean;
  EXPECT_NEAR(speedup, perf->decode[0].spec_speedup, perf->decode[0].spec_speedup * 0.03);
  EXPECT_GT(speedup, 1.2);
}

TEST(SpeculativeSimTest, TheCliSimulatesSpeculationAndRefusesAcceptLengthWithout) {
  std::vector<std::string> args = {"simulate",      "--model", kModel,           "--gpu", "h100",
                                   "--concurrency", "2",       "--num-requests", "6",     "--json"};
  std::vector<std::string> with = args;
  with.insert(with.end(), kEagle3.begin(), kEagle3.end());
  const testing::CliResult r = testing::RunKvplan(with);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["speculative"], "EAGLE3 steps 3 topk 1 draft tokens 4");
  EXPECT_EQ(j["completed"], 6);
  args.insert(args.end(), {"--accept-length", "2"});
  const testing::CliResult bad = testing::RunKvplan(args);
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--accept-length needs a speculative launch"), std::string::npos)
      << bad.err;
  with.insert(with.end(), {"--accept-length", "5"});
  const testing::CliResult over = testing::RunKvplan(with);
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_NE(over.err.find("between 1 and 4"), std::string::npos) << over.err;
}

}  // namespace spec_sim_test
}  // namespace kvplan
