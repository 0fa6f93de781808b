// The state-pool stage of hybrid (mamba / linear-attention) models:
// model_runner.py handle_max_mamba_cache carves the request state pool out of
// rest_memory before the KV cache is sized, and the pool's slots bound
// max_num_reqs. The per-request state is catalog/state_shapes.h's.
#include <cmath>

#include <fmt/core.h>

#include "base/checked_math.h"
#include "base/units.h"
#include "catalog/engine_support.h"
#include "engines/sglang/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// v0.5.2 (Sep 2025) added the hybrid GDN pool with Qwen3-Next; v0.5.3 the
// --mamba-full-memory-ratio split (../shared/reference/sglang-memory.md 1.2).
constexpr int64_t kStatePoolSince = SglangVersionKey(0, 5, 2);
constexpr int64_t kRatioSplitSince = SglangVersionKey(0, 5, 3);
// model_runner.py @v0.5.5 MAMBA_CACHE_SIZE_MAX_RUNNING_REQUESTS_RATIO: three
// state slots per running request while the radix cache keeps states.
constexpr int64_t kSlotsPerRequestWithRadix = 3;
// handle_max_mamba_cache @v0.5.5: the radix cache off and no
// --max-running-requests.
constexpr int64_t kRadixOffDefaultSlots = 512;

constexpr std::string_view kWhat = "SGLang's mamba state pool";

// server_args.py (#12469; _handle_mamba_radix_cache(support_mamba_cache=False) at main
// 2026): "Disabling Radix Cache for KimiLinearForCausalLM as it is not yet supported."
bool RadixCacheOff(const SglangArgs& a, const ModelSpec& m) {
  return a.disable_radix_cache || m.architecture == "KimiLinearForCausalLM";
}

int AttentionTp(const SglangArgs& a) { return a.enable_dp_attention ? a.tp / a.dp : a.tp; }

// server_args.py --mamba-ssm-dtype (default float32); the conv state is bf16
// (configs/mamba_utils.py mamba2_state_dtype, SGLANG_MAMBA_CONV_DTYPE unset).
int SsmBytes(const std::string& dtype) { return dtype == "" || dtype == "float32" ? 4 : 2; }

// The running requests the speculative intermediate states are reserved for:
// the user's --max-running-requests, or the 48 server_args.py sets for drafts.
int64_t SpecRequests(const SglangArgs& a) { return a.max_running_requests.value_or(48); }

// The slots when they are not a share of rest_memory.
void FixedSlots(const SglangArgs& a, SglangStatePool* p) {
  if (a.max_mamba_cache_size) {
    p->rule = SglangStateRule::kUserSize;
    p->slots = *a.max_mamba_cache_size;
  } else if (a.max_running_requests) {
    p->rule = SglangStateRule::kRadixOffReqs;
    p->slots = *a.max_running_requests;
  } else {
    p->rule = SglangStateRule::kRadixOffDefault;
    p->slots = kRadixOffDefaultSlots;
  }
}

}  // namespace

