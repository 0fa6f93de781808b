// The prefix caches from first principles: the second request of a group
// prefills only what its cached whole pages (SGLang) or full blocks (vLLM)
// leave; a shared prefix's pages are counted once while requests hold them;
// unreferenced pages are evicted least recently used first when the pool runs
// out; a hit rate of 0, or the cache off, gives the numbers of a workload
// without prefixes exactly.
#include "simulate/prefix_cache.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "kvplan/simulate.h"
#include "simulate/sglang_radix.h"
#include "simulate/sglang_scheduler.h"
#include "simulate/simulator.h"
#include "simulate/vllm_scheduler.h"
#include "testing/cli_test_util.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

// One simulation on a pool of `pages` x `page_tokens`, recording each step's
// prefill tokens and KV pages in use.
struct PrefixRun {
  SimulateResult result;
  std::vector<int64_t> prefill_tokens;
};

PrefixRun RunWithCache(EngineScheduler* scheduler, int64_t pages, int64_t page_tokens,
                       const WorkloadSpec& spec, bool caching) {
  Workload w(spec);
  PrefixRun run;
  SimulatorSetup setup;
  setup.kv = {pages, page_tokens, pages};
  setup.max_request_tokens = pages * page_tokens;
  setup.scheduler = scheduler;
  setup.step_us = [&run](const BatchShape& b) {
    if (b.prefill > 0) run.prefill_tokens.push_back(b.prefill_tokens);
    return 1000.0;
  };
  setup.workload = &w;
  setup.prefix_caching = caching;
  RunSimulation(setup, &run.result);
  return run;
}

// Requests one after another (concurrency 1), each a 100-token prefix of
// group 0 before a 50-token question.
WorkloadSpec OneGroup(int64_t requests, int64_t prefix = 100) {
  WorkloadSpec s;
  s.concurrency = 1;
  s.num_requests = requests;
  s.input = {"fixed", 50, 0};
  s.output = {"fixed", 4, 0};
  s.prefix_len = prefix;
  s.prefix_groups = 1;
  return s;
}

TEST(PrefixCacheTest, VllmSecondRequestPrefillsOnlyPastTheCachedFullBlocks) {
  // Block 16: the 100-token prefix fills 6 blocks (96 tokens); the 150-token
  // prompt of the second request computes 150 - 96 = 54.
  VllmScheduler s({8192, 256, true});
  const PrefixRun run = RunWithCache(&s, 1000, 16, OneGroup(2), true);
  ASSERT_EQ(run.prefill_tokens.size(), 2u);
  EXPECT_EQ(run.prefill_tokens[0], 150);
  EXPECT_EQ(run.prefill_tokens[1], 54);
  EXPECT_EQ(run.result.prefix_hit_tokens, 96);
  EXPECT_EQ(run.result.prefix_query_tokens, 300);
  EXPECT_DOUBLE_EQ(run.result.prefix_cache_hit_rate, 96.0 / 300.0);
}

TEST(PrefixCacheTest, SglangSecondRequestPrefillsOnlyPastTheCachedPages) {
  // Page 1 (SGLang's default): all 100 prefix tokens hit, 50 computed; page
  // 16: as vLLM's blocks, 54.
  for (const auto& [page, computed] : {std::pair<int64_t, int64_t>{1, 50}, {16, 54}}) {
    SglangScheduler s(SglangSchedulerLimits{});
    const PrefixRun run = RunWithCache(&s, 16000 / page, page, OneGroup(2), true);
    ASSERT_EQ(run.prefill_tokens.size(), 2u) << page;
    EXPECT_EQ(run.prefill_tokens[0], 150) << page;
    EXPECT_EQ(run.prefill_tokens[1], computed) << page;
  }
}

TEST(PrefixCacheTest, AOneTokenQuestionAfterACachedPrefixComputesOneToken) {
  // A 99-token prefix and a 1-token question, page 1: the second request hits
  // all 99 prefix tokens and computes the last token alone. Were the question
  // part of the prefix too, the engines would still leave it (input_len - 1).
  WorkloadSpec w = OneGroup(2);
  w.input = {"fixed", 1, 0};
  w.prefix_len = 99;
  SglangScheduler s(SglangSchedulerLimits{});
  const PrefixRun run = RunWithCache(&s, 1000, 1, w, true);
  ASSERT_EQ(run.prefill_tokens.size(), 2u);
  EXPECT_EQ(run.prefill_tokens[1], 1);
}

