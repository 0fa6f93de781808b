// The launch stage: the arguments as SGLang's server_args.py leaves them,
// before any memory is planned.
#include <fmt/core.h>

#include "base/checked_math.h"
#include "base/text.h"
#include "catalog/engine_support.h"
#include "catalog/sharding.h"
#include "engines/sglang/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// A model newer than the release (catalog/engine_support.h): SGLang stops in its model
// registry (kEngine); kNone when the release serves it.
SglangRefusal UnservedSglangArchitecture(const ModelSpec& m, int64_t version_key,
                                         const std::string& version) {
  const std::optional<ServingRelease> first = FirstServingRelease(m.architecture, "sglang");
  if (!first ||
      version_key >= SglangVersionKey(first->major, first->minor, first->patch, first->post)) {
    return {};
  }
  return SglangEngineRefusal(UnservedArchitectureError("SGLang", version, m.architecture, *first));
}

// The capture list holds one batch size per 16 or 32 up to the maximum, and
// each size is one graph: a million is past any GPU and still plans in 0.1 s
// (10^8 took 5 s and 110 MB for the list alone).
constexpr int64_t kMaxCudaGraphBs = 1'000'000;

// The hybrid state pool's flags (server_args.py @v0.5.5).
void ValidateStateFlags(const SglangArgs& a) {
  if (a.max_mamba_cache_size) {
    if (*a.max_mamba_cache_size < 1) {
      throw InputError(fmt::format("--max-mamba-cache-size must be at least 1, got {}",
                                   *a.max_mamba_cache_size));
    }
    CheckedAtMost(*a.max_mamba_cache_size, kMaxInputCount, "--max-mamba-cache-size");
  }
  if (a.mamba_full_memory_ratio &&
      !(*a.mamba_full_memory_ratio > 0 && *a.mamba_full_memory_ratio <= 1000)) {
    throw InputError(fmt::format("--mamba-full-memory-ratio must be in (0, 1000], got {}",
                                 *a.mamba_full_memory_ratio));
  }
}

void Validate(const SglangArgs& a) {
  ValidateStateFlags(a);
  auto positive = [](const char* flag, int64_t v) {
    if (v < 1) throw InputError(fmt::format("{} must be at least 1, got {}", flag, v));
    CheckedAtMost(v, kMaxInputCount, flag);
  };
  positive("--tp-size", a.tp);
  positive("--pp-size", a.pp);
  positive("--dp-size", a.dp);
  positive("--ep-size", a.ep);
  if (a.mem_fraction_static && !(*a.mem_fraction_static > 0 && *a.mem_fraction_static < 1)) {
    throw InputError(
        fmt::format("--mem-fraction-static must be between 0 and 1 (exclusive), got {}",
                    *a.mem_fraction_static));
  }
  if (a.page_size) positive("--page-size", *a.page_size);
  if (a.context_length) positive("--context-length", *a.context_length);
  if (a.max_running_requests) positive("--max-running-requests", *a.max_running_requests);
  if (a.max_total_tokens) positive("--max-total-tokens", *a.max_total_tokens);
  if (a.cuda_graph_max_bs) {
    positive("--cuda-graph-max-bs", *a.cuda_graph_max_bs);
    CheckedAtMost(*a.cuda_graph_max_bs, kMaxCudaGraphBs, "--cuda-graph-max-bs");
  }
  // -1 disables chunking; only the upper ends need a bound.
  if (a.chunked_prefill_size) {
    CheckedAtMost(*a.chunked_prefill_size, kMaxInputCount, "--chunked-prefill-size");
  }
  if (a.max_prefill_tokens) {
    CheckedAtMost(*a.max_prefill_tokens, kMaxInputCount, "--max-prefill-tokens");
  }
  if (a.speculative_num_steps) positive("--speculative-num-steps", *a.speculative_num_steps);
  if (a.speculative_eagle_topk) positive("--speculative-eagle-topk", *a.speculative_eagle_topk);
  if (a.speculative_num_draft_tokens) {
    positive("--speculative-num-draft-tokens", *a.speculative_num_draft_tokens);
  }
  if (a.swa_full_tokens_ratio && !(*a.swa_full_tokens_ratio > 0 && *a.swa_full_tokens_ratio <= 1)) {
    throw InputError(
        fmt::format("--swa-full-tokens-ratio must be in (0, 1], got {}", *a.swa_full_tokens_ratio));
  }
  if (a.speculative_algorithm.empty() &&
      (a.speculative_num_steps || a.speculative_eagle_topk || a.speculative_num_draft_tokens ||
       !a.speculative_draft_model_path.empty())) {
    throw InputError(
        "speculative flags are given without --speculative-algorithm (expected EAGLE, EAGLE3, "
        "NEXTN, STANDALONE or NGRAM)");
  }
}

// server_args.py _handle_data_parallelism: assert tp_size % dp_size == 0 under DP attention,
// checked after the model's overrides (a DSA model's forced dp_size replaces the typed one).
void ValidateDpAttention(const SglangArgs& a) {
  if (a.enable_dp_attention && a.tp % a.dp != 0) {
    throw InputError(fmt::format(
        "--enable-dp-attention needs --tp-size divisible by --dp-size, got tp {} and dp {}", a.tp,
        a.dp));
  }
}

