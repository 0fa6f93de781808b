// The performance model of one launch, asked in the CLI's terms: decode
// tokens/s and time per output token against batch size, time to first token
// against prompt length, the communication share, and speculative decoding.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kvplan/efficiency.h"

namespace kvplan {

// The KV-cache context perf and tune assume per request when --context is not given
// (printed under "Assumed:"): a common chat-serving length, not any engine's default.
inline constexpr int64_t kDefaultContextTokens = 4096;

// Names as the user typed them; PredictPerf resolves and checks them.
struct PerfQuery {
  std::string model, gpu;
  std::optional<int64_t> gpu_capacity_mib;  // --gpu-capacity-mib: nvidia-smi memory.total
  // NAME[@VERSION] as for `kvplan plan` (SplitEngineSpec): sglang (the newest
  // modelled release by default) or vllm (its speculative schedule).
  std::string engine = "sglang";
  std::string topology;            // "" = the GPU's usual one
  std::string allreduce = "auto";  // "auto", "nccl" or "custom"
  std::string kv_dtype = "auto";   // SGLang --kv-cache-dtype
  int tp = 1, pp = 1, dp = 1, ep = 1;
  bool dp_attention = false;
  std::optional<int64_t>
      context;                   // tokens in each request's KV cache (unset: kDefaultContextTokens)
  std::vector<int> batch_sizes;  // empty: the model's default sweep
  std::vector<int64_t> prompt_lengths;   // empty: the model's default sweep
  std::optional<int> cuda_graph_max_bs;  // unset: the engine's default for the launch
  bool disable_cuda_graph = false;
  std::optional<int> chunked_prefill_size;  // unset: the engine's default for the launch
  std::string spec_algo, draft_path;        // --speculative-algorithm, draft model
  std::optional<int> spec_steps, spec_topk, spec_draft_tokens;
  std::optional<double> accept_length;
  bool spec_v2 = false;           // SGLANG_ENABLE_SPEC_V2=1
  std::string attention_backend;  // SGLang --attention-backend ("" = the engine's choice)
  Efficiency eff;
};

// The result: defined by the performance model (it holds catalog types that
// are not part of this interface); read it through kvplan/render.h.
struct PerfReport;

// Throws InputError for unknown names and impossible requests.
std::shared_ptr<const PerfReport> PredictPerf(const PerfQuery& query);

}  // namespace kvplan
