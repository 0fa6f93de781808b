// Planning one launch: which engine and release, the engine's own flags, and
// what the user measured (PlanRequest); the engine's startup memory
// accounting, stage by stage, with the verdict and the fixes (PlanResult).
// Plain data, engine-neutral: every engine planner returns a PlanResult.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvplan {

// One effective setting of the launch and where its value came from.
struct Setting {
  std::string flag;   // the engine's flag name, e.g. "--mem-fraction-static"
  std::string value;  // as the engine would print it
  bool user = false;  // true: given by the user; false: chosen by the engine
  std::string rule;   // for engine-chosen values: which rule chose it
};

// One step of the memory accounting, in the engine's order.
struct Stage {
  std::string name;     // e.g. "rest_memory"
  std::string formula;  // the engine's formula with the numbers filled in
  int64_t bytes = 0;    // the result (may be negative)
  std::string source;   // engine file and release the rule mirrors
  std::string value;    // for stages that are not byte counts: "48,128 B/token"
};

// Where one GPU's memory goes (the bar), largest first is not required.
struct MemorySlice {
  std::string label;  // "weights", "kv cache", "cuda graphs + activations", ...
  int64_t bytes = 0;
};

// A change to the launch found by re-planning, and what it does.
struct Fix {
  std::string flag;    // e.g. "--mem-fraction-static"
  std::string value;   // e.g. "0.88"
  std::string effect;  // e.g. "starts; rest_memory 10.42 GiB, 76,544 KV tokens"
};

// An engine-specific figure (num_gpu_blocks, max_concurrency, k_size_gib ...).
struct Figure {
  std::string key;
  double value = 0;
  std::string text;  // set instead of value for non-numeric figures
};

// What a plan's KV token count covers (issue 11 item 4). Every engine sizes one
// pool per rank from per-rank heads and layers, and every rank of a TP x PP group
// ends with the same count: SGLang's max_total_num_tokens (model_runner.py
// profile_max_num_token: cell of the attention-TP-local heads, the free memory the
// minimum over ranks) and vLLM's "GPU KV cache size" (v1/core/kv_cache_utils.py
// get_kv_cache_configs: every worker's num_blocks set to the minimum over workers).
// Each GPU holds its share of every token, so the group serves the count once, not
// once per GPU. Each vLLM DP replica, SGLang DP-attention rank or TRT-LLM
// attention-DP rank has a pool of its own.
struct KvScope {
  enum class Kind {
    kGpu,      // one GPU holds the pool
    kReplica,  // a TP x PP group of `gpus` shares it
    kDpRank,   // an attention-DP rank of `gpus` (its attention-TP group) holds its own
  };
  Kind kind = Kind::kGpu;
  int gpus = 1;   // GPUs that share one pool
  int pools = 1;  // pools in the whole deployment (DP replicas or DP ranks)
};

// The scope of `pools` pools of `gpus_per_pool` GPUs each; one GPU is kGpu whatever
// the parallelism, since then the two readings agree.
KvScope KvScopeOf(int gpus_per_pool, int pools, bool dp_attention);

// The label a renderer prints: "per GPU", "per replica", "per DP attention rank".
const char* KvScopeName(KvScope::Kind kind);

struct PlanResult {
  std::string engine;          // "sglang", "vllm", "trtllm"
  std::string engine_version;  // the release asked for, e.g. "0.5.3"
  std::string era;             // the modelled era that release falls in
  bool ok = false;
  // Not planned: the launch needs a rule kvplan does not model (error_message says which);
  // neither the engine's success nor its failure.
  bool not_modelled = false;
  std::string error_message;  // the engine's own message, word for word

  // The engine's memory knob: mem_fraction_static / gpu_memory_utilization /
  // free_gpu_memory_fraction.
  std::string fraction_name;
  double fraction = 0;
  bool fraction_user = false;

  int64_t gpu_total_bytes = 0;
  int64_t pre_load_free_bytes = 0;
  int64_t post_load_free_bytes = 0;
  int64_t weights_bytes_per_gpu = 0;
  int64_t rest_memory_bytes = 0;     // bytes the engine gives the KV cache
  int64_t cell_size_bytes = 0;       // KV bytes per token per rank
  int64_t max_total_num_tokens = 0;  // tokens of one pool, see kv_scope
  KvScope kv_scope;
  // SGLang runs DP attention (kv_scope.pools ranks) after its own overrides: a DeepSeek DSA
  // model's forced DP attention is here, not in the typed flags.
  bool dp_attention = false;
  int64_t max_running_requests = 0;
  int64_t context_length = 0;

  std::vector<Setting> settings;
  std::vector<Stage> stages;
  std::vector<MemorySlice> memory;  // one GPU
  std::vector<Fix> fixes;
  std::vector<Figure> figures;
  std::vector<std::string> warnings;  // the engine's warnings and kvplan's assumptions

  const Figure* FindFigure(const std::string& key) const;
};

// One launch to plan, engine-neutral: which engine and release, the engine's
// own flags (typed by the user or taken from a pasted launch command), and
// what the user measured. Each engine parses its own flags.
struct PlanRequest {
  std::string engine;                       // "sglang", "vllm", "trtllm"
  std::string version;                      // "" = the newest modelled release
  std::vector<std::string> args;            // the engine's own flags, as on its command line
  std::optional<std::string> model;         // kvplan --model (overrides the engine's model flag)
  std::string gpu;                          // kvplan --gpu
  std::optional<int64_t> gpu_capacity_mib;  // kvplan --gpu-capacity-mib
  // Figures the user read from a log or a debug print, by name, in GiB
  // ("pre_load_free", "post_load_free", and engine-specific terms).
  std::map<std::string, double> measured_gib;
  // The release a pasted launch command names (its docker image's tag, a pip pin) and where
  // it was read; used when `version` is empty, and noted when `version` names another.
  std::string pasted_release, pasted_release_source;
};

// Plans `req` with the engine it names. Throws InputError for bad input.
PlanResult PlanLaunch(const PlanRequest& req);

// "sglang@0.5.3" -> {"sglang", "0.5.3"}; "vllm" -> {"vllm", ""}.
std::pair<std::string, std::string> SplitEngineSpec(const std::string& spec);

// How a plan's header names the launch: the model as given, the GPU and the
// GPUs per replica (tp * pp).
struct PlanContext {
  std::string model;
  std::string gpu;
  int gpus = 1;
};

// The model is kvplan's --model, else the engine's own model flag; the GPUs
// per replica are the plan's "gpus_per_replica" figure.
PlanContext PlanContextOf(const PlanRequest& req, const PlanResult& result);

}  // namespace kvplan
