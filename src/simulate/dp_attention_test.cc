// SGLang's DP attention in the simulation, from first principles: each DP rank
// is a scheduler of its own over a KV pool of its own, fed round robin
// (python/sglang/srt/managers/data_parallel_controller.py round_robin_scheduler,
// SGLang's default load_balance_method at every modelled release), and all
// ranks step together at the slowest rank's time (scheduler.py
// prepare_mlp_sync_batch: a rank without work runs an idle batch). Two ranks
// with twice the load therefore run, rank by rank, the batches one rank runs
// with half of it; a rank with less work waits for the busiest one.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "kvplan/simulate.h"
#include "simulate/batch_step_time.h"
#include "simulate/scheduler_test_util.h"
#include "simulate/sglang_scheduler.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

using testing::ClosedLoop;
using testing::RecordingScheduler;

constexpr SglangSchedulerLimits kDpLimits{2048, 8192, 16384, 1.0};

// A run over `ranks` schedulers on pools of `pages` one-token pages, each
// step `per_request_us` per request of the largest batch a rank runs.
SimulateResult RunRanks(const std::vector<EngineScheduler*>& ranks, int64_t pages,
                        const WorkloadSpec& spec, double per_request_us,
                        std::vector<RequestOutcome>* outcomes) {
  Workload w(spec);
  SimulatorSetup setup;
  setup.kv = {pages, 1, pages};
  setup.max_request_tokens = pages;
  setup.scheduler = ranks.front();
  if (ranks.size() > 1) setup.dp_ranks = ranks;
  setup.step_us = [per_request_us](const BatchShape& b) {
    return per_request_us * static_cast<double>(b.decode + b.prefill);
  };
  setup.workload = &w;
  setup.on_request = [outcomes](const RequestOutcome& o) { outcomes->push_back(o); };
  SimulateResult out;
  RunSimulation(setup, &out);
  return out;
}

std::vector<int64_t> Batches(const RecordingScheduler& r) {
  std::vector<int64_t> b;
  for (const testing::StepRecord& s : r.steps) b.push_back(s.batch);
  return b;
}

TEST(DpAttentionTest, TwoRanksWithTwiceTheLoadRunOneRanksBatchesEach) {
  // A pool of 3,000 tokens per rank admits 2 of the 1,001-token requests at a
  // time, so the ranks queue, prefill, decode and finish as one rank does.
  SglangScheduler one_inner(kDpLimits);
  RecordingScheduler one(&one_inner);
  std::vector<RequestOutcome> alone;
  const SimulateResult a = RunRanks({&one}, 3000, ClosedLoop(4, 12, 900, 100), 10, &alone);
  SglangScheduler r0_inner(kDpLimits), r1_inner(kDpLimits);
  RecordingScheduler r0(&r0_inner), r1(&r1_inner);
  std::vector<RequestOutcome> both;
  const SimulateResult b = RunRanks({&r0, &r1}, 3000, ClosedLoop(8, 24, 900, 100), 10, &both);
  EXPECT_EQ(Batches(r0), Batches(one));
  EXPECT_EQ(Batches(r1), Batches(one));
  EXPECT_EQ(b.steps, a.steps);
  EXPECT_EQ(b.completed, 2 * a.completed);
  EXPECT_DOUBLE_EQ(b.ttft_ms.mean, a.ttft_ms.mean);
  EXPECT_DOUBLE_EQ(b.e2e_ms.mean, a.e2e_ms.mean);
  // Each rank's pool is its own: the two together hold twice one rank's requests.
  EXPECT_EQ(b.preemptions, 2 * a.preemptions);
}

TEST(DpAttentionTest, RequestsGoToTheRanksInTurn) {
  // Three requests at once over two ranks: rank 0 takes the first and the
  // third, rank 1 the second.
  SglangScheduler r0_inner(kDpLimits), r1_inner(kDpLimits);
  RecordingScheduler r0(&r0_inner), r1(&r1_inner);
  std::vector<RequestOutcome> out;
  RunRanks({&r0, &r1}, 100000, ClosedLoop(3, 3, 100, 10), 1000, &out);
  ASSERT_FALSE(r0.steps.empty());
  EXPECT_EQ(r0.steps[0].batch, 2);
  EXPECT_EQ(r1.steps[0].batch, 1);
}

TEST(DpAttentionTest, ALighterRankStepsAtTheBusiestRanksPace) {
  // Rank 0 runs two requests (2 ms a step), rank 1 one (1 ms alone): in step
  // with rank 0, rank 1's request takes as long as rank 0's.
  SglangScheduler r0(kDpLimits), r1(kDpLimits);
  std::vector<RequestOutcome> out;
  RunRanks({&r0, &r1}, 100000, ClosedLoop(3, 3, 100, 10), 1000, &out);
  ASSERT_EQ(out.size(), 3u);
  for (const RequestOutcome& o : out) EXPECT_DOUBLE_EQ(o.e2e_ms, 2.0 * 10);
  SglangScheduler alone(kDpLimits);
  std::vector<RequestOutcome> single;
  RunRanks({&alone}, 100000, ClosedLoop(1, 1, 100, 10), 1000, &single);
  EXPECT_DOUBLE_EQ(single.at(0).e2e_ms, 1.0 * 10);
}

