// The event loop and the whole simulation: at concurrency 1 the simulated
// TTFT and TPOT are the performance model's prefill and decode times, and
// E2E = TTFT + (out - 1) * ITL; Little's law holds on a rate workload; the
// CLI refuses what it does not model and does not simulate a launch that
// does not start.
#include "simulate/simulator.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

#include "kvplan/error.h"
#include "kvplan/perf.h"
#include "perf/perf_report.h"
#include "simulate/scheduler_test_util.h"
#include "simulate/vllm_scheduler.h"
#include "testing/cli_test_util.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

const char* kModel = "meta-llama/Llama-3.1-8B-Instruct";

// The engine's mechanics alone: calibration factors at identity (the fitted
// defaults are tested by SimCalibrationTest and the validation ctest).
constexpr SimCalibrationOverrides kUncalibrated{1.0, 0.0, 0.0};

SimulateQuery Query(const std::string& engine, const WorkloadSpec& w) {
  SimulateQuery q;
  q.launch.engine = engine;
  q.launch.model = kModel;
  q.launch.gpu = "h100";
  q.workload = w;
  q.calib = kUncalibrated;
  return q;
}

TEST(SimulatorTest, ConcurrencyOneIsThePerfModelsPrefillAndDecode) {
  // One request at a time, 1,024 in / 65 out: TTFT is one 1,024-token
  // prefill; each later token one batch-1 decode at 1,024-1,088 tokens.
  const SimulateResult r = Simulate(Query("sglang", testing::ClosedLoop(1, 5, 1024, 65)));
  PerfQuery pq;
  pq.model = kModel;
  pq.gpu = "h100";
  pq.batch_sizes = {1};
  pq.prompt_lengths = {1024};
  pq.context = 1056;  // the mean context while decoding
  const auto perf = PredictPerf(pq);
  EXPECT_NEAR(r.ttft_ms.mean, perf->prefill[0].ttft_ms, perf->prefill[0].ttft_ms * 1e-9);
  // The decode context moves from 1,024 to 1,088 tokens; perf's time at the
  // mean is within 0.5 % of every step's.
  EXPECT_NEAR(r.tpot_ms.mean, perf->decode[0].tpot_ms, perf->decode[0].tpot_ms * 0.005);
  EXPECT_NEAR(r.e2e_ms.mean, r.ttft_ms.mean + 64 * r.itl_ms.mean, r.e2e_ms.mean * 1e-9);
  EXPECT_EQ(r.completed, 5);
  EXPECT_EQ(r.preemptions, 0);
}

TEST(SimulatorTest, LittlesLawHoldsOnARateWorkload) {
  // L (time-averaged requests in the system, measured step by step) equals
  // lambda (completions per second) times W (mean E2E).
  VllmScheduler inner({8192, 256, true});
  testing::RecordingScheduler rec(&inner);
  WorkloadSpec w;
  w.rate = 20;
  w.num_requests = 4000;
  w.input = {"uniform", 200, 0.5};
  w.output = {"uniform", 100, 0.5};
  double area = 0;  // request-microseconds in the system
  Workload work(w);
  SimulatorSetup setup;
  setup.kv = {20000, 16, 20000};
  setup.max_request_tokens = 320000;
  setup.scheduler = &rec;
  setup.workload = &work;
  setup.step_us = [&rec, &area](const BatchShape& b) {
    const double us = 2000 + 10.0 * b.prefill_tokens + 20.0 * b.decode;
    area += us * static_cast<double>(rec.steps.back().running + rec.steps.back().waiting);
    return us;
  };
  SimulateResult r;
  RunSimulation(setup, &r);
  const double l = area / (r.duration_s * 1e6);
  const double lambda_w = r.req_s * r.e2e_ms.mean / 1000.0;
  // Arrivals between step boundaries are counted from the next boundary in L
  // but from their arrival in W: steps of ~3 ms against E2E of ~300 ms.
  EXPECT_NEAR(l, lambda_w, lambda_w * 0.02);
  EXPECT_NEAR(r.req_s, 20.0, 20.0 * 0.05);  // a stable system completes what arrives
}

TEST(SimulatorTest, JsonHasTheDocumentedKeysAndCsvOneRowPerRequest) {
  const std::string csv = ::testing::TempDir() + "sim.csv";
  const testing::CliResult r =
      testing::RunKvplan({"simulate", "--model", kModel, "--gpu", "h100", "--engine", "vllm",
                          "--rate", "10", "--num-requests", "50", "--json", "--csv", csv});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  for (const char* k : {"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"}) {
    for (const char* s : {"mean", "p50", "p90", "p99"}) EXPECT_TRUE(j[k][s].is_number()) << k << s;
  }
  EXPECT_TRUE(j["req_s"].is_number());
  EXPECT_TRUE(j["throughput_tok_s"]["output"].is_number());
  EXPECT_TRUE(j["throughput_tok_s"]["total"].is_number());
  EXPECT_EQ(j["completed"], 50);
  EXPECT_TRUE(j["assumed"].contains("seed"));
  std::ifstream in(csv);
  int lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  EXPECT_EQ(lines, 51);
}

