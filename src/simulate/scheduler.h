// What the engines' schedulers share in the simulation: a request's progress,
// the paged KV pool, the batch of one step, and the interface each engine's
// scheduler implements (vllm_scheduler.h, sglang_scheduler.h).
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

namespace kvplan {

struct SimRequest {
  int64_t id = 0;
  double arrival_us = 0;
  double seen_us = 0;              // when it reaches the engine (arrival + admission latency)
  int64_t prompt = 0, output = 0;  // the request's input tokens; tokens it will generate
  int64_t computed = 0;            // tokens whose KV is in the cache
  int64_t generated = 0;           // output tokens so far
  int64_t pages = 0;               // KV pages (vLLM blocks) held, its cached prefix's included
  // Shared prefixes (workload.h ArrivingRequest): the group, its prefix tokens;
  // or the tokens a --prefix-hit-rate finds cached. `shared_pages` of `pages`
  // belong to the prefix cache (prefix_cache.h), referenced while it runs.
  int64_t prefix_group = -1, prefix_len = 0, hit_tokens = 0;
  int64_t shared_pages = 0;
  double first_token_us = -1, last_token_us = 0;
  int preemptions = 0;
  int rank = 0;       // the DP rank whose scheduler and KV pool hold it (SimulatorSetup::dp_ranks)
  bool done = false;  // generated == output
  // The engine's scheduler has taken it from its input socket (SGLang's
  // --scheduler-recv-interval delays that; every other scheduler receives at once).
  bool received = false;
  // Tokens the engine knows (prompt and output so far): a step that brings
  // `computed` up to this samples the next token.
  int64_t Known() const { return prompt + generated; }
};

class PrefixCache;

// The engine's KV cache in pages of `page_tokens` tokens (vLLM: blocks).
// With a prefix cache, the pages it holds that no running request uses are
// evictable: they count as available, and Grow evicts them when the free ones
// run out.
struct KvPool {
  int64_t total_pages = 0;
  int64_t page_tokens = 1;
  int64_t free_pages = 0;
  PrefixCache* cache = nullptr;  // null: prefix caching off

  int64_t PagesFor(int64_t tokens) const { return (tokens + page_tokens - 1) / page_tokens; }
  // Free and evictable pages (SGLang: available_size + evictable_size; vLLM:
  // the free block queue, cached blocks included).
  int64_t AvailablePages() const;
  int64_t FreeTokens() const { return AvailablePages() * page_tokens; }
  // Grows `r` to hold `tokens` tokens; false (and nothing taken) when the
  // pool has too few free pages.
  bool Grow(SimRequest* r, int64_t tokens);
  void Release(SimRequest* r);
  // Frees `r`'s pages beyond those `tokens` tokens need.
  void Trim(SimRequest* r, int64_t tokens);
};

struct BatchEntry {
  SimRequest* request = nullptr;
  int64_t new_tokens = 0;
};

// One step: each entry computes `new_tokens` of its request's known tokens.
struct StepBatch {
  std::vector<BatchEntry> entries;
  void Clear() { entries.clear(); }
};

struct SchedulerState {
  std::deque<SimRequest*> waiting;  // FCFS; preempted requests go back to the front
  std::vector<SimRequest*> running;
  KvPool kv;
  int64_t preemptions = 0;  // vLLM preemptions / SGLang retractions

  // Frees `r`'s KV and queues it to recompute (vLLM preemption by recompute,
  // SGLang retraction): prompt and output so far are prefilled again.
  void Requeue(SimRequest* r);
};

class EngineScheduler {
 public:
  virtual ~EngineScheduler() = default;
  // Fills `batch` for the next step from `s`; an empty batch means nothing
  // can run until a request arrives.
  virtual void Schedule(SchedulerState* s, StepBatch* batch) = 0;
  // After the step ran and its tokens were counted; the simulator then takes
  // the finished requests out of `s->running`.
  virtual void AfterStep(SchedulerState* s, const StepBatch& batch) = 0;
};

}  // namespace kvplan