TEST(DpAttentionTest, ARanksStepIsPerfsTimeWithEveryRankAtItsBatch) {
  // DeepSeek-V3 over 8 GPUs, DP attention 8, EP 8: perf's ForwardTime takes the
  // TP group's batch, so one rank's 64 requests are timed as 512 over the group,
  // replayed from a graph since the rank's 64 are captured (cuda_graph_runner.py
  // can_run: the largest rank's batch against max_bs), though 512 are not.
  PerfRequest req;
  req.model = LoadModel("deepseek-ai/DeepSeek-V3");
  req.gpu = FindGpu("h200");
  req.cuda_graph_max_bs = 256;
  req.par.tp = 8;
  req.par.dp = 8;
  req.par.ep = 8;
  req.par.dp_attention = true;
  BatchStepTimer t(req);
  const ModelGeometry g = MakeGeometry(req.model);
  const StepContext ctx = MakeStepContext(g, req);
  ASSERT_GE(t.largest_graphed_batch(), 64);
  ASSERT_LT(t.largest_graphed_batch(), 512);
  const StepBreakdown group = ForwardTime(ctx, {512, 1, 1032, 512, true});
  EXPECT_DOUBLE_EQ(t.StepUs({64, 64 * 1032, 0, 0, 0}), group.total_us);
  EXPECT_GT(group.comm_us, 0);
}

SimulateQuery DpQuery(const std::string& engine, std::vector<std::string> args) {
  SimulateQuery q;
  q.launch.engine = engine;
  q.launch.model = "deepseek-ai/DeepSeek-V3";
  q.launch.gpu = "h200";
  q.launch.args = std::move(args);
  q.workload = ClosedLoop(16, 32, 1024, 16);
  return q;
}

TEST(DpAttentionTest, EachRankHasThePlansPoolAndRequestLimit) {
  SimulateQuery q = DpQuery("sglang", {"--tp-size", "8", "--dp-size", "8", "--enable-dp-attention",
                                       "--ep-size", "8", "--max-running-requests", "256"});
  q.launch.version = "0.5.9";
  const SimulateResult r = Simulate(q);
  const PlanResult plan = PlanLaunch(q.launch);
  EXPECT_EQ(r.dp_ranks, 8);
  EXPECT_EQ(plan.kv_scope.pools, 8);
  EXPECT_EQ(r.kv_tokens, plan.max_total_num_tokens / r.page_size * r.page_size);
  // tokens.cc SglangRunningOf: the user's 256 over 8 ranks.
  EXPECT_EQ(r.max_running_requests, 256 / 8);
  EXPECT_EQ(r.completed, 32);
  const bool said = std::any_of(r.notes.begin(), r.notes.end(), [](const std::string& n) {
    return n.starts_with("DP attention: 8 schedulers");
  });
  EXPECT_TRUE(said);
}

// SGLang 0.5.3 forces DP attention with dp_size = tp_size for DeepSeek-V3.2 (server_args.py
// @v0.5.3, engines/sglang/dsa_overrides.h): a typed `--tp-size 8 --dp-size 2` without
// --enable-dp-attention runs 8 DP-attention schedulers, not 2 whole replicas.
TEST(DpAttentionTest, ADsaModelRunsTheDpTheEngineForces) {
  SimulateQuery q = DpQuery("sglang", {"--tp-size", "8", "--dp-size", "2"});
  q.launch.model = "deepseek-ai/DeepSeek-V3.2";
  q.launch.gpu = "b200";
  q.launch.version = "0.5.3";
  const SimulateResult r = Simulate(q);
  EXPECT_EQ(r.dp_ranks, 8);
  EXPECT_EQ(PlanLaunch(q.launch).kv_scope.pools, 8);
  EXPECT_EQ(r.completed, 32);
}

TEST(DpAttentionTest, WhatTheSimulationCannotRunIsRefusedInOneLine) {
  const std::string replicas = testing::InputErrorOf([] {
    Simulate(DpQuery("sglang", {"--tp-size", "8", "--dp-size", "2"}));
  });
  EXPECT_NE(replicas.find("--dp-size 2 without --enable-dp-attention"), std::string::npos)
      << replicas;
  const std::string lb = testing::InputErrorOf([] {
    Simulate(DpQuery("sglang", {"--tp-size", "8", "--dp-size", "8", "--enable-dp-attention",
                                "--load-balance-method", "shortest_queue"}));
  });
  EXPECT_NE(lb.find("--load-balance-method shortest_queue"), std::string::npos) << lb;
  const std::string vllm = testing::InputErrorOf([] {
    SimulateQuery q = DpQuery("vllm", {"--tensor-parallel-size", "4", "--data-parallel-size", "2",
                                       "--enable-expert-parallel"});
    q.launch.model = "Qwen/Qwen3-235B-A22B-FP8";
    Simulate(q);
  });
  EXPECT_NE(vllm.find("--data-parallel-size 2"), std::string::npos) << vllm;
  for (const std::string& e : {replicas, lb, vllm}) EXPECT_EQ(e.find('\n'), std::string::npos);
}

}  // namespace
}  // namespace kvplan
