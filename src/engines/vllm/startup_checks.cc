// Stage "start-up checks" of a vLLM plan: what vLLM refuses before it sizes
// any KV cache, in its order: the architecture (the model registry), the model
// length (ModelConfig), the sharding
// (the parallel config, then the model as it is built) and the weights fitting
// the GPU (loading).
#include <optional>

#include <fmt/core.h>

#include "base/format.h"
#include "catalog/sharding.h"
#include "engines/vllm/model_support.h"
#include "engines/vllm/stages.h"

namespace kvplan {
namespace {

// vllm/config/model.py @v0.28.0 _get_and_verify_max_len (vllm/config.py before
// 0.10): the derived length as Python prints it. From 0.12.0 every config has
// rope_parameters and the length is multiplied by a float scaling factor, so it
// prints as "32768.0" (a public 2026 log shows "max_position_embeddings=32768.0"
// for Mistral-7B-Instruct-v0.1) [inferred: vLLM PR #28542, first in 0.12.0];
// before, it stayed an int unless the config's own rope scaling multiplied it
// (kvplan does not read rope scaling). model_length is None for the configs
// kvplan reads (no model_max_length key).
std::string DerivedLenText(const VllmRelease& r, int64_t derived) {
  return r.AtLeast(0, 12, 0) ? fmt::format("{}.0", derived) : std::to_string(derived);
}

std::string MaxLenMessage(const VllmRelease& r, int64_t asked, int64_t derived) {
  std::string msg = fmt::format(
      "User-specified max_model_len ({}) is greater than the derived max_model_len "
      "(max_position_embeddings={} or model_max_length=None in model's config.json).",
      asked, DerivedLenText(r, derived));
  // vllm/config.py @v0.6.3 (PR #7080) to @v0.9.2: the risk was part of the message.
  if (!r.AtLeast(0, 10, 0)) msg += " This may lead to incorrect model outputs or CUDA errors.";
  return msg;
}

// PR #20904 (merged 2025-07-14, first in 0.10.0) moved the risk to this text.
constexpr const char* kLongLenCaution =
    "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the model uses relative "
    "position encoding (RoPE), positions exceeding derived_max_model_len lead to nan. If the "
    "model uses absolute position encoding, positions exceeding derived_max_model_len will "
    "cause a CUDA array out-of-bounds error.";

}  // namespace

std::string VllmMaxModelLenError(const VllmRelease& r, int64_t asked, int64_t derived) {
  const std::string msg = MaxLenMessage(r, asked, derived);
  if (!r.AtLeast(0, 10, 0)) {
    return msg +
           " To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1";
  }
  return fmt::format(
      "{} To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. {}",
      msg, kLongLenCaution);
}

std::string VllmMaxModelLenWarning(const VllmRelease& r, int64_t asked, int64_t derived) {
  const std::string msg = MaxLenMessage(r, asked, derived);
  if (!r.AtLeast(0, 10, 0)) {
    return msg + " Make sure the value is correct and within the model context size.";
  }
  return msg + " " + kLongLenCaution;
}

Parallelism VllmParallelism(const VllmArgs& a) {
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  par.dp = a.dp;
  // vllm/config/parallel.py: with --enable-expert-parallel the experts split
  // over every rank of the TP x DP group.
  par.ep = a.enable_expert_parallel ? a.tp * a.dp : 1;
  return par;
}

VllmRefusal VllmConfigRefusal(const VllmDefaults& d, const ModelSpec& model, const VllmArgs& a) {
  VllmRefusal r;
  // config/model.py: the registry inspects the architecture before the length is verified.
  if (std::optional<std::string> e = VllmUnsupportedArchitecture(model, d.release)) {
    r.kind = VllmRefusal::Kind::kUnsupportedModel;
    r.message = *e;
    return r;
  }
  if (d.max_len_above_model && !a.allow_long_max_model_len) {
    r.kind = VllmRefusal::Kind::kMaxModelLen;
    r.message = VllmMaxModelLenError(d.release, *a.max_model_len, model.max_position_embeddings);
    return r;
  }
  std::vector<std::string> problems =
      ShardingProblems(model, VllmParallelism(a), ShardingEngine::kVllm);
  if (!problems.empty()) {
    r.kind = VllmRefusal::Kind::kSharding;
    r.message = problems.front();
  }
  return r;
}

VllmRefusal VllmLoadRefusal(const VllmTerms& t, const VllmBudget& b, const VllmMeasured& ms) {
  VllmRefusal r;
  // The free-memory check runs in init_device, before loading (a budget error
  // of its own). A launch with a logged weight size, peak or KV budget loaded.
  if (ms.weights || ms.peak_torch || ms.available_kv) return r;
  if (b.error.rfind("Free memory on device", 0) == 0) return r;
  if (t.weights <= t.pre_load_free) return r;
  // torch raises torch.OutOfMemoryError while the model loader fills the
  // weights (vllm/model_executor/model_loader); its exact figures are the
  // allocator's, so kvplan states its own.
  r.kind = VllmRefusal::Kind::kWeightsTooLarge;
  r.message = fmt::format("{} the weights (kvplan: {} of weights per GPU, {} free before loading)",
                          kVllmLoadOomPrefix, FormatGiB(t.weights), FormatGiB(t.pre_load_free));
  return r;
}

}  // namespace kvplan