SglangRefusal SglangStateRefusal(const ModelSpec& model, const SglangArgs& a, int64_t version_key,
                                 const std::string& version) {
  HybridState shape;
  try {
    shape = HybridStateShapes(model, AttentionTp(a));
  } catch (const InputError& e) {
    return SglangEngineRefusal(e.what());  // configs/mamba_utils.py divide() asserts
  }
  if (shape.layers == 0) return {};
  if (shape.layers == model.num_layers) {
    // models/mamba2.py and models/mamba.py (2026, after the releases kvplan dates) serve
    // models without attention layers through their own configs (sgl-project/sglang#21930
    // and #22327 proposed the Mamba2 one, cell_size 0): that pool is not modelled.
    return SglangNotModelled(fmt::format(
        "kvplan: SGLang {}'s serving of {}, a model without attention layers (its state pool "
        "alone, models/mamba2.py / mamba.py), is not modelled",
        version, model.architecture));
  }
  if (version_key < kStatePoolSince) {
    return SglangNotModelled(fmt::format(
        "kvplan: SGLang {} predates the hybrid (mamba / linear-attention) state pool, which "
        "arrived in 0.5.2; kvplan does not plan {} on it",
        version, model.architecture));
  }
  if (model.state_kind == StateKind::kMamba1) {
    // configs/mamba_utils.py @v0.5.5 sizes Mamba2 and gated delta-net states only.
    return SglangNotModelled(
        fmt::format("kvplan: SGLang {}'s mamba state pool is not modelled for {}'s Mamba-1 layers",
                    version, model.architecture));
  }
  if (version_key < kRatioSplitSince && !a.max_mamba_cache_size) {
    return SglangNotModelled(fmt::format(
        "kvplan: SGLang {} sizes the state pool from --max-mamba-cache-size, whose default "
        "kvplan does not know for this release; pass --max-mamba-cache-size (state slots) to "
        "plan it, or plan 0.5.3 or later",
        version));
  }
  return {};
}

bool SglangHybridReleaseKnown(const ModelSpec& model) {
  return FirstServingRelease(model.architecture, "sglang").has_value();
}

SglangStatePool SglangStatePoolOf(const SglangLaunch& l, const SglangSettings& s,
                                  const ModelSpec& model, SglangBudget* b) {
  const SglangArgs& a = l.args;
  SglangStatePool p;
  p.shape = HybridStateShapes(model, AttentionTp(a));
  if (p.shape.layers == 0) return p;
  p.active = true;
  p.ssm_bytes = SsmBytes(a.mamba_ssm_dtype);
  p.per_req = p.shape.BytesPerRequest(p.conv_bytes, p.ssm_bytes);
  p.rest_before_gib = b->rest_gib;
  p.rest_before_bytes = b->rest_bytes;
  const int64_t dp = a.enable_dp_attention ? a.dp : 1;
  double rest = b->rest_gib;
  const double gib = static_cast<double>(kGiB);
  if (l.version_key < kRatioSplitSince) {
    // model_runner.py @v0.5.2 profile_max_num_token: rest_memory -= size * per_req,
    // and max_num_reqs <= max_mamba_cache_size.
    FixedSlots(a, &p);
  } else {
    if (l.spec) {
      // handle_max_mamba_cache @v0.5.5: the draft tokens' intermediate states first.
      p.intermediate_reqs = SpecRequests(a) / dp;
      p.intermediate_bytes =
          CheckedMul(CheckedMul(p.per_req, p.intermediate_reqs, kWhat), s.spec.draft_tokens, kWhat);
      rest -= static_cast<double>(p.intermediate_bytes) / gib;
    }
    const bool radix_off = RadixCacheOff(a, model);
    p.slots_per_request = radix_off ? 1 : kSlotsPerRequestWithRadix;
    if (radix_off || a.max_mamba_cache_size) {
      FixedSlots(a, &p);
      p.slots /= dp;
    } else {
      // mamba_state / full_kv == ratio and mamba_state + full_kv == rest_memory.
      p.ratio = a.mamba_full_memory_ratio.value_or(0.9);
      const double state_gib = rest * p.ratio / (1 + p.ratio);
      p.slots = static_cast<int64_t>(std::floor(state_gib * gib / static_cast<double>(p.per_req)));
    }
  }
  if (p.slots < 0) p.slots = 0;
  p.bytes = CheckedMul(p.slots, p.per_req, kWhat);
  // mem_cache/memory_pool.py MambaPool allocates size + 1 slots: the log of
  // kvcache-ai/ktransformers#1870 (0.5.9) prints the state of 83 slots for 82.
  p.padding_bytes = p.per_req;
  rest -= static_cast<double>(p.bytes) / gib;
  b->rest_gib = rest;
  b->rest_bytes = TruncToInt64(rest * gib);
  return p;
}

}  // namespace kvplan
