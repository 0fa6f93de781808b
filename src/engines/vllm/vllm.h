// vLLM's startup memory accounting, release by release (see
// ../shared/reference/vllm-trtllm-memory.md). One file per era:
// engines/vllm/eras/v0_6_0.cc (V0 engine), engines/vllm/eras/v0_8_0.cc (V1 up to 0.9.1),
// engines/vllm/eras/v0_9_2.cc (0.9.2 to 0.19), engines/vllm/eras/v0_20_0.cc (0.20 and later);
// engines/vllm/kv_spec.cc holds page sizes and KV-cache groups, engines/vllm/args.cc the flags.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/common/plan.h"

namespace kvplan {

// --speculative-config, as vLLM reads the JSON object.
struct VllmSpeculative {
  std::string method;  // "eagle", "eagle3", "mtp", "deepseek_mtp", "ngram", "draft_model", ...
  std::string model;   // draft model (EAGLE/draft methods)
  int64_t num_speculative_tokens = 1;
};

// The vLLM engine arguments that affect memory. Unset optionals are left to the
// engine's defaults, which the planner resolves per era and GPU.
struct VllmArgs {
  std::string model;
  int tp = 1, pp = 1, dp = 1;
  bool enable_expert_parallel = false;
  std::optional<double> gpu_memory_utilization;
  std::optional<int64_t> max_model_len;
  std::optional<int64_t> max_num_seqs;
  std::optional<int64_t> max_num_batched_tokens;
  std::optional<int64_t> block_size;
  std::optional<int64_t> kv_cache_memory_bytes;
  std::optional<int64_t> num_gpu_blocks_override;  // --num-gpu-blocks-override
  // VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS from the environment (0.18+; unset: on from 0.20, off
  // before).
  std::optional<bool> estimate_cudagraphs;
  std::string kv_cache_dtype = "auto";
  // Hybrid models' state dtypes (engines/vllm/hybrid.h): "auto" (the model dtype), "float32",
  // "float16" (0.14+).
  std::string mamba_cache_dtype = "auto", mamba_ssm_cache_dtype = "auto";
  std::optional<bool> enable_prefix_caching;  // --[no-]enable-prefix-caching as given
  bool enforce_eager = false;
  std::optional<bool> enable_chunked_prefill;
  bool disable_hybrid_kv_cache_manager = false;
  std::string quantization;
  std::string dtype = "auto";                  // --dtype
  std::string limit_mm_per_prompt;             // --limit-mm-per-prompt, as given
  std::string mm_encoder_tp_mode = "weights";  // --mm-encoder-tp-mode
  std::optional<VllmSpeculative> speculative;
  std::optional<bool> use_v1;  // VLLM_USE_V1=0/1 given in the pasted command
  // VLLM_FUSED_MOE_CHUNK_SIZE and VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING, read at 0.17.x only
  // (estimates.h VllmFusedMoeWorkspaceTokens).
  std::optional<int64_t> fused_moe_chunk_size;
  std::optional<bool> fused_moe_chunking;
  bool allow_long_max_model_len = false;   // VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 given
  double swap_space_gib = 4;               // V0 CPU blocks
  std::vector<std::string> user_flags;     // the flags the user gave (first names)
  std::vector<std::string> unknown_flags;  // accepted but not modelled
  // What an older release's parser standing in for this one could not check (the first line
  // names it); each is one of the plan's warnings.
  std::vector<std::string> flag_notes;
};

// Parses vLLM's own flags (`vllm serve MODEL ...` or `--model MODEL ...`).
// A leading "vllm" / "serve" is skipped; "VLLM_USE_V1=0|1" and
// "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1" are read as the environment. Throws InputError on bad values.
// With the `release` whose parser data/flags/ holds, a flag vLLM would refuse is refused.
VllmArgs ParseVllmArgs(const std::vector<std::string>& argv, const std::string& release = "");

// Terms read from a log (bytes). When present they replace kvplan's estimates.
struct VllmMeasured {
  std::optional<int64_t> total;            // total_gpu_memory
  std::optional<int64_t> weights;          // "Model loading took" / "model weights take"
  std::optional<int64_t> activation_peak;  // torch peak increase
  std::optional<int64_t> non_torch;        // non-torch memory
  std::optional<int64_t> cuda_graph;       // CUDA-graph memory (estimate or capture)
  std::optional<int64_t> peak_torch;       // V0 0.6 one-line log: weights + activations
  std::optional<int64_t> available_kv;     // "Available KV cache memory" / kv_cache_size
  std::optional<int64_t> pre_load_free;    // free memory at start-up
};

// Reads PlanRequest::measured_gib keys: total, weights, activation_peak,
// non_torch, cuda_graph, peak_torch, kv_cache, pre_load_free.
VllmMeasured VllmMeasuredFromGiB(const std::map<std::string, double>& gib);

// Plans one vLLM launch. `version` "" means the newest modelled release.
// `draft` is the speculative draft model when the method needs one.
PlanResult PlanVllm(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                    const VllmArgs& args, const VllmMeasured& measured,
                    const ModelSpec* draft = nullptr);

// The modelled vLLM releases, oldest first (one or more per era).
std::vector<std::string> VllmVersions();

// The engine-neutral entry point: parses req.args with the engine's own flag
// names, loads the model and GPU, and plans (engines/vllm/request.cc).
PlanResult PlanVllmRequest(const PlanRequest& req);

}  // namespace kvplan
