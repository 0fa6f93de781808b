// The search over SGLang launch settings (TP/PP/DP replicas, EP, DP attention,
// mem_fraction_static, cuda_graph_max_bs, KV dtype, chunked prefill,
// speculative settings) under latency and concurrency limits, asked in the
// CLI's terms.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "kvplan/efficiency.h"

namespace kvplan {

// Names as the user typed them; SearchLaunchSettings resolves and checks them.
struct TuneQuery {
  std::string model, gpu;
  std::optional<int> gpus;  // GPUs in the node (unset: 8, declared in the output)
  std::string topology;     // "" = the GPU's usual one
  std::optional<int64_t>
      context;  // tokens per request (prompt + output) in the KV cache (kDefaultContextTokens)
  int64_t prompt = 0;       // prompt length for TTFT (0: context / 2)
  int64_t concurrency = 0;  // requests that must run at once (0: as many as fit)
  std::optional<double> ttft_ms, tpot_ms;
  std::string draft;  // EAGLE-3 draft model ("" = none)
  std::optional<double> accept_length;
  std::string engine = "sglang";  // sglang[@VERSION] (SplitEngineSpec; default: newest modelled)
  std::string attention_backend;  // for every candidate ("" = SGLang's choice)
  bool spec_v2 = false;           // SGLANG_ENABLE_SPEC_V2=1 for speculative candidates
  int threads = 0;                // 0: all cores
  Efficiency eff;
};

// The result: the resolved request, the grid searched and the ranked list and
// Pareto front; read it through kvplan/render.h.
struct TuneOutcome;

// (done, total), called from the calling thread a few times a second.
using TuneProgress = std::function<void(int64_t, int64_t)>;

// Throws InputError for unknown names and impossible limits.
std::shared_ptr<const TuneOutcome> SearchLaunchSettings(const TuneQuery& query,
                                                        const TuneProgress& progress = {});

}  // namespace kvplan
