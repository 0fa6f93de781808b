// SGLang's scheduler as the simulation runs it: a step is either a prefill
// batch (new requests and the one chunked request, admitted against the KV
// left after reserving the running requests' future tokens at the new-token
// ratio) or a decode batch of every running request; when a decode step
// finds too little KV it retracts requests to recompute later. With
// --scheduler-recv-interval N the scheduler takes new requests from its socket
// only every N decode steps (at once after any other step). With the radix
// cache (the pool's PrefixCache, prefix_cache.h) a request starts after its
// cached prefix, each prefill's tokens enter the cache after its step, and
// --schedule-policy lpm orders the queue by cached prefix (sglang_radix.h).
// The overlap scheduler, mixed chunks and the ignore-EOS admission path are
// not modelled.
#pragma once

#include <cstdint>
#include <vector>

#include "simulate/scheduler.h"

namespace kvplan {

struct SglangSchedulerLimits {
  int64_t max_running_requests = 2048;
  int64_t chunked_prefill_size = 8192;  // <= 0: prompts are not chunked
  // python/sglang/srt/server_args.py (v0.4-v0.5): max_prefill_tokens default 16384
  int64_t max_prefill_tokens = 16384;
  // server_args.py (v0.4-v0.5): schedule_conservativeness default 1.0
  double schedule_conservativeness = 1.0;
  // server_args.py (v0.5): scheduler_recv_interval default 1 (poll every iteration)
  int64_t scheduler_recv_interval = 1;
  // The KV tokens a decoding request needs free for one step: 1, or with
  // speculation scheduler.py's decode_mem_cache_buf_multiplier (v0.5:
  // speculative_num_draft_tokens + speculative_eagle_topk * speculative_num_steps),
  // held during the step and given back, but for the accepted tokens, after it.
  int64_t decode_reserve_tokens = 1;
  // --schedule-policy lpm with the radix cache on (server_args.py default: fcfs).
  bool longest_prefix_first = false;
};

class SglangScheduler final : public EngineScheduler {
 public:
  explicit SglangScheduler(const SglangSchedulerLimits& limits);
  void Schedule(SchedulerState* s, StepBatch* batch) override;
  void AfterStep(SchedulerState* s, const StepBatch& batch) override;

  double new_token_ratio() const { return new_token_ratio_; }

 private:
  bool SchedulePrefill(SchedulerState* s, StepBatch* batch);
  void ScheduleDecode(SchedulerState* s, StepBatch* batch);
  void Retract(SchedulerState* s);
  bool SkipperLetsReceive();
  bool Receive(SchedulerState* s) const;

  SglangSchedulerLimits limits_;
  double init_ratio_ = 0, min_ratio_ = 0, decay_ = 0, new_token_ratio_ = 0;
  SimRequest* chunked_ = nullptr;      // the request whose prompt is part done
  std::vector<SimRequest*> admitted_;  // this prefill step's whole prompts
  bool prefill_step_ = false, retracted_ = false;
  bool last_step_decoded_ = false;  // the previous step was a decode batch
  int64_t recv_counter_ = 0;
};

}  // namespace kvplan
