// The settings stage: the era's defaults for what the user left unset, and
// the values the engine derives from them before it measures memory.
#include <algorithm>
#include <optional>

#include <fmt/core.h>

#include "catalog/vision_towers.h"
#include "engines/sglang/attention_backend.h"
#include "engines/sglang/stages.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Page size: 1 unless the attention backend works in pages.
int64_t ResolvePageSize(const SglangArgs& a, const ModelSpec& model, const GpuSpec& gpu,
                        int64_t version, SglangPageRule* rule) {
  // server_args.py @v0.5.5: DeepSeek DSA/NSA forces 64-token pages on CUDA.
  // arg_groups/overrides.py @30cb848 _deepseek_v4_overrides: 256-token pages on CUDA.
  if (!model.compress_ratios.empty()) {
    *rule = SglangPageRule::kDeepseekV4;
    return 256;
  }
  if (model.index_head_dim > 0) {
    *rule = SglangPageRule::kDsa;
    return 64;
  }
  if (a.page_size) {
    *rule = SglangPageRule::kUser;
    return *a.page_size;
  }
  // server_args.py @v0.5.3 _handle_attention_backend_compatibility
  if (a.attention_backend == "flashmla" || a.attention_backend == "trtllm_mha" ||
      a.attention_backend == "trtllm_mla") {
    *rule = SglangPageRule::kBackend64;
    return 64;
  }
  if (a.attention_backend == "cutlass_mla") {
    *rule = SglangPageRule::kCutlassMla128;
    return 128;
  }
  // server_args.py (first release [inferred]: v0.5.3): the backend SGLang picks when none is
  // given (engines/sglang/attention_backend.h, the one owner) may be a 64-token-page one:
  // trtllm_mla (MLA on SM100) or trtllm_mha (GPT-OSS on SM100).
  if (a.attention_backend.empty() && version >= SglangVersionKey(0, 5, 3)) {
    const std::string backend = SglangDefaultAttentionBackend(
        gpu.compute_capability, model.attention == AttentionKind::kMla, model.architecture);
    if (backend == "trtllm_mla" || backend == "trtllm_mha") {
      *rule = SglangPageRule::kSm100Default;
      return 64;
    }
  }
  *rule = SglangPageRule::kDefault;
  return 1;
}

// The factor on mem_fraction_static for a multimodal model; 0 when none applies.
double MultimodalFactor(const SglangLaunch& l, const ModelSpec& model) {
  // Before #7748 (v0.4.9) model_runner scaled even a user value by 0.9 for
  // multimodal models; later releases adjust only the automatic value.
  const bool scales_user_value = l.version_key < SglangVersionKey(0, 4, 9);
  if (!model.multimodal || (!scales_user_value && l.args.mem_fraction_static)) return 0;
  if (l.version_key < SglangVersionKey(0, 4, 10)) return 0.90;
  // server_args.py @v0.4.10 adjust_mem_fraction_for_vlm (#6881), unchanged to
  // v0.5.9: getattr(hf_config, "vision_config", None), none (Qwen3-Omni keeps it
  // in thinker_config, Phi-3-vision has img_processor) leaves the fraction alone;
  // else getattr(vision_config, "num_hidden_layers", 24) and ("hidden_size",
  // 1024) on the loaded config class, whose Qwen VL classes name the depth
  // `depth` (so 24 is read); ViT-Large (24 x 1024) is the baseline.
  const std::optional<TowerConfigAttributes> vit = TowerConfigAsLoaded(model);
  if (!vit) return 0;
  const double layers = static_cast<double>(vit->num_hidden_layers.value_or(24));
  const double hidden = static_cast<double>(vit->hidden_size.value_or(1024));
  const double complexity = layers * hidden * hidden / (24.0 * 1024 * 1024);
  return 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
}

}  // namespace

SglangSettings SglangSettingsOf(const SglangLaunch& l, const ModelSpec& model, const GpuSpec& gpu,
                                const SglangMeasured& measured, bool explain) {
  const SglangArgs& a = l.args;
  SglangSettings s;
  SglangDefaultsInput in;
  in.version = l.version_key;
  in.explain = explain;
  in.args = &a;
  // server_args.py: _handle_gpu_memory_settings runs before the DSA overrides, so its DP
  // attention reserve reads the typed layout (engines/sglang/dsa_overrides.h).
  SglangArgs typed;
  if (l.dsa.dp_attention_forced || l.dsa.dp_forced) {
    typed = a;
    typed.dp = l.dsa.typed_dp;
    typed.enable_dp_attention = l.dsa.typed_dp_attention && l.dsa.typed_dp > 1;
    in.args = &typed;
  }
  in.model = &model;
  in.gpu_mem_mib = measured.gpu_capacity_mib.value_or(gpu.capacity_mib);
  in.is_mla = model.attention == AttentionKind::kMla;
  in.speculative = l.spec;
  s.gpu_mem_mib = in.gpu_mem_mib;
  s.defaults = l.era->defaults(in);
  if (l.dsa.mem_fraction_forced) {
    // server_args.py @v0.5.3 (dsa_overrides.cc): the DSA branch sets the fraction after the
    // defaults, whatever was typed or resolved.
    s.defaults.mem_fraction_static = l.dsa.row->mem_fraction_static;
    Rule(in, &s.defaults.mem_fraction_rule, "DeepSeek DSA/NSA forces {} ({})",
         l.dsa.row->mem_fraction_static, l.dsa.row->source);
  }
  s.mem_fraction_static = s.defaults.mem_fraction_static;
  s.multimodal_factor = MultimodalFactor(l, model);
  if (s.multimodal_factor != 0) s.mem_fraction_static *= s.multimodal_factor;
  // server_args.py _handle_data_parallelism: DP attention divides the chunk
  // (after the memory reserve was computed from the undivided value).
  s.chunked_prefill_size = s.defaults.chunked_prefill_size;
  if (a.enable_dp_attention) s.chunked_prefill_size /= a.dp;
  s.page_size = ResolvePageSize(a, model, gpu, l.version_key, &s.page_rule);
  s.context_length = a.context_length.value_or(model.max_position_embeddings);
  if (s.context_length <= 0) {
    throw InputError(
        fmt::format("model {} has no max_position_embeddings; pass --context-length", model.id));
  }
  if (l.spec) s.spec = SglangSpeculativeParams(l.version_key, model, a);
  return s;
}

}  // namespace kvplan