TEST(PrefixCacheTest, TheCacheOffComputesEveryPrompt) {
  VllmScheduler s({8192, 256, true});
  const PrefixRun run = RunWithCache(&s, 1000, 16, OneGroup(3), false);
  EXPECT_EQ(run.prefill_tokens, (std::vector<int64_t>{150, 150, 150}));
  EXPECT_EQ(run.result.prefix_hit_tokens, 0);
  EXPECT_FALSE(run.result.prefix_caching);
}

// A request of `group` that computed `prompt` tokens, `prefix` of them its group's.
SimRequest* Computed(KvPool* kv, SimRequest* r, int64_t group, int64_t prefix, int64_t prompt) {
  r->prompt = prompt;
  r->prefix_group = group;
  r->prefix_len = prefix;
  EXPECT_TRUE(kv->Grow(r, prompt));
  r->computed = prompt;
  CachePrefix(kv, r, prompt);
  return r;
}

TEST(PrefixCacheTest, ASharedPrefixIsCountedOnceWhileRequestsHoldIt) {
  // Page 1, prefix 60. a computes its 80-token prompt (60 enter the cache);
  // b then takes the cached 60 and 20 pages of its own: 60 + 20 + 20 pages.
  KvPool kv{1000, 1, 1000};
  PrefixCache cache(1);
  kv.cache = &cache;
  SimRequest a, b;
  for (SimRequest* r : {&a, &b}) {
    r->prompt = 80;
    r->prefix_group = 0;
    r->prefix_len = 60;
  }
  ASSERT_TRUE(kv.Grow(&a, 80));
  a.computed = 80;
  CachePrefix(&kv, &a, 80);
  EXPECT_EQ(cache.cached_pages(), 60);
  const PrefixHit hit = TakeCachedPrefix(&kv, &b);
  EXPECT_EQ(hit.tokens, 60);
  EXPECT_EQ(hit.locked_pages, 0);  // a holds them: they were not evictable
  ASSERT_TRUE(kv.Grow(&b, 80));
  EXPECT_EQ(kv.total_pages - kv.AvailablePages(), 100);
  // a ends: the prefix stays referenced by b; a's own 20 computed pages stay
  // cached, unmatched and evictable: available again, not free.
  kv.Release(&a);
  EXPECT_EQ(kv.AvailablePages(), 1000 - 80);
  EXPECT_EQ(kv.free_pages, 1000 - 100);
  EXPECT_EQ(cache.evictable_pages(), 20);
  // b ends: the 60 cached pages become evictable; b computed none of its own
  // 20 (it was never run), so they are free.
  kv.Release(&b);
  EXPECT_EQ(cache.evictable_pages(), 80);
  EXPECT_EQ(kv.AvailablePages(), 1000);
}

TEST(PrefixCacheTest, AnEndedRequestsOwnPagesAreEvictedInTheSameLruOrderAsPrefixes) {
  // Pool of 100 pages, page 1. u (no group) computes 30 tokens and ends; then
  // group 0's 40-page prefix is released: u's pages are older, so a request
  // needing 40 pages with 30 free evicts 10 of u's, none of the prefix.
  KvPool kv{100, 1, 100};
  PrefixCache cache(1);
  kv.cache = &cache;
  SimRequest u, a, c, probe;
  kv.Release(Computed(&kv, &u, -1, 0, 30));
  kv.Release(Computed(&kv, &a, 0, 40, 40));
  EXPECT_EQ(kv.free_pages, 30);
  EXPECT_EQ(cache.evictable_pages(), 70);
  c.prompt = 40;
  ASSERT_TRUE(kv.Grow(&c, 40));
  probe.prompt = 100;
  probe.prefix_group = 0;
  probe.prefix_len = 40;
  EXPECT_EQ(cache.MatchPages(probe), 40);
  EXPECT_EQ(cache.evictable_pages(), 60);
  // Another 30: u's last 20, then 10 from the end of the prefix.
  SimRequest d;
  d.prompt = 30;
  ASSERT_TRUE(kv.Grow(&d, 30));
  EXPECT_EQ(cache.MatchPages(probe), 30);
}

