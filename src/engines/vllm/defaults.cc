// Stage "defaults" of a vLLM plan: the effective settings per era and GPU, the
// checks vLLM makes on them before sizing anything, and their text.
#include <algorithm>

#include <fmt/core.h>

#include "engines/vllm/estimates.h"
#include "engines/vllm/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

bool HasFlashMla(const GpuSpec& gpu) {
  // FlashMLA runs on Hopper and datacenter Blackwell (ids h100, h200, h20, h800, b200, gb200 ...).
  const std::string& id = gpu.id;
  return !id.empty() && (id[0] == 'h' || id[0] == 'b' || id.rfind("gb", 0) == 0);
}

// The heads, vocabulary and expert checks are catalog/sharding.h's, run by the
// start-up checks stage (startup_checks.cc), which returns a refused plan.
void CheckLaunch(const VllmDefaults& d, const VllmArgs& a) {
  if (a.kv_cache_memory_bytes && (IsV0(d.era) || !d.release.AtLeast(0, 10, 2))) {
    throw InputError(
        fmt::format("--kv-cache-memory needs vLLM 0.10.2 or later with the V1 engine "
                    "(asked for {})",
                    d.release.text));
  }
}

// The batch limits: V0's chunked-prefill rule, V1's per-GPU defaults.
void ResolveBatchLimits(const GpuSpec& gpu, const VllmArgs& a, VllmDefaults* d) {
  if (IsV0(d->era)) {
    // vllm/engine/arg_utils.py V0: chunked prefill on by default above 32K context.
    d->chunked = a.enable_chunked_prefill.value_or(d->max_model_len > 32768);
    d->mnbt = a.max_num_batched_tokens.value_or(
        d->chunked ? 2048 : std::max<int64_t>(d->max_model_len, 2048));
    d->mnbt_rule = d->chunked ? "V0 chunked prefill default 2048" : "V0: max(max_model_len, 2048)";
    d->seqs_rule = "V0 default 256";
  } else {
    d->chunked = true;
    d->mnbt = a.max_num_batched_tokens.value_or(VllmDefaultMaxNumBatchedTokens(gpu));
    d->mnbt_rule =
        "arg_utils.py get_batch_defaults: 8192 on >=70 GiB GPUs other than A100, else 2048";
    d->seqs_rule =
        "arg_utils.py get_batch_defaults: 1024 on >=70 GiB GPUs other than A100, else 256";
  }
  d->max_num_seqs = a.max_num_seqs.value_or(VllmDefaultMaxNumSeqs(gpu, d->era));
}

}  // namespace

VllmDefaults VllmResolveDefaults(const std::string& version, const ModelSpec& model,
                                 const GpuSpec& gpu, const VllmArgs& a) {
  VllmDefaults d;
  d.release = ParseVllmRelease(version);
  d.gpus_per_replica = a.tp * a.pp;
  d.era = VllmEraFor(d.release, a.use_v1);
  CheckLaunch(d, a);
  d.util = a.gpu_memory_utilization.value_or(0.9);
  if (model.max_position_embeddings <= 0 && !a.max_model_len) {
    throw InputError(
        fmt::format("model '{}' has no max_position_embeddings; pass --max-model-len", model.id));
  }
  d.max_model_len = a.max_model_len.value_or(model.max_position_embeddings);
  // vllm/config/model.py _get_and_verify_max_len: refused unless RoPE scaling
  // extends it or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
  d.max_len_above_model = a.max_model_len && model.max_position_embeddings > 0 &&
                          *a.max_model_len > model.max_position_embeddings;
  bool mla = model.attention == AttentionKind::kMla;
  int64_t default_block = (mla && HasFlashMla(gpu) && d.release.AtLeast(0, 7, 0)) ? 64 : 16;
  d.block_size = a.block_size.value_or(default_block);
  d.block_rule = default_block == 64 ? "FlashMLA backend forces 64 (vllm/platforms/cuda.py)"
                                     : "vllm/config/cache.py default 16";
  d.hybrid = VllmStateOnlyModel(model)
                 ? VllmStateOnlyBlock(model, a, d.release, !IsV0(d.era), d.max_model_len)
                 : VllmHybridAttentionBlock(model, gpu, a, d.release, !IsV0(d.era), d.block_size);
  if (d.hybrid.modelled) {
    if (d.hybrid.enlarged || d.hybrid.state_only) d.block_rule = d.hybrid.rule;
    d.block_size = d.hybrid.block_size;
  }
  ResolveBatchLimits(gpu, a, &d);
  return d;
}

std::vector<Setting> DescribeVllmSettings(const VllmDefaults& d, const VllmArgs& a) {
  std::vector<Setting> out;
  auto add = [&](const std::string& flag, const std::string& value, bool user,
                 const std::string& rule) {
    out.push_back({flag, value, user, user ? "" : rule});
  };
  add("--gpu-memory-utilization", PyFloat(d.util), a.gpu_memory_utilization.has_value(),
      "vllm/config/cache.py default 0.9");
  add("--max-model-len", std::to_string(d.max_model_len), a.max_model_len.has_value(),
      "the model's max_position_embeddings (vllm/config/model.py _get_and_verify_max_len)");
  add("--block-size", std::to_string(d.block_size), a.block_size.has_value(), d.block_rule);
  add("--max-num-batched-tokens", std::to_string(d.mnbt), a.max_num_batched_tokens.has_value(),
      d.mnbt_rule);
  add("--max-num-seqs", std::to_string(d.max_num_seqs), a.max_num_seqs.has_value(), d.seqs_rule);
  add("--kv-cache-dtype", a.kv_cache_dtype, a.kv_cache_dtype != "auto", "auto: the model dtype");
  add("--tensor-parallel-size", std::to_string(a.tp), a.tp != 1, "default 1");
  if (a.pp != 1) add("--pipeline-parallel-size", std::to_string(a.pp), true, "");
  if (a.dp != 1) add("--data-parallel-size", std::to_string(a.dp), true, "");
  if (a.enforce_eager) add("--enforce-eager", "true", true, "");
  if (a.kv_cache_memory_bytes) {
    add("--kv-cache-memory", std::to_string(*a.kv_cache_memory_bytes), true, "");
  }
  return out;
}

std::vector<std::string> DescribeVllmDefaultWarnings(const VllmDefaults& d, const ModelSpec& model,
                                                     const VllmArgs& a, const ModelSpec* draft) {
  std::vector<std::string> out;
  if (d.release.newer_than_modelled) {
    out.push_back(fmt::format(
        "vLLM {} is newer than the newest modelled release (0.28); 0.28's rules are used, and "
        "what changed since is not in them",
        d.release.text));
  }
  // Under VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 vLLM logs its warning and goes on
  // (without it the start-up checks refuse the launch).
  if (d.max_len_above_model && a.allow_long_max_model_len) {
    out.push_back(
        VllmMaxModelLenWarning(d.release, d.max_model_len, model.max_position_embeddings));
  }
  if (a.speculative &&
      (a.speculative->method == "eagle" || a.speculative->method == "eagle3" ||
       a.speculative->method == "draft_model") &&
      draft == nullptr) {
    out.push_back("the speculative draft model was not loaded: its weights and KV are not counted");
  }
  // What the parser could not check (an older release's table stood in): refused plans say it too.
  out.insert(out.end(), a.flag_notes.begin(), a.flag_notes.end());
  return out;
}

}  // namespace kvplan
