// The event loop: requests arrive (or, closed loop, are issued as others
// finish), reach the engine's scheduler (at once, or for an engine that
// schedules one step ahead, from the step after the next), the scheduler picks
// each step's batch, the step takes the
// performance model's time for that batch, and every token is timed. Only the
// requests in the system are held: memory is bounded by the concurrency (or,
// open loop, by the requests waiting), not by the number of requests.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "kvplan/simulate.h"
#include "simulate/batch_step_time.h"
#include "simulate/scheduler.h"
#include "simulate/workload.h"

namespace kvplan {

struct SimulatorSetup {
  KvPool kv;  // free_pages == total_pages at the start
  // The most tokens (input + output) one request may hold: the KV capacity, or
  // the context length when smaller. A request over it is an InputError.
  int64_t max_request_tokens = 0;
  EngineScheduler* scheduler = nullptr;
  // SGLang DP attention: one scheduler per DP rank, each over a pool of its own like `kv`
  // (empty: `scheduler` alone). Requests go to the ranks round robin in the order they are
  // sent; every step runs all ranks together (the MoE layers gather every rank's tokens; a
  // rank with nothing to run runs an idle batch) and takes its slowest rank's time.
  std::vector<EngineScheduler*> dp_ranks;
  // Each step's time in microseconds (BatchStepTimer::StepUs in a simulation).
  std::function<double(const BatchShape&)> step_us;
  Workload* workload = nullptr;
  std::function<void(const RequestOutcome&)> on_request;  // optional
  // The engine picks each step's batch while the previous step runs (SGLang's
  // overlap scheduler, vLLM's async scheduling): a request that reaches it
  // after a step has started can join, at the earliest, the step after the
  // next one. An idle engine takes a request at once either way.
  bool schedules_ahead = false;
  // From a request's sending to the scheduler seeing it (SimCalibration::admission_us).
  double admission_us = 0;
  // Speculative decoding: the tokens a decoding request gains in one step
  // (AcceptSampler::Draw), capped at what it has left to generate; unset: 1.
  // The scheduler must have reserved KV for the most a step can accept.
  std::function<int64_t()> accepted_tokens;
  // The engine's prefix cache is on (SGLang's radix cache, vLLM's prefix
  // caching): the pool gets a PrefixCache (prefix_cache.h).
  bool prefix_caching = false;
};

// Runs the workload to its end; fills the latency, throughput, count and
// prefix-cache fields of `out`.
void RunSimulation(const SimulatorSetup& setup, SimulateResult* out);

}  // namespace kvplan
