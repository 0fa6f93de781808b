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
#include "kvplan/sim_calibration.h"
#include "kvplan/simulate.h"

namespace kvplan {

// Names as the user typed them; SearchLaunchSettings resolves and checks them.
struct TuneQuery {
  std::string model, gpu;
  std::optional<int64_t> gpu_capacity_mib;  // --gpu-capacity-mib: nvidia-smi memory.total
  std::optional<int> gpus;                  // GPUs in the node (unset: 8, declared in the output)
  std::string topology;                     // "" = the GPU's usual one
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

// Sizing a deployment under a load and an SLA (`kvplan tune --rate R
// --ttft-p90-ms X --tpot-p90-ms Y`, or `--trace FILE`): the fewest GPUs (1 to
// tune.gpus) and the best launches that meet the SLA, each simulated by
// `kvplan simulate`, and what cuda_graph_max_bs, mem_fraction_static and the
// KV dtype do to the best one under the same load.
struct SizingQuery {
  TuneQuery tune;     // model, GPU, --gpus (the most tried), engine, efficiencies
  WorkloadSpec load;  // a rate or a trace, lengths as for `kvplan simulate`
  std::optional<double> ttft_p90_ms, tpot_p90_ms;
  SimCalibrationOverrides calib;  // the simulator's factors (unset: its fitted defaults)
};

struct SizingOutcome;

// Throws InputError for unknown names, a missing load or SLA, and options that
// sizing does not take.
std::shared_ptr<const SizingOutcome> SizeDeployment(const SizingQuery& query);

// Renderers (src/report/sizing_*.cc): the winners with their launch commands
// (at most `top`) and the memory-setting table; JSON with every winner.
std::string RenderSizingText(const SizingOutcome& o, int top);
std::string RenderSizingJson(const SizingOutcome& o);

}  // namespace kvplan
