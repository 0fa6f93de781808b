// The requests a simulation serves, in arrival order: a closed loop at a fixed
// concurrency, an open loop at a rate (Poisson, constant or gamma arrivals),
// or a trace file. Lengths are fixed, drawn from a distribution, or the
// trace's. Requests are generated one at a time, so memory does not grow with
// their number; a trace is streamed line by line.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kvplan/simulate.h"
#include "simulate/rng.h"

namespace kvplan {

struct ArrivingRequest {
  double arrival_us = 0;  // closed loop: 0 (the simulator issues it on a completion)
  int64_t input_tokens = 0, output_tokens = 0;
  // Its first `prefix_len` input tokens are those of every request of
  // `prefix_group` (-1: none); or `hit_tokens` of its input are found cached.
  int64_t prefix_group = -1, prefix_len = 0, hit_tokens = 0;
};

class TraceReader;

class Workload {
 public:
  // Throws InputError for an impossible spec or an unreadable or bad trace.
  explicit Workload(const WorkloadSpec& spec);
  ~Workload();
  Workload(const Workload&) = delete;
  Workload& operator=(const Workload&) = delete;

  bool ClosedLoop() const { return spec_.concurrency.has_value(); }
  int Concurrency() const { return spec_.concurrency.value_or(0); }
  // The next request; nullopt once the workload has issued all. A trace's bad
  // line throws InputError naming the file and line.
  std::optional<ArrivingRequest> Next();
  // For people: "concurrency 16, 1,000 requests, input 1024, output 128".
  std::string Describe() const;
  // Whether requests share prefixes or carry a hit rate (a trace: once a row
  // named a group).
  bool HasPrefixes() const;

 private:
  int64_t DrawLength(const LengthSpec& s);
  double NextGapUs();
  void AddPrefix(ArrivingRequest* r);

  WorkloadSpec spec_;
  SimRng rng_;
  int64_t issued_ = 0;
  double clock_us_ = 0;
  std::unique_ptr<TraceReader> trace_;
  std::vector<double> group_cdf_;  // --prefix-group-weights, cumulative and normalised
  bool trace_prefixes_ = false;
};

// One length draw from `s` (exposed for the generator's tests).
int64_t DrawLength(const LengthSpec& s, SimRng* rng);

}  // namespace kvplan
