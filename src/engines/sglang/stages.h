// PlanSglang as a sequence of named stages, in the engine's start-up order:
// launch (argument handling), settings (defaults), weights (the two free-memory
// measurements), budget (rest_memory), cell, tokens (profiled, request pool,
// clamps), verdict, running requests, graphs and slack. Each stage computes
// numbers only; the Describe* functions turn the finished stages into the
// texts of PlanResult (settings, stages, figures, memory, warnings), and only
// when the plan is explained: a search (kvplan tune) plans without them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "engines/common/plan.h"
#include "engines/sglang/cell.h"
#include "engines/sglang/dsa_overrides.h"
#include "engines/sglang/era.h"
#include "engines/sglang/graph_estimate.h"
#include "engines/sglang/refusal.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/speculative.h"

namespace kvplan {

// --- launch: the arguments as the engine sees them after its own handling --
enum class SglangKvRule {
  kUser,           // --kv-cache-dtype given
  kModelDtype,     // auto: the model dtype
  kDsaCapability,  // auto for DeepSeek DSA, by compute capability
  kDsaForcedFp8,   // DeepSeek DSA on SM100 at 0.5.3-0.5.4.post1: fp8_e4m3 whatever was typed
  kDeepseekV4,     // auto for DeepSeek-V4: fp8_e4m3 (engines/sglang/dsv4_pool.h)
};

struct SglangLaunch {
  SglangArgs args;  // normalised (algorithm upper-case, MTP -> NEXTN, ...)
  const SglangEra* era = nullptr;
  std::string version;  // canonical release, e.g. "0.5.3" or "main"
  int64_t version_key = 0;
  bool spec = false;  // a draft runs (any algorithm but NGRAM)
  bool newer_than_modelled = false;
  bool eagle_with_eagle3_draft = false;
  bool dp_attention_turned_off = false;
  SglangDsaApplied dsa;  // DeepSeek DSA/NSA overrides of the release (row nullptr: none)
  SglangKvRule kv_rule = SglangKvRule::kUser;
  // ModelConfig's refusal of --context-length above the model ("" when none);
  // it comes before any sharding check.
  std::string context_refusal;
  std::vector<std::string> sharding_problems;  // load-time failures, first one is fatal
  // The refusal of a model before any memory is sized (kNone when none): the registry's
  // (engines/sglang/launch.cc), a state pool or DeepSeek-V4 pool split kvplan does not model
  // on the release (state_pool.cc, dsv4_pool.cc), or SGLang's own assertion on a state shape.
  SglangRefusal state_refusal;
  // The DeepSeek-V4 hook gave max_running_requests its 256 (engines/sglang/dsv4_pool.h).
  bool deepseek_v4_requests = false;
};

// configs/model_config.py's error for --context-length above the derived length.
std::string SglangContextLengthError(int64_t asked, int64_t derived);

// The launch's parallel layout as the sharding checks and the weight estimate see it.
Parallelism SglangParallelism(const SglangArgs& a);

// Validates, normalises the arguments and runs the load-time sharding checks.
SglangLaunch SglangLaunchOf(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                            const SglangArgs& args, const ModelSpec* draft);

// --- settings: the engine's defaults and the values derived from them -------
enum class SglangPageRule {
  kUser,
  kDsa,
  kBackend64,
  kCutlassMla128,
  kSm100Default,
  kDeepseekV4,
  kDefault
};

struct SglangSettings {
  SglangDefaults defaults;  // the era's choices, with their rules when explained
  int64_t gpu_mem_mib = 0;  // what the default rules read; 0 = unknown
  double mem_fraction_static = 0;
  double multimodal_factor = 0;      // 0: no multimodal adjustment
  int64_t chunked_prefill_size = 0;  // after the DP-attention division
  int64_t page_size = 1;
  SglangPageRule page_rule = SglangPageRule::kDefault;
  int64_t context_length = 0;
  SglangSpecParams spec;  // speculative parameters (zero without a draft)
};

SglangSettings SglangSettingsOf(const SglangLaunch& launch, const ModelSpec& model,
                                const GpuSpec& gpu, const SglangMeasured& measured, bool explain);

// --- weights: free memory before and after loading ---------------------------
struct SglangWeights {
  int64_t startup_overhead = 0;  // estimated CUDA context + communicators; 0 when measured
  bool pre_measured = false;
  int64_t pre_load_free = 0;
  bool post_measured = false;
  int64_t post_load_free = 0;
  int64_t weights = 0;            // per rank (pre - post when measured)
  int64_t draft_weights = 0;      // per rank; 0 without a draft model
  bool draft_subtracted = false;  // the estimated post_load_free excludes the draft (#28855)
};

// The start of the load failure's message (estimated weights above the memory
// free before loading).
inline constexpr const char* kSglangLoadOomPrefix =
    "torch.OutOfMemoryError: CUDA out of memory while loading";

SglangWeights SglangWeightsOf(const SglangLaunch& launch, const ModelSpec& model,
                              const GpuSpec& gpu, const SglangMeasured& measured,
                              const ModelSpec* draft);

// --- budget: rest_memory, in GiB floats as the engine computes it ------------
struct SglangBudget {
  double pre_gib = 0, post_gib = 0;
  double slack_gib = 0;  // pre_load_free * (1 - mem_fraction_static)
  double rest_gib = 0;   // post_load_free - slack
  int64_t slack_bytes = 0;
  int64_t rest_bytes = 0;
};

SglangBudget SglangBudgetOf(const SglangLaunch& launch, const SglangSettings& s,
                            const SglangWeights& w, const SglangMeasured& measured);

// --- state pool: the mamba / linear-attention state of hybrid models --------
enum class SglangStateRule {
  kRatio,            // rest_memory split by --mamba-full-memory-ratio (v0.5.3+)
  kUserSize,         // --max-mamba-cache-size
  kRadixOffReqs,     // radix cache off: --max-running-requests slots
  kRadixOffDefault,  // radix cache off, no --max-running-requests: 512 slots
};

struct SglangStatePool {
  bool active = false;  // the model has state layers
  HybridState shape;    // per attention-TP rank
  int conv_bytes = 2, ssm_bytes = 4;
  int64_t per_req = 0;             // mamba_cache_per_req
  int64_t intermediate_reqs = 0;   // speculative: requests whose draft states are reserved
  int64_t intermediate_bytes = 0;  // per_req * reqs * num_draft_tokens
  SglangStateRule rule = SglangStateRule::kRatio;
  double ratio = 0;               // --mamba-full-memory-ratio (kRatio)
  int64_t slots = 0;              // max_mamba_cache_size
  int64_t bytes = 0;              // slots * per_req, what rest_memory gives up
  int64_t padding_bytes = 0;      // MambaPool's one extra slot, taken from the slack
  int64_t slots_per_request = 1;  // max_num_reqs <= slots // this
  double rest_before_gib = 0;     // rest_memory before the state pool
  int64_t rest_before_bytes = 0;
};

// The refusal when SGLang at `version_key` cannot be planned with the model's state layers
// (kEngine: SGLang's own assertion; kNotModelled: kvplan's limit); kNone when it can (or the
// model has none).
SglangRefusal SglangStateRefusal(const ModelSpec& model, const SglangArgs& a, int64_t version_key,
                                 const std::string& version);
// True when kvplan knows from which release SGLang serves this hybrid architecture.
bool SglangHybridReleaseKnown(const ModelSpec& model);

// model_runner.py handle_max_mamba_cache: the state pool carved out of
// rest_memory; *b is left with the rest for the KV cache.
SglangStatePool SglangStatePoolOf(const SglangLaunch& launch, const SglangSettings& s,
                                  const ModelSpec& model, SglangBudget* b);

// --- tokens: the profiled count, the request pool and the clamps -------------
struct SglangRequestPool {
  std::optional<int64_t> user_reqs;  // the user's value, or 48 for speculative decoding
  bool spec_reset = false;           // user_reqs is the speculative 48
  int64_t max_num_reqs = 0;
  int64_t attn_dp = 1;
  int64_t state_cap = -1;  // max_mamba_cache_size // slots per request; -1 without state
};

struct SglangTokens {
  int64_t profiled = 0;         // rest_memory // cell_size
  int64_t headroom = 0;         // the draft's token headroom (0 when the era has none)
  int64_t before_user_cap = 0;  // profiled + headroom, before --max-total-tokens
  int64_t tokens = 0;           // max_total_num_tokens
  int64_t swa_tokens = -1;      // sliding-window layer tokens; -1 without a hybrid pool
};

int64_t SglangProfiledTokens(const SglangBudget& b, const SglangCell& cell);
SglangRequestPool SglangRequestPoolOf(const SglangLaunch& launch, const SglangSettings& s,
                                      int64_t profiled);
// Hybrid models: max_num_reqs <= max_mamba_cache_size // slots per request.
void SglangCapPoolByState(const SglangStatePool& state, SglangRequestPool* pool);
SglangTokens SglangTokensOf(const SglangLaunch& launch, const SglangSettings& s,
                            const SglangCell& cell, const SglangRequestPool& pool,
                            const ModelSpec& model, int64_t profiled);

// --- verdict: does the launch start, and the engine's message if not ---------
struct SglangVerdict {
  bool ok = true;
  std::string error_message;
};

SglangVerdict SglangVerdictOf(const SglangLaunch& launch, const SglangSettings& s,
                              const SglangBudget& b, const SglangTokens& t);

// --- running requests: max_running_requests and the req_to_token rows --------
struct SglangRunning {
  int64_t max_running_requests = 0;
  int64_t pool_rows = 0;  // req_to_token rows
};

SglangRunning SglangRunningOf(const SglangLaunch& launch, const SglangRequestPool& pool,
                              const SglangTokens& t);

// --- graphs and slack: what comes out of pre_load_free * (1 - mfs) -----------
struct SglangSlack {
  int64_t graph_max_bs = 0;   // the largest captured decode batch; 0 disabled
  int64_t draft_columns = 0;  // req_to_token columns for draft tokens
  int64_t req_to_token = 0;
  int64_t kv_pool = 0;   // bytes of the target KV pool (0 when the launch fails)
  int64_t draft_kv = 0;  // bytes of a separately sized draft KV pool
  SglangGraphEstimate graphs;
  int64_t draft_weights_in_slack = 0;  // draft weights loaded after profiling
  int64_t used = 0;                    // req_to_token + graphs + draft KV (+ draft weights)
};

SglangSlack SglangSlackOf(const SglangLaunch& launch, const SglangSettings& s,
                          const SglangWeights& w, const SglangCell& cell,
                          const SglangRequestPool& pool, const SglangTokens& t,
                          const SglangVerdict& v, const SglangRunning& run, const ModelSpec& model,
                          const ModelSpec* draft, bool explain);

// --- all stages of one plan, for the describe functions ----------------------
struct SglangStages {
  SglangLaunch launch;
  SglangSettings settings;
  SglangWeights weights;
  SglangBudget budget;
  SglangStatePool state;
  SglangCell cell;
  SglangRequestPool pool;
  SglangTokens tokens;
  SglangVerdict verdict;
  SglangRunning running;
  SglangSlack slack;
};

// What PlanSglang says besides the numbers (engines/sglang/describe*.cc).
// `asked_version` is the version the caller asked for, as typed.
void DescribeSglangLaunchWarnings(const SglangLaunch& launch, const std::string& asked_version,
                                  const ModelSpec* draft, PlanResult* r);
void DescribeSglangSettings(const SglangStages& s, const ModelSpec& model, const GpuSpec& gpu,
                            PlanResult* r);
void DescribeSglangStages(const SglangStages& s, const ModelSpec& model, const GpuSpec& gpu,
                          PlanResult* r);
void DescribeSglangFigures(const SglangStages& s, const ModelSpec& model, PlanResult* r);
void DescribeSglangMemory(const SglangStages& s, const GpuSpec& gpu, PlanResult* r);
void DescribeSglangWarnings(const SglangStages& s, const ModelSpec& model, PlanResult* r);

}  // namespace kvplan
