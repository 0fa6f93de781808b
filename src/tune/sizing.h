// `kvplan tune` under a load and an SLA: the fewest GPUs and the best launch
// that serve a rate (or a trace) within p90 TTFT and TPOT limits. The launch
// search (RunTune's grid) proposes launches and checks their memory; each
// surviving candidate is served the load by `kvplan simulate` (the one
// simulator, through kvplan/simulate.h), cheapest GPU count first, stopping
// at the first count where some launch meets the SLA.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kvplan/simulate.h"
#include "tune/tune.h"

namespace kvplan {

struct SizingRequest {
  TuneRequest tune;                // model, GPU, the largest GPU count tried (tune.gpus), release
  std::string model_arg, gpu_arg;  // the names as given, for the simulator's PlanRequest
  std::optional<int64_t> gpu_capacity_mib;  // --gpu-capacity-mib, for the same
  WorkloadSpec load;                        // a rate or a trace; its num_requests resolved
  std::optional<double> ttft_p90_ms, tpot_p90_ms;
  SimCalibrationOverrides calib;
};

// What the simulator gave for one launch under the load, for the whole
// deployment (replicas each serve 1/replicas of the rate).
struct SizingFigures {
  bool starts = true;
  std::string why;  // !starts: the plan's reason
  double ttft_p90_ms = 0, tpot_p90_ms = 0, e2e_p90_ms = 0;
  double req_s = 0, output_tok_s = 0;
  double goodput_req_s = 0;  // requests meeting the SLA, per second
  int64_t kv_tokens = 0, completed = 0, preemptions = 0;
  bool meets = false;  // p90 TTFT and p90 TPOT within the SLA
};

struct SizedLaunch {
  TuneResult candidate;  // the search's row (layout and memory settings)
  int gpus = 0;
  std::string command;
  SizingFigures figures;
};

// One GPU count tried: how many launches were simulated and how many met the SLA.
struct SizingCount {
  int gpus = 0;
  int64_t proposed = 0, simulated = 0, met = 0;
};

// The best launch again with one memory setting changed.
struct SizingVariant {
  std::string setting, value;  // e.g. "cuda_graph_max_bs", "128"
  bool is_winner = false;      // the winner's own value
  SizingFigures figures;
};

// The winner's launch with and without speculative decoding, each served a
// closed loop of `concurrency` requests (the load's lengths).
struct SpecPoint {
  int concurrency = 0;
  double plain_tok_s = 0, spec_tok_s = 0;      // output tokens per second
  double plain_tpot_ms = 0, spec_tpot_ms = 0;  // mean
};
struct SpecBreakEven {
  std::string speculative;  // the settings compared, e.g. "EAGLE3 steps 3 topk 1 draft tokens 4"
  std::vector<SpecPoint> points;
  // The lowest concurrency tried at which speculation gives no more output
  // tokens per second than plain decoding; 0: it pays at every one tried.
  int stops_paying_at = 0;
  std::string why_not;  // set when nothing was compared (no draft, the launch does not start)
};

struct SizingReport {
  std::vector<SizingCount> counts;      // in the order tried
  int gpus = 0;                         // the winners' GPU count; 0: none meets the SLA
  std::vector<SizedLaunch> winners;     // at `gpus`, best first (goodput, then latency)
  std::vector<SizingVariant> variants;  // on winners[0]
  SpecBreakEven spec;                   // on winners[0]
  std::vector<std::string> notes;
};

// Throws InputError for bad input (the search's and the simulator's).
SizingReport RunSizing(const SizingRequest& req);

}  // namespace kvplan