TEST(SimulatorTest, ALaunchThatDoesNotStartExitsOneWithThePlansReason) {
  const std::vector<std::string> launch = {"--model", "meta-llama/Meta-Llama-3.1-70B", "--gpu",
                                           "h100"};
  std::vector<std::string> plan = {"plan", "--json"};
  plan.insert(plan.end(), launch.begin(), launch.end());
  const testing::CliResult p = testing::RunKvplan(plan);
  const std::string reason = nlohmann::json::parse(p.out)["error_message"];
  ASSERT_FALSE(reason.empty());
  std::vector<std::string> sim = {"simulate", "--concurrency", "4"};
  sim.insert(sim.end(), launch.begin(), launch.end());
  const testing::CliResult r = testing::RunKvplan(sim);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(reason), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(SimulatorTest, UnmodelledFlagsAreRefusedInOneLine) {
  // --dp-size without DP attention: independent replicas (dp_attention_test.cc has the rest).
  for (const char* flag : {"--pp-size", "--dp-size"}) {
    std::vector<std::string> args = {"simulate",      "--model", kModel, "--gpu", "h100",
                                     "--concurrency", "4",       flag,   "2"};
    const testing::CliResult r = testing::RunKvplan(args);
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_NE(r.err.find(flag), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(SimulatorTest, VllmsV0EngineIsRefused) {
  SimulateQuery q = Query("vllm", testing::ClosedLoop(1, 1, 10, 10));
  q.launch.version = "0.6.0";
  const std::string what = testing::InputErrorOf([&] { Simulate(q); });
  EXPECT_NE(what.find("V1 scheduler"), std::string::npos) << what;
}

// SGLang's --scheduler-recv-interval from the launch reaches its scheduler: at
// a fixed concurrency whose requests finish at different times, a request sent
// while the others decode waits up to that many decode steps, so the mean TTFT
// grows; TPOT barely moves. A value that is not a positive count is refused.
TEST(SimulatorTest, SglangsRecvIntervalDelaysArrivalsDuringDecode) {
  WorkloadSpec w = testing::ClosedLoop(8, 64, 512, 128);
  w.output = {"uniform", 100, 0.3};
  SimulateQuery q = Query("sglang", w);
  const SimulateResult every = Simulate(q);
  q.launch.args = {"--scheduler-recv-interval", "30"};
  const SimulateResult thirty = Simulate(q);
  EXPECT_GT(thirty.ttft_ms.mean, every.ttft_ms.mean + 5 * every.itl_ms.mean);
  EXPECT_NEAR(thirty.tpot_ms.mean, every.tpot_ms.mean, every.tpot_ms.mean * 0.1);
  for (const char* bad : {"0", "x", "-3"}) {
    q.launch.args = {std::string("--scheduler-recv-interval=") + bad};
    EXPECT_THROW(Simulate(q), InputError) << bad;
  }
}

// An engine that schedules one step ahead chose the step after the current one
// when the current one began: a request arriving during a step waits for that
// step and the next. Steps of 1 ms; request 0 arrives at 0 on an idle engine
// and prefills in [0, 1]; request 1 arrives at 2.5 ms, in the step [2, 3]: it
// prefills in [3, 4] when the engine schedules between steps, in [4, 5] when it
// schedules ahead. An idle engine takes a request at once either way.
TEST(SimulatorTest, SchedulingAheadDelaysARequestThatArrivesDuringAStepByOneStep) {
  WorkloadSpec w;
  w.rate = 400;
  w.arrival = "constant";
  w.num_requests = 2;
  w.input = {"fixed", 10, 0};
  w.output = {"fixed", 100, 0};
  for (const bool ahead : {false, true}) {
    VllmScheduler s({8192, 256, true});
    std::vector<double> ttft(2);
    testing::RunOnPool(
        &s, 100000, 1, w, 1000, [&](const RequestOutcome& o) { ttft[o.id] = o.ttft_ms; }, ahead);
    EXPECT_DOUBLE_EQ(ttft[0], 1.0) << ahead;
    EXPECT_DOUBLE_EQ(ttft[1], ahead ? 5.0 - 2.5 : 4.0 - 2.5) << ahead;
  }
}

// At concurrency 1 the engine is idle whenever a request arrives: scheduling
// ahead changes nothing.
TEST(SimulatorTest, SchedulingAheadCostsAnIdleEngineNothing) {
  for (const bool ahead : {false, true}) {
    VllmScheduler s({8192, 256, true});
    const SimulateResult r =
        testing::RunOnPool(&s, 100000, 1, testing::ClosedLoop(1, 4, 10, 20), 1000, {}, ahead);
    EXPECT_DOUBLE_EQ(r.ttft_ms.mean, 1.0) << ahead;
    EXPECT_DOUBLE_EQ(r.e2e_ms.mean, 20.0) << ahead;
  }
}

// The releases that schedule ahead: vLLM from v0.14 (async scheduling by
// default), SGLang from v0.4 (the overlap scheduler) unless it is disabled.
TEST(SimulatorTest, WhichLaunchesScheduleAhead) {
  EXPECT_FALSE(VllmSchedulesAhead("0.12.0"));
  EXPECT_TRUE(VllmSchedulesAhead("0.14.0"));
  EXPECT_TRUE(VllmSchedulesAhead("0.19.0"));
  // The same closed loop on SGLang with and without its overlap scheduler: a
  // new request sent when another finishes waits two more steps with it on.
  WorkloadSpec w = testing::ClosedLoop(8, 64, 512, 128);
  w.output = {"uniform", 100, 0.3};
  SimulateQuery q = Query("sglang", w);
  const SimulateResult overlap = Simulate(q);
  q.launch.args = {"--disable-overlap-schedule"};
  const SimulateResult serial = Simulate(q);
  EXPECT_GT(overlap.ttft_ms.mean, serial.ttft_ms.mean + serial.itl_ms.mean);
}

TEST(SimulatorTest, ARequestLargerThanTheKvCacheIsAnInputError) {
  VllmScheduler s({8192, 256, true});
  EXPECT_THROW(testing::RunOnPool(&s, 10, 16, testing::ClosedLoop(1, 1, 150, 20)), InputError);
}

}  // namespace
}  // namespace kvplan
