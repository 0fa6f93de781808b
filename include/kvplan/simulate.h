// `kvplan simulate`: a request-level serving simulation of one launch. The
// KV capacity, page size and request limits are the memory planner's for the
// same launch (PlanLaunch); the engine's scheduler (vLLM V1 or SGLang) decides
// each step's batch; each step's time is the performance model's at that
// batch's composition, speculative decoding's from its draft and verify
// passes; shared prompt prefixes hit the engine's prefix cache (SGLang's
// radix cache, vLLM's prefix caching). DP attention is not modelled (refused).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kvplan/efficiency.h"
#include "kvplan/plan.h"
#include "kvplan/sim_calibration.h"

namespace kvplan {

// Request lengths: "fixed" (always `mean`), "uniform" (mean * (1 +- spread)),
// "normal" (standard deviation spread * mean) or "lognormal" (sigma = spread,
// mean `mean`); every draw is rounded and at least 1 token.
struct LengthSpec {
  std::string dist = "fixed";
  int64_t mean = 0;
  double spread = 0;
};

// Exactly one of concurrency (closed loop, as benchmark clients run it), rate
// (open loop) or trace.
struct WorkloadSpec {
  std::optional<int> concurrency;
  std::optional<double> rate;        // requests/s
  std::string arrival = "poisson";   // poisson, constant or gamma
  double burstiness = 1.0;           // gamma shape (1 = Poisson), as vLLM's bench client
  std::optional<double> duration_s;  // rate: stop issuing after this long
  std::optional<int64_t> num_requests;
  std::string trace;  // CSV or JSONL with arrival_ms, input_tokens, output_tokens
  LengthSpec input{"fixed", 1024, 0};
  LengthSpec output{"fixed", 128, 0};
  std::optional<int64_t> seed;  // unset: 0; the same seed gives the same requests
  // Shared prefixes: each request belongs to one of `prefix_groups` groups
  // (uniformly, or in proportion to `prefix_group_weights`) whose requests
  // begin with the same `prefix_len` tokens, prepended to the drawn input (as
  // the benchmark clients' shared-prefix datasets build their prompts). With a
  // trace, `prefix_len` is the length of a group whose rows give none.
  std::optional<int64_t> prefix_len;
  std::optional<int64_t> prefix_groups;
  std::vector<double> prefix_group_weights;
  // Or: this fraction of each prompt is found in the prefix cache (rounded down
  // to the engine's page), its KV counted to the request.
  std::optional<double> prefix_hit_rate;
  bool HasPrefixes() const {
    return prefix_len.has_value() || prefix_groups.has_value() || prefix_hit_rate.has_value() ||
           !prefix_group_weights.empty();
  }
};

// The workload's shared prefixes for people (" + a shared prefix of 512 (8
// groups)", ", prefix hit rate 0.5"; "" without), as simulate and tune print them.
std::string DescribePrefixes(const WorkloadSpec& w);

// One finished request, in completion order (for --csv).
struct RequestOutcome {
  int64_t id = 0;  // issue order, from 0
  double arrival_ms = 0;
  int64_t input_tokens = 0, output_tokens = 0;
  double ttft_ms = 0, tpot_ms = 0, e2e_ms = 0;
  int preemptions = 0;
};

struct SimulateQuery {
  PlanRequest launch;  // as for `kvplan plan`: engine, release, the engine's own flags
  WorkloadSpec workload;
  Efficiency eff;
  SimCalibrationOverrides calib;  // unset: the engine's fitted defaults
  // Speculative decoding (the launch's --speculative-* flags, vLLM's
  // --speculative-config): the mean accepted tokens per step, as
  // `kvplan perf --accept-length` (unset: perf's default for the draft); SGLang's
  // spec v2 (SGLANG_ENABLE_SPEC_V2=1), which keeps the overlap scheduler on.
  std::optional<double> accept_length;
  bool spec_v2 = false;
  std::function<void(const RequestOutcome&)> on_request;  // optional
};

struct LatencyStats {
  double mean = 0, p50 = 0, p90 = 0, p99 = 0;
};

// A value the simulation chose because the user gave none, and why; `key`
// with dashes is the flag that sets it.
struct SimulateAssumed {
  std::string key, value, unit, why;
};

struct SimulateResult {
  PlanContext launch;
  std::string engine, engine_version, workload;                    // workload: for people
  int64_t kv_tokens = 0, page_size = 0, max_running_requests = 0;  // per DP rank
  int dp_ranks = 1;          // SGLang DP attention: schedulers, each with its own KV pool and limit
  int64_t token_budget = 0;  // vLLM max_num_batched_tokens; SGLang chunked_prefill_size
  LatencyStats ttft_ms, tpot_ms, itl_ms, e2e_ms;
  double req_s = 0, output_tok_s = 0, total_tok_s = 0, duration_s = 0;
  int64_t completed = 0, preemptions = 0, steps = 0;
  double peak_kv_utilization = 0;  // used / total pages, at the fullest step
  int cuda_graph_batch = 0;        // largest decode batch replayed from a CUDA graph
  std::string speculative;         // "" or e.g. "EAGLE3 steps 3 topk 1 draft tokens 4"
  double accept_length = 0;        // mean accepted tokens per step (speculative only)
  // The engine's prefix cache (SGLang's radix cache, vLLM's prefix caching) and
  // the prompt tokens it served: hit tokens / prompt tokens, over every admission.
  bool prefix_caching = false;
  bool prefix_workload = false;  // the workload has shared prefixes or a hit rate
  int64_t prefix_hit_tokens = 0, prefix_query_tokens = 0;
  double prefix_cache_hit_rate = 0;
  std::vector<SimulateAssumed> assumed;  // keys are flags of `kvplan simulate`
  std::vector<std::string> notes;        // what the simulation leaves out
};

// The launch does not start: what() is the plan's reason (the CLI exits 1).
class SimulateLaunchFails : public std::runtime_error {
 public:
  explicit SimulateLaunchFails(const std::string& why) : std::runtime_error(why) {}
};

// Throws InputError for bad input, SimulateLaunchFails for a launch that does
// not start.
SimulateResult Simulate(const SimulateQuery& query);

std::string RenderSimulateText(const SimulateResult& r);
std::string RenderSimulateJson(const SimulateResult& r);
// The CSV header and one row per request (--csv).
std::string SimulateCsvHeader();
std::string SimulateCsvRow(const RequestOutcome& o);

}  // namespace kvplan
