// `kvplan perf`: decode throughput and time per output token against batch
// size, time to first token against prompt length, the share of time in
// communication, and the same with speculative decoding.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "perf/speculative.h"
#include "perf/step_time.h"

namespace kvplan {

struct PerfRequest {
  ModelSpec model;
  GpuSpec gpu;
  Parallelism par;
  Topology topology = Topology::kNvswitch;
  AllreducePolicy allreduce = AllreducePolicy::kEngineDefault;
  double kv_bytes_per_elem = 2;
  int64_t context = 4096;  // tokens already in the KV cache while decoding
  // SGLang --cuda-graph-max-bs as the engine resolved it (SglangLaunchDefaultsOf when the user
  // gives none); 0: graphs disabled. Which batches replay a graph is the capture list's.
  int cuda_graph_max_bs = 256;
  int chunked_prefill_size = 8192;  // prefill chunk
  std::vector<int> batch_sizes = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  std::vector<int64_t> prompt_lengths = {128, 512, 1024, 2048, 4096, 8192, 16384, 32768};
  SpecConfig spec;                 // algorithm kNone: no speculation
  std::optional<ModelSpec> draft;  // EAGLE/EAGLE3/STANDALONE draft; unset: synthesized
  SpecEngine spec_engine = SpecEngine::kSglang;
  std::string attention_backend;  // --attention-backend ("" = the engine's default)
  std::string sglang_version;     // the SGLang release whose rules apply ("" = newest)
  Efficiency eff;
};

// A value a verb chose because the user gave none, declared in its output
// ("Assumed:" in text, `assumed` in JSON): `key` is the JSON key and, with
// dashes, the flag that sets it; `numbers` is the value unless `text` is set;
// `why` says where the value comes from.
struct Assumption {
  std::string key;
  std::vector<int64_t> numbers;
  std::string text;
  std::string unit;  // for people: "tokens", "" ...
  std::string why;
  bool list = false;  // `numbers` is a list even when it holds one value
};

// What SGLang chooses for a launch where the user sets nothing, as its
// planner resolves it (engines/sglang/stages.h: the launch, settings and
// request-pool stages `kvplan plan` runs), so that perf and plan agree on the
// same launch. `cuda_graph_max_bs` is the user's value when given.
struct SglangLaunchDefaults {
  std::string version;        // the canonical release
  int cuda_graph_max_bs = 0;  // effective: up to v0.5.2 clipped to the request pool
  std::string cuda_graph_rule;
  bool clipped_to_pool = false;
  int chunked_prefill_size = 0;  // after the DP-attention division
  std::string chunked_prefill_rule;
};
SglangLaunchDefaults SglangLaunchDefaultsOf(const PerfRequest& r,
                                            std::optional<int> cuda_graph_max_bs = {});

struct DecodeRow {
  int batch = 0;
  bool cuda_graph = true;
  double tpot_ms = 0;
  double tokens_per_s = 0;
  double comm_share = 0;
  int collectives = 0;
  // With speculation (zero when none).
  double spec_tpot_ms = 0;
  double spec_tokens_per_s = 0;
  double spec_speedup = 0;
  double spec_verify_comm_share = 0;
};

struct PrefillRow {
  int64_t prompt = 0;
  double ttft_ms = 0;
  double comm_share = 0;
};

struct PerfReport {
  std::string model_id, gpu_id, topology;
  Parallelism par;
  int64_t context = 0;
  std::string allreduce;   // how allreduces run at decode sizes, for people
  std::string spec;        // "" or e.g. "EAGLE3 steps 3 topk 1 draft tokens 4"
  SpecConfig spec_config;  // the resolved speculative settings (algorithm kNone: none)
  double accept_length = 0;
  int cuda_graph_max_bs = 0;      // the engine's setting (0: graphs disabled)
  int largest_graphed_batch = 0;  // the largest captured batch; larger batches run eagerly
  int cuda_graphs = 0;            // decode graphs SGLang captures
  int64_t cuda_graph_bytes = 0;   // their memory per rank (fitted model)
  int64_t spec_extra_bytes = 0;   // draft weights + draft graphs per rank
  int64_t spec_kv_bytes_per_token = 0;
  std::vector<DecodeRow> decode;
  std::vector<PrefillRow> prefill;
  std::vector<std::string> notes;
  std::vector<Assumption> assumed;  // filled by the caller that resolved the user's request
};

// Throws InputError for impossible requests (batch < 1, TP not dividing heads...).
PerfReport RunPerf(const PerfRequest& req);

// The StepContext of `geometry` on the request's hardware.
StepContext MakeStepContext(const ModelGeometry& geometry, const PerfRequest& req);

// An EAGLE-3-style draft when none is given: one Llama decoder layer at the
// target's hidden size (128-wide heads, 8 KV heads, the target's MLP width).
ModelSpec SyntheticEagleDraft(const ModelSpec& target);

// The geometry of the draft a speculative request runs: NextN/MTP one target
// layer (MtpDraftGeometry), else the given draft or SyntheticEagleDraft.
ModelGeometry SpecDraftGeometry(const PerfRequest& req, const ModelGeometry& target);

// Time to first token of one prompt, chunked (us).
StepBreakdown PrefillTime(const StepContext& ctx, int64_t prompt, int chunk);

}  // namespace kvplan