TEST(PrefixCacheTest, EvictionTakesTheLeastRecentlyUsedGroupFromItsEnd) {
  // Pool of 100 pages. Groups 0 and 1 each leave a 40-page prefix cached, 0
  // used first. A request needing 30 more pages than the 20 free evicts 10
  // pages from the end of group 0's chain; group 1 is untouched.
  KvPool kv{100, 1, 100};
  PrefixCache cache(1);
  kv.cache = &cache;
  SimRequest a, b, c, probe0, probe1;
  kv.Release(Computed(&kv, &a, 0, 40, 40));
  kv.Release(Computed(&kv, &b, 1, 40, 40));
  EXPECT_EQ(kv.free_pages, 20);
  EXPECT_EQ(cache.evictable_pages(), 80);
  c.prompt = 30;
  ASSERT_TRUE(kv.Grow(&c, 30));
  EXPECT_EQ(cache.cached_pages(), 70);
  for (SimRequest* p : {&probe0, &probe1}) {
    p->prompt = 100;
    p->prefix_len = 40;
  }
  probe0.prefix_group = 0;
  probe1.prefix_group = 1;
  EXPECT_EQ(cache.MatchPages(probe0), 30);
  EXPECT_EQ(cache.MatchPages(probe1), 40);
  // A referenced prefix is never evicted: with group 1 held, a request that
  // needs more than the free and group 0's pages does not fit.
  EXPECT_EQ(TakeCachedPrefix(&kv, &probe1).locked_pages, 40);
  SimRequest big;
  big.prompt = 61;
  EXPECT_FALSE(kv.Grow(&big, 61));
  EXPECT_TRUE(kv.Grow(&big, 30));
  EXPECT_EQ(cache.MatchPages(probe0), 0);
}

TEST(PrefixCacheTest, EvictionUnderASmallPoolLowersTheHitRate) {
  // Eight groups of 200-token prefixes on a pool of 1,000 tokens: a group's
  // prefix is evicted before its next request (the pool holds 4 of them),
  // against 16,000 tokens where every prefix stays.
  WorkloadSpec w = OneGroup(64, 200);
  w.prefix_groups = 8;
  w.seed = 3;
  SglangScheduler small_s(SglangSchedulerLimits{}), large_s(SglangSchedulerLimits{});
  const PrefixRun small = RunWithCache(&small_s, 1000, 1, w, true);
  const PrefixRun large = RunWithCache(&large_s, 16000, 1, w, true);
  EXPECT_EQ(small.result.completed, 64);
  EXPECT_LT(small.result.prefix_hit_tokens, large.result.prefix_hit_tokens);
  // Large pool: every request but each group's first hits its 200 tokens.
  EXPECT_EQ(large.result.prefix_hit_tokens % 200, 0);
  EXPECT_GE(large.result.prefix_hit_tokens, (64 - 8) * 200);
}

TEST(PrefixCacheTest, LongestPrefixFirstPutsTheCachedGroupFirstAndDefersItsSiblings) {
  // Group 0 holds 64 cached tokens; the queue is [g1, g0, g1]: lpm admits g0
  // first; the second g1 shares a 64-token prefix with the first, whose match
  // is short, so it goes last.
  KvPool kv{1000, 1, 1000};
  PrefixCache cache(1);
  kv.cache = &cache;
  SimRequest seed;
  kv.Release(Computed(&kv, &seed, 0, 64, 64));
  SchedulerState s;
  s.kv = kv;
  SimRequest q[3];
  const int64_t groups[3] = {1, 0, 1};
  for (int i = 0; i < 3; ++i) {
    q[i].id = i;
    q[i].prompt = 100;
    q[i].prefix_group = groups[i];
    q[i].prefix_len = 64;
    q[i].received = true;
    s.waiting.push_back(&q[i]);
  }
  SortByLongestPrefix(&s);
  EXPECT_EQ(s.waiting[0]->id, 1);
  EXPECT_EQ(s.waiting[1]->id, 0);
  EXPECT_EQ(s.waiting[2]->id, 2);
}

