// SGLang's scheduler from first principles: a new request reserves its whole
// prompt and output (plus a page), so a pool of N tokens admits
// floor(N / (L + page)) requests of L tokens at once; prefill and decode are
// separate steps; a decode step that finds too little KV retracts.
#include "simulate/sglang_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

#include "simulate/scheduler_test_util.h"

namespace kvplan {
namespace {

using testing::ClosedLoop;
using testing::RecordingScheduler;
using testing::RunOnPool;

TEST(SglangSchedulerTest, AdmitsFloorOfCapacityOverRequestTokens) {
  // 10,000 tokens, requests of 900 + 100: each reserves 1,001 tokens.
  SglangScheduler inner({2048, 8192, 16384, 1.0});
  RecordingScheduler rec(&inner);
  const SimulateResult r = RunOnPool(&rec, 10000, 1, ClosedLoop(20, 20, 900, 100));
  EXPECT_EQ(rec.steps[0].batch, 10000 / 1001);
  EXPECT_EQ(r.completed, 20);
  EXPECT_EQ(r.preemptions, 0);
}

TEST(SglangSchedulerTest, PrefillAndDecodeAreSeparateSteps) {
  // A waiting request that fits is prefilled alone in its step: the running
  // requests do not decode in it.
  SglangScheduler inner({2048, 8192, 16384, 1.0});
  RecordingScheduler rec(&inner);
  RunOnPool(&rec, 100000, 1, ClosedLoop(2, 6, 100, 50));
  // Step 0 prefills both; each later step is all-decode (batch 2) or a
  // prefill of the one request issued when another finished (batch 1).
  EXPECT_EQ(rec.steps[0].batch, 2);
  for (size_t i = 1; i < rec.steps.size(); ++i) EXPECT_LE(rec.steps[i].batch, 2);
}

TEST(SglangSchedulerTest, AChunkedPromptJoinsTheRunningBatchWhenAnotherStartsChunking) {
  // Chunks of 1,000 tokens, prompts of 300: every prefill step ends with a
  // new chunked request while the previous one finishes; all complete.
  SglangScheduler inner({2048, 1000, 16384, 1.0});
  RecordingScheduler rec(&inner);
  const SimulateResult r = RunOnPool(&rec, 100000, 1, ClosedLoop(10, 50, 300, 20));
  EXPECT_EQ(r.completed, 50);
  EXPECT_EQ(rec.steps[0].batch, 4);  // 300 + 300 + 300 + a chunk of 100
  EXPECT_EQ(rec.steps[1].batch, 4);  // its last 200 + 300 + 300 + a chunk of 200
}

TEST(SglangSchedulerTest, MaxRunningRequestsCapsTheBatch) {
  SglangScheduler inner({3, 8192, 16384, 1.0});
  RecordingScheduler rec(&inner);
  RunOnPool(&rec, 100000, 1, ClosedLoop(10, 30, 100, 20));
  for (const testing::StepRecord& s : rec.steps) EXPECT_LE(s.running, 3);
}

TEST(SglangSchedulerTest, RetractsOnlyWhenTheNextDecodeTokenDoesNotFit) {
  // Long outputs on a small pool: the new-token ratio decays from 0.7 to
  // 0.098, admission over-commits, and decode runs out of KV.
  SglangScheduler inner({2048, 8192, 16384, 1.0});
  RecordingScheduler rec(&inner);
  const SimulateResult r = RunOnPool(&rec, 4000, 1, ClosedLoop(40, 60, 100, 1000));
  EXPECT_GT(r.preemptions, 0);
  EXPECT_EQ(r.completed, 60);
  for (const testing::StepRecord& s : rec.steps) {
    if (s.preemptions_after > s.preemptions_before) {
      EXPECT_GT(s.pages_needed_before, s.free_pages_before);
    }
    EXPECT_LE(s.used_pages, 4000);
  }
}

TEST(SglangSchedulerTest, TheNewTokenRatioDecaysToItsFloorOverDecodeSteps) {
  SglangScheduler s({2048, 8192, 16384, 1.0});
  EXPECT_DOUBLE_EQ(s.new_token_ratio(), 0.7);
  // 100 decode steps: 0.7 - 100 * (0.7 - 0.098) / 600.
  RunOnPool(&s, 100000, 1, ClosedLoop(1, 1, 10, 101));
  EXPECT_NEAR(s.new_token_ratio(), 0.7 - 100 * (0.7 - 0.098) / 600, 1e-12);
  // Past 600 decode steps it stays at init * 0.14.
  RunOnPool(&s, 100000, 1, ClosedLoop(1, 1, 10, 700));
  EXPECT_NEAR(s.new_token_ratio(), 0.7 * 0.14, 1e-12);
}

// --scheduler-recv-interval 10: a request that arrives while others decode
// waits in the socket until ten decode steps have run since the scheduler last
// received (a prefill step resets the count), then prefills. Steps of 1 ms:
// request 0 arrives at 0 and prefills in [0, 1]; it receives after that
// prefill, so request 1 (arriving at 2.5 ms) is taken at 11 ms, after the ten
// decode steps [1, 11], and its first token comes at 12 ms.
TEST(SglangSchedulerTest, RecvIntervalHoldsArrivalsForThatManyDecodeSteps) {
  WorkloadSpec w;
  w.rate = 400;  // one request every 2.5 ms
  w.arrival = "constant";
  w.num_requests = 2;
  w.input = {"fixed", 10, 0};
  w.output = {"fixed", 100, 0};
  for (const int64_t interval : {1, 10}) {
    SglangScheduler s({2048, 8192, 16384, 1.0, interval});
    std::vector<double> ttft(2);
    RunOnPool(&s, 100000, 1, w, 1000, [&](const RequestOutcome& o) { ttft[o.id] = o.ttft_ms; });
    EXPECT_DOUBLE_EQ(ttft[0], 1.0);
    EXPECT_DOUBLE_EQ(ttft[1], interval == 1 ? 4.0 - 2.5 : 12.0 - 2.5) << interval;
  }
}

// With nothing running the idle loop receives at once: a closed loop of one
// request at a time sees no delay whatever the interval.
TEST(SglangSchedulerTest, AnIdleSchedulerReceivesAtOnce) {
  SglangScheduler s({2048, 8192, 16384, 1.0, 30});
  std::vector<double> ttft;
  RunOnPool(&s, 100000, 1, ClosedLoop(1, 3, 10, 50), 1000,
            [&](const RequestOutcome& o) { ttft.push_back(o.ttft_ms); });
  ASSERT_EQ(ttft.size(), 3u);
  for (double t : ttft) EXPECT_DOUBLE_EQ(t, 1.0);
}

// With EAGLE-3 (3 steps, top-k 1, 4 draft tokens) a decode step needs
// 4 + 1 x 3 = 7 free tokens per request (scheduler.py
// decode_mem_cache_buf_multiplier) and gives back, after the step, all but
// the accepted ones: on pages of 1 token a request of 100 cached tokens holds
// 107 during the step and 103 after accepting 3.
TEST(SglangSchedulerTest, SpeculativeDecodeReservesTheDraftTokensAndGivesTheRejectedBack) {
  SglangSchedulerLimits l{2048, 8192, 16384, 1.0};
  l.decode_reserve_tokens = 7;
  SglangScheduler sched(l);
  SchedulerState s;
  s.kv = {1000, 1, 1000};
  SimRequest r;
  r.prompt = 100;
  r.output = 50;
  r.generated = 1;
  r.computed = 100;
  r.received = true;
  ASSERT_TRUE(s.kv.Grow(&r, 100));
  s.running.push_back(&r);
  StepBatch batch;
  sched.Schedule(&s, &batch);
  ASSERT_EQ(batch.entries.size(), 1u);
  EXPECT_EQ(r.pages, 107);
  r.computed += 3;  // the verified token and two accepted drafts
  r.generated += 3;
  sched.AfterStep(&s, batch);
  EXPECT_EQ(r.pages, 103);
  EXPECT_EQ(s.kv.free_pages, 1000 - 103);
}

}  // namespace
}  // namespace kvplan
