// For the scheduler tests: a simulation on a small KV pool with a constant
// step time, and a scheduler wrapper that records the state at every step.
#pragma once

#include <functional>
#include <vector>

#include "simulate/simulator.h"

namespace kvplan::testing {

struct StepRecord {
  int64_t running = 0, waiting = 0, free_pages_before = 0, pages_needed_before = 0;
  int64_t preemptions_before = 0, preemptions_after = 0, batch = 0, used_pages = 0;
};

// Delegates to `inner`, recording each step.
class RecordingScheduler final : public EngineScheduler {
 public:
  explicit RecordingScheduler(EngineScheduler* inner) : inner_(inner) {}
  void Schedule(SchedulerState* s, StepBatch* batch) override {
    StepRecord r;
    r.free_pages_before = s->kv.free_pages;
    // Pages the running requests need for their next token.
    for (const SimRequest* q : s->running) {
      r.pages_needed_before += s->kv.PagesFor(q->Known()) - q->pages;
    }
    r.preemptions_before = s->preemptions;
    inner_->Schedule(s, batch);
    r.preemptions_after = s->preemptions;
    r.running = static_cast<int64_t>(s->running.size());
    r.waiting = static_cast<int64_t>(s->waiting.size());
    r.batch = static_cast<int64_t>(batch->entries.size());
    r.used_pages = s->kv.total_pages - s->kv.free_pages;
    steps.push_back(r);
  }
  void AfterStep(SchedulerState* s, const StepBatch& batch) override {
    inner_->AfterStep(s, batch);
  }
  std::vector<StepRecord> steps;

 private:
  EngineScheduler* inner_;
};

inline SimulateResult RunOnPool(EngineScheduler* scheduler, int64_t pages, int64_t page_tokens,
                                const WorkloadSpec& spec, double step_us = 1000,
                                std::function<void(const RequestOutcome&)> on_request = {},
                                bool schedules_ahead = false) {
  Workload w(spec);
  SimulatorSetup setup;
  setup.kv = {pages, page_tokens, pages};
  setup.max_request_tokens = pages * page_tokens;
  setup.scheduler = scheduler;
  setup.step_us = [step_us](const BatchShape&) { return step_us; };
  setup.workload = &w;
  setup.on_request = std::move(on_request);
  setup.schedules_ahead = schedules_ahead;
  SimulateResult out;
  RunSimulation(setup, &out);
  return out;
}

inline WorkloadSpec ClosedLoop(int concurrency, int64_t n, int64_t in, int64_t out) {
  WorkloadSpec s;
  s.concurrency = concurrency;
  s.num_requests = n;
  s.input = {"fixed", in, 0};
  s.output = {"fixed", out, 0};
  return s;
}

}  // namespace kvplan::testing
