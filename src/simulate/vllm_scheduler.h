// vLLM V1's scheduler as the simulation runs it: one token budget per step
// (max_num_batched_tokens) shared by running and waiting requests, at most
// max_num_seqs running, chunked prefill, and preemption by recompute of the
// newest running request when the KV blocks run out. With prefix caching
// (the pool's PrefixCache, prefix_cache.h) a waiting request starts after its
// cached full blocks, and the blocks it computes are cached as it is
// scheduled; speculative tokens take budget and lookahead KV slots.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "simulate/scheduler.h"

namespace kvplan {

struct VllmSchedulerLimits {
  int64_t max_num_batched_tokens = 8192;
  int64_t max_num_seqs = 256;
  bool chunked_prefill = true;
  // --speculative-config num_speculative_tokens (0: none). Each decoding
  // request is scheduled 1 + k tokens (the verified one and its k drafts) and
  // allocated k lookahead slots more for the next drafts.
  int64_t num_spec_tokens = 0;
};

class VllmScheduler final : public EngineScheduler {
 public:
  explicit VllmScheduler(const VllmSchedulerLimits& limits) : limits_(limits) {}
  void Schedule(SchedulerState* s, StepBatch* batch) override;
  void AfterStep(SchedulerState*, const StepBatch&) override {}

 private:
  // Returns the budget left; sets *preempted when a request was preempted.
  int64_t ScheduleRunning(SchedulerState* s, StepBatch* batch, bool* preempted);
  void ScheduleWaiting(SchedulerState* s, StepBatch* batch, int64_t budget);

  VllmSchedulerLimits limits_;
};

// The host time between two forward passes of a vLLM V1 engine that does not
// overlap scheduling with execution (async scheduling off): a fixed part and
// a part per request in the step; both 0 for a release that overlaps them.
struct VllmStepHost {
  double fixed_us = 0, per_request_us = 0;
  double Us(int64_t requests) const {
    return fixed_us + per_request_us * static_cast<double>(requests);
  }
};
// `async_flag`: --async-scheduling (true) or --no-async-scheduling (false) as given.
VllmStepHost VllmStepHostOf(const std::string& version,
                            std::optional<bool> async_flag = std::nullopt);
// Whether the launch schedules the next step while the GPU runs the current
// one (async scheduling: the flag, else the release's default); its step host
// time is then 0.
bool VllmSchedulesAhead(const std::string& version, std::optional<bool> async_flag = std::nullopt);

// The usable KV blocks of `num_gpu_blocks`: one is the null block.
// vllm/v1/core/block_pool.py BlockPool.__init__ (v0.8+): null_block = free_block_queue.popleft()
int64_t VllmUsableBlocks(int64_t num_gpu_blocks);

}  // namespace kvplan
