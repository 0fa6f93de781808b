#include "simulate/vllm_scheduler.h"

#include <algorithm>

#include "engines/vllm/release.h"
#include "simulate/prefix_cache.h"

namespace kvplan {
namespace {

// Without async scheduling the GPU waits while the engine core turns the last
// step's sampled tokens into outputs, schedules and prepares the next step.
// Two public figures bound it: ~2.2 ms at batch 1 (tenstorrent/tt-inference-
// server#340: Qwen3-1.7B on one A100, TPOT 4.6 ms where the weights and
// kernels take ~2.4 ms) and 5-6 ms at batch 256 (vllm#10634, V1, Llama-2-7B:
// "the gap between the two decodes"), i.e. a fixed part and ~13 us per request.
constexpr double kVllmStepHostFixedUs = 2200;
constexpr double kVllmStepHostPerRequestUs = 13;

}  // namespace

bool VllmSchedulesAhead(const std::string& version, std::optional<bool> async_flag) {
  // vllm/engine/arg_utils.py --async-scheduling: default False at v0.10.1.1 and v0.11.0
  // (data/flags/vllm/); vllm#27614 (vllm#27679's async scheduling plan) makes it None, on when
  // supported, from v0.14: scheduling then runs while the GPU executes.
  return async_flag.value_or(ParseVllmRelease(version).AtLeast(0, 14));
}

VllmStepHost VllmStepHostOf(const std::string& version, std::optional<bool> async_flag) {
  if (VllmSchedulesAhead(version, async_flag)) return {};
  return {kVllmStepHostFixedUs, kVllmStepHostPerRequestUs};
}

int64_t VllmUsableBlocks(int64_t num_gpu_blocks) {
  return std::max<int64_t>(0, num_gpu_blocks - 1);
}

int64_t VllmScheduler::ScheduleRunning(SchedulerState* s, StepBatch* batch, bool* preempted) {
  // vllm/v1/core/sched/scheduler.py schedule() @00024d31: token_budget = max_num_scheduled_tokens
  int64_t budget = limits_.max_num_batched_tokens;
  // scheduler.py schedule() @00024d31: "First, schedule the RUNNING requests", in order, while
  // budget
  for (size_t i = 0; i < s->running.size() && budget > 0; ++i) {
    SimRequest* r = s->running[i];
    // scheduler.py @00024d31: num_new_tokens = num_tokens_with_spec - num_computed_tokens, min
    // budget
    const int64_t want = std::min(r->Known() - r->computed, budget);
    if (want <= 0) continue;
    // scheduler.py @00024d31: a decode's num_tokens_with_spec adds its spec_token_ids
    // (num_spec_tokens), and allocate_slots(..., num_lookahead_tokens=self.num_lookahead_tokens)
    // reserves num_spec_tokens more for EAGLE and draft models
    const bool spec = limits_.num_spec_tokens > 0 && want == 1 && r->generated > 0;
    const int64_t cost = spec ? std::min(1 + limits_.num_spec_tokens, budget) : want;
    const int64_t slots = spec ? 1 + 2 * limits_.num_spec_tokens : want;
    bool scheduled = true;
    // kv_cache_manager.allocate_slots returns None when blocks run out; then
    // scheduler.py @00024d31 (FCFS): preempted_req = self.running.pop(), until this one fits
    while (!s->kv.Grow(r, r->computed + slots)) {
      SimRequest* victim = s->running.back();
      s->running.pop_back();
      s->Requeue(victim);
      *preempted = true;
      if (victim == r) {
        scheduled = false;
        break;
      }
    }
    // scheduler.py @00024d31: "if new_blocks is None: break" (the request was preempted itself)
    if (!scheduled) break;
    // kv_cache_manager.py allocate_slots (v0.9+): cache_blocks for the tokens this step computes
    CachePrefix(&s->kv, r, r->computed + want);
    batch->entries.push_back({r, want});
    budget -= cost;
  }
  return budget;
}

void VllmScheduler::ScheduleWaiting(SchedulerState* s, StepBatch* batch, int64_t budget) {
  while (!s->waiting.empty() && budget > 0) {
    // scheduler.py @00024d31: "if len(self.running) == self.max_num_running_reqs: break"
    if (static_cast<int64_t>(s->running.size()) >= limits_.max_num_seqs) break;
    SimRequest* r = s->waiting.front();
    // scheduler.py @00024d31: a request with num_computed_tokens == 0 starts after
    // kv_cache_manager.get_computed_blocks (prefix caching on)
    const PrefixHit hit = TakeCachedPrefix(&s->kv, r);
    int64_t want = r->Known() - r->computed;
    // scheduler.py @00024d31: without chunked prefill a prompt over the budget waits;
    // allocate_slots None for a waiting request -> break (no preemption)
    const bool fits = limits_.chunked_prefill || want <= budget;
    want = std::min(want, budget);
    if (!fits || !s->kv.Grow(r, r->computed + want)) {
      ReturnCachedPrefix(&s->kv, r);
      break;
    }
    CountPrefixHit(&s->kv, *r, hit);
    CachePrefix(&s->kv, r, r->computed + want);
    s->waiting.pop_front();
    s->running.push_back(r);
    batch->entries.push_back({r, want});
    budget -= want;
  }
}

void VllmScheduler::Schedule(SchedulerState* s, StepBatch* batch) {
  batch->Clear();
  bool preempted = false;
  const int64_t budget = ScheduleRunning(s, batch, &preempted);
  // scheduler.py @00024d31: "Next, schedule the WAITING requests" only "if not preempted_reqs"
  if (!preempted) ScheduleWaiting(s, batch, budget);
}

}  // namespace kvplan
