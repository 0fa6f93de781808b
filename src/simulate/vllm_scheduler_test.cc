// vLLM V1's scheduler from first principles: admission by prompt blocks and
// max_num_seqs, the token budget, and preemption exactly when a running
// request's next block is not there.
#include "simulate/vllm_scheduler.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "simulate/scheduler_test_util.h"

namespace kvplan {
namespace {

using testing::ClosedLoop;
using testing::RecordingScheduler;
using testing::RunOnPool;

TEST(VllmSchedulerTest, PreemptsExactlyWhenTheNextBlockIsMissing) {
  // 100 blocks of 16 tokens; prompts of 160 tokens take 10 blocks each.
  // Ten requests fill the pool with their prompts; the 161st token of each
  // needs an 11th block, so the first decode step preempts.
  VllmScheduler inner({8192, 256, true});
  RecordingScheduler rec(&inner);
  const SimulateResult r = RunOnPool(&rec, 100, 16, ClosedLoop(10, 10, 160, 40));
  ASSERT_GE(rec.steps.size(), 2u);
  EXPECT_EQ(rec.steps[0].batch, 10);
  EXPECT_EQ(rec.steps[0].used_pages, 100);
  EXPECT_GT(rec.steps[1].preemptions_after, rec.steps[1].preemptions_before);
  EXPECT_EQ(r.completed, 10);
  for (const testing::StepRecord& s : rec.steps) {
    const bool preempted = s.preemptions_after > s.preemptions_before;
    // A preemption happens if and only if the running requests' next blocks
    // exceed the free ones.
    EXPECT_EQ(preempted, s.pages_needed_before > s.free_pages_before);
    EXPECT_LE(s.used_pages, 100);
  }
}

TEST(VllmSchedulerTest, NineRequestsFirstPreemptWhenTheirTwelfthBlocksRunOut) {
  // Nine prompts hold 90 blocks; 10 are free. At token 161 each needs an
  // 11th block (9 of 10 free: no preemption); at token 177 each needs a 12th
  // and 1 is free: the first preemption is at step 1 + 16 + 1 (0-based 17).
  VllmScheduler inner({8192, 256, true});
  RecordingScheduler rec(&inner);
  RunOnPool(&rec, 100, 16, ClosedLoop(9, 9, 160, 40));
  size_t first = 0;
  while (first < rec.steps.size() &&
         rec.steps[first].preemptions_after == rec.steps[first].preemptions_before) {
    ++first;
  }
  EXPECT_EQ(first, 17u);
}

TEST(VllmSchedulerTest, TheTokenBudgetAndMaxNumSeqsBoundEachStep) {
  // Budget 1,000 tokens: prompts of 300 are admitted three whole and one
  // chunk of 100 per step; max_num_seqs 5 caps the running set.
  VllmScheduler inner({1000, 5, true});
  RecordingScheduler rec(&inner);
  const SimulateResult r = RunOnPool(&rec, 10000, 16, ClosedLoop(8, 40, 300, 20));
  EXPECT_EQ(rec.steps[0].batch, 4);  // 300 + 300 + 300 + 100
  for (const testing::StepRecord& s : rec.steps) EXPECT_LE(s.running, 5);
  EXPECT_EQ(r.completed, 40);
  EXPECT_EQ(r.preemptions, 0);
}

TEST(VllmSchedulerTest, OneNullBlockIsNotUsable) {
  EXPECT_EQ(VllmUsableBlocks(27103), 27102);
  EXPECT_EQ(VllmUsableBlocks(0), 0);
}

// Without async scheduling (before v0.14) the GPU waits for the engine core
// between steps: a fixed part and a part per request; from v0.14 the
// scheduling overlaps the forward pass and the gap is gone.
TEST(VllmSchedulerTest, HostGapBetweenStepsOnlyWithoutAsyncScheduling) {
  const VllmStepHost old = VllmStepHostOf("0.12.0");
  EXPECT_DOUBLE_EQ(old.Us(1), 2200 + 13);
  EXPECT_DOUBLE_EQ(old.Us(256) - old.Us(1), 255 * 13);
  EXPECT_GT(old.Us(256), 5000);  // vllm#10634: 5-6 ms between decodes at batch 256
  EXPECT_LT(old.Us(256), 6000);
  EXPECT_EQ(VllmStepHostOf("0.14.0").Us(256), 0);
  EXPECT_EQ(VllmStepHostOf("0.19.0").Us(1), 0);
}

// --async-scheduling (0.10.1.1 and 0.11.0: default off) and --no-async-scheduling
// (0.14+: default on) override the release's default, and so the host gap.
TEST(VllmSchedulerTest, TheAsyncSchedulingFlagsOverrideTheReleasesDefault) {
  EXPECT_TRUE(VllmSchedulesAhead("0.11.0", true));
  EXPECT_EQ(VllmStepHostOf("0.11.0", true).Us(64), 0);
  EXPECT_FALSE(VllmSchedulesAhead("0.19.0", false));
  EXPECT_DOUBLE_EQ(VllmStepHostOf("0.19.0", false).Us(1), 2200 + 13);
}

// One request at a time: each decode step is the forward pass plus, without
// async scheduling, the host gap for one request (2.213 ms), so the TPOT with
// the flag is exactly that much shorter.
TEST(VllmSchedulerTest, AsyncSchedulingRemovesTheHostGapFromEachDecodeStep) {
  SimulateQuery q;
  q.launch.engine = "vllm";
  q.launch.version = "0.11.0";
  q.launch.model = "meta-llama/Llama-3.1-8B-Instruct";
  q.launch.gpu = "h100";
  q.workload = ClosedLoop(1, 3, 512, 64);
  q.calib = {1.0, 0.0, 0.0};
  const SimulateResult off = Simulate(q);
  q.launch.args = {"--async-scheduling"};
  const SimulateResult on = Simulate(q);
  EXPECT_NEAR(off.tpot_ms.mean - on.tpot_ms.mean, 2.213, 1e-6);
  q.launch.version = "0.8.5";  // its parser has no --async-scheduling
  EXPECT_THROW(Simulate(q), InputError);
}

// With --speculative-config num_speculative_tokens 3, a decoding request is
// scheduled 1 + 3 tokens of the budget and allocated slots for them and 3
// lookahead tokens more (scheduler.py num_lookahead_tokens): 156 cached
// tokens + 7 need 11 blocks of 16 (+ 1: 10); two decodes spend 8 tokens of an 8-token
// budget, so a waiting prompt gets none (without speculation it gets 6).
TEST(VllmSchedulerTest, SpeculativeDecodesTakeBudgetAndLookaheadSlots) {
  for (int64_t k : {0, 3}) {
    VllmSchedulerLimits l{8, 256, true};
    l.num_spec_tokens = k;
    VllmScheduler sched(l);
    SchedulerState s;
    s.kv = {100, 16, 100};
    SimRequest a, b, c;
    for (SimRequest* r : {&a, &b}) {
      r->prompt = 156;
      r->output = 10;
      r->generated = 1;
      r->computed = 156;
      ASSERT_TRUE(s.kv.Grow(r, 157));
      s.running.push_back(r);
    }
    c.prompt = 100;
    c.output = 10;
    s.waiting.push_back(&c);
    StepBatch batch;
    sched.Schedule(&s, &batch);
    EXPECT_EQ(a.pages, k == 0 ? 10 : 11);
    EXPECT_EQ(batch.entries.size(), k == 0 ? 3u : 2u) << k;
    if (k == 0) {
      EXPECT_EQ(batch.entries[2].new_tokens, 6);
    }
  }
}

}  // namespace
}  // namespace kvplan
