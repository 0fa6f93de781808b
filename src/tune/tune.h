// `kvplan tune`: a search over SGLang launch settings (TP/PP/DP replicas,
// EP, DP attention, mem_fraction_static, cuda_graph_max_bs, KV dtype, chunked
// prefill, speculative settings) under latency and concurrency constraints.
// Memory comes from the SGLang planner (PlanSglang with the candidate's
// flags); time from the step-time model. Returns a ranked list and the
// Pareto front of throughput against time per output token.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "perf/efficiency.h"
#include "perf/speculative.h"
#include "perf/topology.h"

namespace kvplan {

struct TuneRequest {
  ModelSpec model;
  GpuSpec gpu;
  int gpus = 8;
  Topology topology = Topology::kNvswitch;
  int64_t context = 4096;   // tokens per request (prompt + output) held in the KV cache
  int64_t prompt = 0;       // prompt length for TTFT (0: context / 2)
  int64_t concurrency = 0;  // requests that must fit at once (0: as many as fit)
  std::optional<double> ttft_ms, tpot_ms;
  std::optional<ModelSpec> draft;  // EAGLE-3 draft; MTP models search NEXTN without one
  std::string draft_path;          // for the launch command
  std::optional<double> accept_length;
  std::string sglang_version;     // "" newest
  std::string attention_backend;  // --attention-backend for every candidate ("" = SGLang's)
  bool sglang_spec_v2 = false;    // SGLANG_ENABLE_SPEC_V2=1 for speculative candidates
  int threads = 0;                // 0: hardware concurrency
  Efficiency eff;
};

// One candidate; plain data so that evaluation allocates nothing.
struct TuneCandidate {
  int tp = 1, pp = 1, replicas = 1, ep = 1;
  bool dp_attention = false;
  double mfs = 0;  // 0: SGLang's automatic value
  int cuda_graph_max_bs = 0;
  bool kv_fp8 = false;
  int chunked_prefill = 0;
  int spec = 0;  // index into TuneSpace::specs (0 = none)
};

enum class TuneVerdict : uint8_t {
  kOk,
  kPlannerError,   // the engine would refuse to start (weights, rest memory, tokens)
  kSlackTooSmall,  // CUDA graphs + activations do not fit pre x (1 - mfs)
  kConcurrency,    // the KV cache cannot hold the requested concurrency
  kLatency,        // misses --ttft-ms or --tpot-ms
};

struct TuneResult {
  TuneCandidate c;
  TuneVerdict verdict = TuneVerdict::kOk;
  double mfs = 0;  // resolved
  int64_t kv_tokens = 0;
  int64_t max_running = 0;
  double batch = 0;  // concurrent requests in the whole deployment
  double tokens_per_s = 0;
  double tpot_ms = 0;
  double ttft_ms = 0;
};

struct TuneSpec {
  SpecAlgorithm algorithm = SpecAlgorithm::kNone;
  int steps = 0, topk = 1, draft_tokens = 0;
};

// The grid searched; built from the request (model kind, GPU count, draft).
struct TuneSpace {
  std::vector<TuneCandidate> layouts;  // tp/pp/replicas/ep/dp_attention only
  std::vector<double> mfs;             // 0 = automatic
  std::vector<int> cuda_graph_max_bs;
  std::vector<bool> kv_fp8;
  std::vector<int> chunked_prefill;
  std::vector<TuneSpec> specs;  // [0] = none
  int64_t Size() const;
};
TuneSpace MakeTuneSpace(const TuneRequest& req);

struct TuneReport {
  std::vector<TuneResult> ranked;  // feasible and within the constraints, best first
  std::vector<TuneResult> pareto;  // throughput vs TPOT front, by TPOT
  int64_t evaluated = 0;
  int64_t feasible = 0;
  double seconds = 0;
  std::vector<std::string> notes;
};

// Every candidate of `s` with its verdict and figures, in grid order (the
// search RunTune ranks), on `req.threads` threads.
std::vector<TuneResult> EvaluateTuneGrid(
    const TuneRequest& req, const TuneSpace& s,
    const std::function<void(int64_t, int64_t)>& progress = {});

// Runs the search on `threads` threads; `progress` (may be empty) is called
// from the calling thread with (done, total) a few times a second.
TuneReport RunTune(const TuneRequest& req,
                   const std::function<void(int64_t, int64_t)>& progress = {});

// The SGLang flags that launch `c` (--model-path first), each spelled as the planned release
// spells it: the one owner of a candidate's launch, which LaunchCommand prints and sizing
// simulates.
std::vector<std::string> LaunchFlags(const TuneRequest& req, const TuneSpace& space,
                                     const TuneCandidate& c);
// The command that launches `r`.
std::string LaunchCommand(const TuneRequest& req, const TuneSpace& space, const TuneResult& r);
const char* TuneVerdictName(TuneVerdict v);

}  // namespace kvplan
