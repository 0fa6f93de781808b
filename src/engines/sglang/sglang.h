// SGLang's startup memory accounting, release by release (see
// docs and ../shared/reference/sglang-memory.md). Eras live in
// engines/sglang/eras/v0_4_6.cc, engines/sglang/eras/v0_4_7.cc, engines/sglang/eras/v0_5_3.cc and
// engines/sglang/eras/v0_5_7.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/common/plan.h"

namespace kvplan {

// The SGLang server arguments that affect memory. Unset optionals are left to
// the engine's own defaults, which the planner resolves per era.
struct SglangArgs {
  std::string model_path;
  int tp = 1, pp = 1, dp = 1, ep = 1;  // validated ranges, small
  bool enable_dp_attention = false;
  // server_args.py (0.4.9+) --enable-dp-lm-head: lm_head split over the attention-TP group.
  bool enable_dp_lm_head = false;
  // server_args.py (0.5.6+) --mm-enable-dp-encoder: every rank holds the whole vision tower.
  bool mm_enable_dp_encoder = false;
  std::optional<double> mem_fraction_static;
  std::string kv_cache_dtype = "auto";
  std::optional<int64_t> page_size;
  std::optional<int64_t> context_length;
  std::optional<int64_t> max_running_requests;
  std::optional<int64_t> max_total_tokens;
  std::optional<int64_t> chunked_prefill_size;
  std::optional<int64_t> max_prefill_tokens;
  std::optional<int64_t> cuda_graph_max_bs;
  bool disable_cuda_graph = false;
  std::optional<bool> piecewise_cuda_graph;  // unset: the era's default
  std::string quantization;
  std::string dtype = "auto";         // --dtype
  std::string speculative_algorithm;  // "", "EAGLE", "EAGLE3", "NEXTN", "STANDALONE", "NGRAM"
  std::string speculative_draft_model_path;
  std::optional<int64_t> speculative_num_steps;
  std::optional<int64_t> speculative_eagle_topk;
  std::optional<int64_t> speculative_num_draft_tokens;
  std::optional<double> swa_full_tokens_ratio;
  // Hybrid (mamba / linear-attention) state pool: server_args.py @v0.5.5.
  std::optional<int64_t> max_mamba_cache_size;    // request state slots
  std::optional<double> mamba_full_memory_ratio;  // state : KV memory, default 0.9
  std::string mamba_ssm_dtype;                    // "" = float32
  bool disable_radix_cache = false;
  std::string attention_backend;
  std::vector<std::string> unknown_flags;  // accepted by the parser, not modelled
  // What an older release's parser standing in for this one could not check (the first line
  // names it); each is one of the plan's warnings.
  std::vector<std::string> flag_notes;
  // SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1 given in the pasted command.
  bool allow_overwrite_longer_context_len = false;
};

// Parses SGLang's own flags (as sglang.launch_server takes them);
// "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1" is read as the environment.
// Throws InputError on unknown flags, bad values and conflicts. With the
// `release` whose parser data/flags/ holds, a flag SGLang would refuse is refused.
SglangArgs ParseSglangArgs(const std::vector<std::string>& argv, const std::string& release = "");

// How SGLang `release` ("" for main) spells `flag`, one of kvplan's suggested flags
// (engines/common/suggested_flags.h): from 0.5.14 --cuda-graph-max-bs is
// --cuda-graph-max-bs-decode. A release without a table uses the nearest older one.
std::string SglangFlagToWrite(const std::string& release, std::string_view flag);

// The prefill graphs' switch as `release` spells it, with its value: from 0.5.14, whose table
// registers --cuda-graph-backend-prefill (and no --enable-piecewise-cuda-graph), that flag with
// tc_piecewise/disabled; before, --enable-piecewise-cuda-graph on/off (before 0.5.6 no release
// has either flag: no piecewise graphs, the row says off).
std::pair<std::string, std::string> SglangPrefillGraphSetting(const std::string& release, bool on);

// What the engine measures at start-up, when the user has it from a log.
struct SglangMeasured {
  std::optional<int64_t> pre_load_free_bytes;   // min over ranks, after distributed init
  std::optional<int64_t> post_load_free_bytes;  // min over ranks, after weights load
  std::optional<int64_t> gpu_capacity_mib;      // nvidia-smi memory.total (min over GPUs)
};

// What to compute beyond the numbers. A search over many launches (kvplan
// tune) turns both off: the formula texts and the re-planned fixes cost far
// more than the arithmetic.
struct SglangPlanOptions {
  bool explain = true;  // fill settings, stages, memory slices and warnings
  bool fixes = true;    // re-plan to find fixes
};

// Plans one SGLang launch. `version` "" means the newest modelled release.
// `draft` is the speculative draft model when one is given.
PlanResult PlanSglang(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const SglangArgs& args, const SglangMeasured& measured,
                      const ModelSpec* draft = nullptr, const SglangPlanOptions& opts = {});

// The decode batch sizes SGLang `version` ("" = newest) captures CUDA graphs
// for (the era's rule, engines/sglang/capture.cc and eras/*), on GPUs of
// `gpu_mem_mib` (nvidia-smi capacity; 0 unknown). Empty with graphs disabled.
std::vector<int64_t> SglangDecodeCaptureList(const std::string& version, const ModelSpec& model,
                                             int64_t gpu_mem_mib, const SglangArgs& args);

// The modelled SGLang releases, oldest first, e.g. "0.4.6", ..., "2026.8".
std::vector<std::string> SglangVersions();

// The engine-neutral entry point: parses req.args with the engine's own flag
// names, loads the model and GPU, and plans (engines/sglang/request.cc).
PlanResult PlanSglangRequest(const PlanRequest& req);

}  // namespace kvplan