TEST(PrefixCacheTest, AHitRateOfZeroAndTheCacheOffGiveTheNumbersWithoutPrefixes) {
  WorkloadSpec plain;
  plain.rate = 400;
  plain.num_requests = 300;
  plain.input = {"uniform", 600, 0.5};
  plain.output = {"uniform", 120, 0.5};
  plain.seed = 11;
  WorkloadSpec zero = plain;
  zero.prefix_hit_rate = 0.0;
  for (int engine = 0; engine < 2; ++engine) {
    std::vector<SimulateResult> results;
    for (const auto& [w, caching] : {std::pair{plain, false}, {plain, true}, {zero, true}}) {
      VllmScheduler v({2048, 64, true});
      SglangScheduler g(SglangSchedulerLimits{});
      EngineScheduler* s = engine == 0 ? static_cast<EngineScheduler*>(&v) : &g;
      results.push_back(RunWithCache(s, 300, 16, w, caching).result);
    }
    for (const SimulateResult& r : results) {
      EXPECT_EQ(r.steps, results[0].steps) << engine;
      EXPECT_EQ(r.preemptions, results[0].preemptions) << engine;
      EXPECT_DOUBLE_EQ(r.e2e_ms.mean, results[0].e2e_ms.mean) << engine;
      EXPECT_DOUBLE_EQ(r.ttft_ms.p99, results[0].ttft_ms.p99) << engine;
      EXPECT_DOUBLE_EQ(r.peak_kv_utilization, results[0].peak_kv_utilization) << engine;
      EXPECT_EQ(r.prefix_hit_tokens, 0);
    }
    // The pool is small enough for the KV to matter.
    EXPECT_GT(engine == 0 ? results[0].preemptions : results[0].peak_kv_utilization, 0.5);
  }
}

TEST(PrefixCacheTest, AHitRateSkipsThatShareOfEachPromptInWholePages) {
  // Hit rate 0.5 of a 150-token prompt: 75 tokens, 4 blocks of 16 = 64.
  WorkloadSpec w;
  w.concurrency = 1;
  w.num_requests = 2;
  w.input = {"fixed", 150, 0};
  w.output = {"fixed", 4, 0};
  w.prefix_hit_rate = 0.5;
  VllmScheduler s({8192, 256, true});
  const PrefixRun run = RunWithCache(&s, 1000, 16, w, true);
  EXPECT_EQ(run.prefill_tokens, (std::vector<int64_t>{150 - 64, 150 - 64}));
}

TEST(PrefixCacheTest, TheCliReportsTheHitRateInTextAndJson) {
  // One at a time, one group: a 160-token prefix (10 blocks of 16) before 40
  // tokens; the second and third requests hit 160 of 200: 320 / 600.
  const std::vector<std::string> args = {"simulate",
                                         "--model",
                                         "meta-llama/Llama-3.1-8B-Instruct",
                                         "--gpu",
                                         "h100",
                                         "--engine",
                                         "vllm@0.15.1",
                                         "--concurrency",
                                         "1",
                                         "--num-requests",
                                         "3",
                                         "--input-len",
                                         "40",
                                         "--output-len",
                                         "8",
                                         "--prefix-len",
                                         "160",
                                         "--prefix-groups",
                                         "1"};
  std::vector<std::string> json_args = args;
  json_args.push_back("--json");
  const testing::CliResult j = testing::RunKvplan(json_args);
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const nlohmann::json out = nlohmann::json::parse(j.out);
  EXPECT_DOUBLE_EQ(out["prefix_cache_hit_rate"].get<double>(), 320.0 / 600.0);
  EXPECT_EQ(out["prefix_cache_hit_tokens"], 320);
  EXPECT_TRUE(out["prefix_caching"].get<bool>());
  const testing::CliResult t = testing::RunKvplan(args);
  EXPECT_NE(t.out.find("Prefix cache: 53.3 % of prompt tokens hit (320 of 600"), std::string::npos)
      << t.out;
  std::vector<std::string> off = json_args;
  off.push_back("--no-enable-prefix-caching");
  const nlohmann::json none = nlohmann::json::parse(testing::RunKvplan(off).out);
  EXPECT_EQ(none["prefix_cache_hit_rate"], 0.0);
  EXPECT_FALSE(none["prefix_caching"].get<bool>());
}

}  // namespace
}  // namespace kvplan