// The DeepSeek DSA/NSA row of the release (engines/sglang/dsa_overrides.h) applied to the
// arguments: DP attention, the fraction, the KV dtype.
SglangDsaApplied ApplyDsaOverrides(const ModelSpec& model, const GpuSpec& gpu, int64_t vkey,
                                   SglangArgs* a) {
  SglangDsaApplied d;
  if (model.index_head_dim <= 0 || !model.compress_ratios.empty()) return d;
  d.row = SglangDsaRowFor(vkey);
  if (d.row == nullptr) return d;
  d.typed_dp = a->dp;
  d.typed_dp_attention = a->enable_dp_attention;
  d.typed_kv = a->kv_cache_dtype;
  if (d.row->dp != SglangDsaDp::kNone) {
    d.dp_attention_forced = !a->enable_dp_attention;
    a->enable_dp_attention = true;
    if (d.row->dp == SglangDsaDp::kForcedTpSize && a->dp != a->tp) {
      d.dp_forced = true;
      a->dp = a->tp;
    }
  }
  // The forced fraction replaces the resolved one in the settings stage (settings.cc).
  d.mem_fraction_forced = d.row->mem_fraction_static > 0;
  const bool sm100 = gpu.compute_capability >= 100;
  if (d.row->kv == SglangDsaKv::kFp8OnSm100) {
    if (sm100) {
      d.kv_forced = a->kv_cache_dtype != "auto" && a->kv_cache_dtype != "fp8_e4m3";
      a->kv_cache_dtype = "fp8_e4m3";
    }
  } else if (a->kv_cache_dtype == "auto") {
    a->kv_cache_dtype = sm100 ? "fp8_e4m3" : "bfloat16";
  }
  return d;
}

}  // namespace

Parallelism SglangParallelism(const SglangArgs& a) {
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  par.dp = a.dp;
  par.ep = a.ep;
  par.dp_attention = a.enable_dp_attention;
  par.dp_lm_head = a.enable_dp_lm_head;
  return par;
}

// python/sglang/srt/configs/model_config.py _derive_context_length (the check
// since sgl-project/sglang#1778, 2024-10, before every modelled release; the
// text as at main 2026 and in public logs of February 2026 [earlier releases
// not checked word for word]); the derived length is get_context_length(),
// which kvplan takes as max_position_embeddings (it reads no rope scaling).
std::string SglangContextLengthError(int64_t asked, int64_t derived) {
  return fmt::format(
      "Warning: User-specified context_length ({}) is greater than the derived context_length "
      "({}). This may lead to incorrect model outputs or CUDA errors. Note that the derived "
      "context_length may differ from max_position_embeddings in the model's config. To allow "
      "overriding this maximum, set the env var SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1",
      asked, derived);
}

SglangLaunch SglangLaunchOf(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                            const SglangArgs& args, const ModelSpec* draft) {
  SglangLaunch l;
  l.args = args;
  SglangArgs& a = l.args;
  Validate(a);
  a.speculative_algorithm = ToUpper(a.speculative_algorithm);
  if (a.speculative_algorithm == "MTP") a.speculative_algorithm = "NEXTN";
  l.spec = SglangHasDraft(a.speculative_algorithm);
  l.era = &SglangEraFor(version, &l.version, &l.version_key);
  const int64_t vkey = l.version_key;
  l.newer_than_modelled = vkey > SglangVersionKey(0, 5, 19) && vkey != SglangVersionKey(0, 5, 999);
  l.eagle_with_eagle3_draft = SglangEagleWithEagle3Draft(a.speculative_algorithm, draft);
  l.dsa = ApplyDsaOverrides(model, gpu, vkey, &a);
  if (a.enable_dp_attention && a.dp == 1) {
    // server_args.py @v0.5.3 _handle_data_parallelism: turned off with dp_size 1
    a.enable_dp_attention = false;
    l.dp_attention_turned_off = true;
  }
  ValidateDpAttention(a);
  // ModelConfig is built (tokenizer manager, then each worker) before any weight.
  if (a.context_length && model.max_position_embeddings > 0 &&
      *a.context_length > model.max_position_embeddings && !a.allow_overwrite_longer_context_len) {
    l.context_refusal = SglangContextLengthError(*a.context_length, model.max_position_embeddings);
    return l;
  }
  // model_loader resolves the architecture (models/registry.py) before any memory is sized.
  l.state_refusal = UnservedSglangArchitecture(model, vkey, l.version);
  // Past the registry: the state pool and DeepSeek-V4 pool split kvplan does not model, or a
  // state shape SGLang's own divide() asserts on.
  if (!l.state_refusal.Refused()) l.state_refusal = SglangStateRefusal(model, a, vkey, l.version);
  if (!l.state_refusal.Refused()) {
    l.state_refusal = SglangDeepseekV4Refusal(model, vkey, l.version);
  }
  if (l.state_refusal.Refused()) return l;
  // Load-time sharding checks: the engine stops before any memory is planned.
  l.sharding_problems = ShardingProblems(model, SglangParallelism(a), ShardingEngine::kSglang);
  if (!l.sharding_problems.empty()) return l;
  l.kv_rule = a.kv_cache_dtype == "auto" ? SglangKvRule::kModelDtype : SglangKvRule::kUser;
  if (l.dsa.kv_forced) {
    l.kv_rule = SglangKvRule::kDsaForcedFp8;
  } else if (l.dsa.row != nullptr && l.dsa.typed_kv == "auto" && a.kv_cache_dtype != "auto") {
    l.kv_rule = SglangKvRule::kDsaCapability;
  }
  if (SglangIsDeepseekV4(model)) {
    if (a.kv_cache_dtype == "auto") l.kv_rule = SglangKvRule::kDeepseekV4;
    l.deepseek_v4_requests = !a.max_running_requests;
    ApplySglangDeepseekV4Defaults(&a);
  }
  return l;
}

}  // namespace kvplan
