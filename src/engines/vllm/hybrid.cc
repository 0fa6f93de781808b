#include "engines/vllm/hybrid.h"

#include <algorithm>
#include <string_view>

#include <fmt/core.h>

#include "base/text.h"
#include "base/units.h"
#include "catalog/state_shapes.h"
#include "engines/vllm/kv_spec.h"

namespace kvplan {
namespace {

// Bytes per element of a mamba state dtype flag; "auto" is `fallback`
// (vllm/utils get_kv_cache_torch_dtype: the model dtype for the conv state).
int MambaDtypeBytes(const std::string& flag, int fallback) {
  if (flag == "float32") return 4;
  if (flag == "float16") return 2;
  return fallback;
}

// One state layer's tensors on this rank, shaped by catalog/state_shapes.h: the conv window
// in --mamba-cache-dtype ("auto": the model dtype) and the SSM / recurrent state in
// --mamba-ssm-cache-dtype ("auto": the conv dtype). Mamba2 takes the SSM flag at every release
// (mamba_utils.py _mamba_state_dtype @v0.10.2); the gated delta-net keeps both in the conv
// dtype until 0.17.0 (gated_delta_net_state_dtype @v0.10.2, @v0.17.0), and its conv window
// also keeps the speculative tokens (qwen3_next.py get_mamba_state_shape_from_config
// @v0.10.2: conv_kernel - 1 + num_spec).
// --mamba-ssm-cache-dtype as vLLM resolves it: "auto" takes the dtype the checkpoint's
// config names, for Nemotron-H (models/config.py NemotronHForCausalLMConfig: the HF config's
// mamba_ssm_cache_dtype) and Qwen3.5 (Qwen3_5ForConditionalGenerationConfig @v0.17.0:
// mamba_ssm_dtype), the configs whose field the catalog reads (ModelSpec::config_ssm_dtype).
std::string SsmDtypeFlag(const ModelSpec& m, const VllmArgs& a) {
  if (a.mamba_ssm_cache_dtype != "auto" || m.config_ssm_dtype.empty()) {
    return a.mamba_ssm_cache_dtype;
  }
  return m.config_ssm_dtype;
}

// Kimi delta attention (kda_state_dtype @v0.11.1): the q/k/v conv windows in the conv dtype
// and the recurrent state in float32 whatever the flags say; kda_state_shape @v0.11.1 takes
// num_spec but leaves the conv windows at kernel - 1.
std::vector<VllmStateTensor> StateTensors(const ModelSpec& m, const VllmArgs& a,
                                          const VllmRelease& r) {
  const HybridState hs = HybridStateShapes(m, a.tp);
  const int model_bytes = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  if (m.state_kind == StateKind::kShortConv) {
    // short_conv_state_dtype @v0.10.2: the one conv tensor in --mamba-cache-dtype.
    return {{"conv", hs.shape.ConvElements(), MambaDtypeBytes(a.mamba_cache_dtype, model_bytes)}};
  }
  if (m.state_kind == StateKind::kLightning) {
    // linear_attention_state_dtype @v0.10.1: the one state tensor in --mamba-cache-dtype
    // ("auto": the model dtype), not --mamba-ssm-cache-dtype.
    return {
        {"ssm", hs.shape.TemporalElements(), MambaDtypeBytes(a.mamba_cache_dtype, model_bytes)}};
  }
  const bool kda = m.family == "kimi_linear";
  const bool gdn = m.state_kind == StateKind::kGatedDeltaNet && !kda;
  const int64_t num_spec = gdn && a.speculative ? a.speculative->num_speculative_tokens : 0;
  const int64_t conv = hs.shape.conv_channels * (hs.shape.conv_width + num_spec);
  const int conv_bytes =
      MambaDtypeBytes(a.mamba_cache_dtype, m.dtype_bytes > 0 ? m.dtype_bytes : 2);
  int ssm_bytes =
      !gdn || r.AtLeast(0, 17, 0) ? MambaDtypeBytes(SsmDtypeFlag(m, a), conv_bytes) : conv_bytes;
  if (kda) ssm_bytes = 4;
  return {{"conv", conv, conv_bytes}, {"ssm", hs.shape.TemporalElements(), ssm_bytes}};
}

// Hybrid models whose vLLM model file is SupportsV0Only before a release of the V1 era: vLLM
// runs them on V0, whose state kvplan does not model.
struct V0OnlyUntil {
  std::string_view architecture;
  int major, minor, patch;
  std::string_view text;
};
constexpr V0OnlyUntil kV0OnlyUntil[] = {
    // minimax_text_01.py was SupportsV0Only until vllm-project/vllm#22151 (in 0.10.1).
    {"MiniMaxText01ForCausalLM", 0, 10, 1, "0.10.1"},
    {"MiniMaxM1ForCausalLM", 0, 10, 1, "0.10.1"},
    // plamo2.py @v0.10.1 is SupportsV0Only; vllm-project/vllm#23998 (2025-09-04, in 0.10.2)
    // moved it to V1.
    {"Plamo2ForCausalLM", 0, 10, 2, "0.10.2"},
};

// Why a model with state layers keeps them unmodelled at this launch ("" when modelled).
std::string NotModelledReason(const ModelSpec& m, const VllmArgs& a, const VllmRelease& r,
                              bool v1) {
  if (!v1) {
    // config.py HybridAttentionMambaModelConfig @v0.10.0 returns at once without VLLM_USE_V1.
    return "the V0 engine keeps mamba/linear-attention state outside the KV cache "
           "(not modelled)";
  }
  if (!r.AtLeast(0, 10, 0)) {
    return fmt::format(
        "vLLM {} predates the V1 hybrid attention/mamba layout (0.10.0): its "
        "linear-attention/mamba state is not modelled",
        r.text);
  }
  for (const V0OnlyUntil& row : kV0OnlyUntil) {
    if (m.architecture == row.architecture && !r.AtLeast(row.major, row.minor, row.patch)) {
      return fmt::format(
          "vLLM {} serves {} on the V0 engine only (V1 support arrived in {}): its "
          "mamba/linear-attention state is not modelled",
          r.text, m.architecture, row.text);
    }
  }
  if (m.state_kind == StateKind::kLightning) {
    if (a.mamba_cache_dtype == "float32" && !r.AtLeast(0, 20, 1)) {
      // mamba_utils.py linear_attention_state_dtype @v0.10.1 to @v0.20.0 raises this.
      return "ValueError: fp32 state for minimax is not yet supported (--mamba-cache-dtype "
             "float32; kvplan does not plan it)";
    }
  }
  const bool kda = m.family == "kimi_linear";
  if (m.attention == AttentionKind::kMla && (!kda || r.AtLeast(0, 18, 0))) {
    // From 0.18 the MLA backend's kernel block sizes decide the alignment
    // (platforms/interface.py _align_hybrid_block_size), which kvplan does not model.
    return "MLA attention with mamba/linear-attention state layers is not modelled at this "
           "release";
  }
  if (m.state_kind == StateKind::kGatedDeltaNet && m.linear_num_value_heads <= 0) {
    return "this model's state layers have no gated delta-net geometry: their state is not "
           "modelled";
  }
  return "";
}

// The attention kernel's block multiple: 16 (FlashAttention); config.py @v0.11.1 to
// @v0.17.1: 32 on compute capability 10.x with head size 256 (FlashInfer,
// flashinfer#1993), dropped in 0.18.0; platforms/interface.py _align_hybrid_block_size
// @v0.20.0: the smallest kernel block size (16) or the block size already chosen, the larger.
int64_t KernelAlignment(const ModelSpec& m, const GpuSpec& gpu, const VllmRelease& r,
                        int64_t block_size) {
  // config.py HybridAttentionMambaModelConfig @v0.11.1: MLA aligns to 64 (128 with
  // VLLM_ATTENTION_BACKEND=CUTLASS_MLA, which kvplan does not read).
  if (m.attention == AttentionKind::kMla) return 64;
  int64_t align = 16;
  bool blackwell = gpu.compute_capability >= 100 && gpu.compute_capability < 110;
  if (r.AtLeast(0, 11, 1) && !r.AtLeast(0, 18, 0) && blackwell && m.head_dim == 256) align = 32;
  if (r.AtLeast(0, 20, 0)) align = std::max(align, block_size);
  return align;
}

// kv_cache_interface.py MambaSpec.max_memory_usage_bytes @v0.15.0: one page plus one per
// speculative token (num_speculative_blocks), and one more in mamba_cache_mode "align",
// which --enable-prefix-caching selects for a model without "all" support, as the gated
// delta-net models are (models/config.py MambaModelConfig @v0.15.0; off by default for
// hybrids, config/model.py is_prefix_caching_supported). One page before 0.15.0, where
// vLLM turns prefix caching off for these models.
int64_t StatePagesPerRequest(const VllmArgs& a, const VllmRelease& release) {
  int64_t pages = 1;
  if (release.AtLeast(0, 15, 0)) {
    if (a.speculative) pages += a.speculative->num_speculative_tokens;
    if (a.enable_prefix_caching.value_or(false)) pages += 1;
  }
  return pages;
}

}  // namespace

VllmHybridBlock VllmHybridAttentionBlock(const ModelSpec& model, const GpuSpec& gpu,
                                         const VllmArgs& a, const VllmRelease& release, bool v1,
                                         int64_t block_size) {
  VllmHybridBlock h;
  if (model.NumLayersOfKind(LayerKind::kLinear) == 0) return h;
  h.block_size = block_size;
  h.not_modelled_reason = NotModelledReason(model, a, release, v1);
  if (!h.not_modelled_reason.empty()) return h;
  h.modelled = true;
  h.state = StateTensors(model, a, release);
  // kv_cache_interface.py MambaSpec.page_size_bytes @v0.10.2: sum of elements x dtype bytes.
  for (const VllmStateTensor& t : h.state) h.state_bytes += t.elements * t.dtype_bytes;
  h.attn_bytes_per_token = VllmAttentionBytesPerToken(model, a.tp, a.kv_cache_dtype);
  h.alignment = KernelAlignment(model, gpu, release, block_size);
  // config.py HybridAttentionMambaModelConfig @v0.10.2: the smallest aligned block whose
  // attention page is at least the state page.
  h.min_block_size = h.alignment * CeilDiv(h.state_bytes, h.alignment * h.attn_bytes_per_token);
  // config.py @v0.10.2: raised when unset or smaller; a larger block the user set stays.
  if (!a.block_size.has_value() || *a.block_size < h.min_block_size) {
    h.enlarged = true;
    h.block_size = h.min_block_size;
  }
  h.page_bytes = h.block_size * h.attn_bytes_per_token;
  h.pages_per_request = StatePagesPerRequest(a, release);
  h.rule = fmt::format(
      "hybrid: {} x cdiv(state page {} B, {} x {} B/token) so that the attention page holds "
      "a mamba state ({})",
      h.alignment, WithThousands(h.state_bytes), h.alignment, WithThousands(h.attn_bytes_per_token),
      release.AtLeast(0, 20, 0) ? "platforms/interface.py _align_hybrid_block_size @v0.20.0"
      : model.attention == AttentionKind::kMla
          ? "model_executor/models/config.py HybridAttentionMambaModelConfig @v0.11.1, MLA: 64"
          : "model_executor/models/config.py HybridAttentionMambaModelConfig @v0.10.2");
  return h;
}

bool VllmStateOnlyModel(const ModelSpec& model) {
  return model.num_layers > 0 && model.NumLayersOfKind(LayerKind::kLinear) == model.num_layers;
}

VllmHybridBlock VllmStateOnlyBlock(const ModelSpec& model, const VllmArgs& a,
                                   const VllmRelease& release, bool v1, int64_t max_model_len) {
  VllmHybridBlock h;
  h.state_only = true;
  h.not_modelled_reason = NotModelledReason(model, a, release, v1);
  if (h.not_modelled_reason.empty() && release.AtLeast(0, 15, 0) &&
      a.enable_prefix_caching.value_or(false)) {
    // models/config.py MambaModelConfig @v0.15.0: prefix caching gives the state blocks the
    // attention block size (mamba_cache_mode "align"), a layout kvplan does not model here.
    h.not_modelled_reason =
        "--enable-prefix-caching on a model without attention layers (mamba_cache_mode align) "
        "is not modelled";
  }
  if (!h.not_modelled_reason.empty()) return h;
  h.modelled = true;
  h.state = StateTensors(model, a, release);
  for (const VllmStateTensor& t : h.state) h.state_bytes += t.elements * t.dtype_bytes;
  // gpu_model_runner.py get_kv_cache_spec @v0.10.0: "Set block_size to max_model_len, so that
  // mamba model will always have only one block in the KV cache" (cache_config.mamba_block_size
  // = max_model_len from models/config.py MambaModelConfig @v0.11.0).
  h.min_block_size = h.block_size = max_model_len;
  h.page_bytes = h.state_bytes;
  h.pages_per_request = StatePagesPerRequest(a, release);
  h.rule =
      "no attention layers: the mamba block is max_model_len (v1/worker/gpu_model_runner.py "
      "get_kv_cache_spec @v0.10.0)";
  return h;
}

VllmSparseMlaCache VllmDeepSeekV32Cache(const ModelSpec& model, const VllmRelease& release,
                                        const std::string& kv_cache_dtype) {
  VllmSparseMlaCache c;
  c.kv_cache_dtype = kv_cache_dtype;
  if (model.index_head_dim <= 0 || !release.AtLeast(0, 11, 0)) return c;
  c.indexer = true;
  bool fp8 = kv_cache_dtype.rfind("fp8", 0) == 0 && kv_cache_dtype != "fp8_ds_mla";
  if (fp8 || (kv_cache_dtype == "auto" && !release.AtLeast(0, 11, 1))) {
    // config.py DeepseekV32ForCausalLM @v0.11.0 ("auto" or fp8), @v0.11.1 (fp8 only;
    // mla_attention.py @v0.20.1): "Using custom fp8 kv-cache format for DeepSeekV3.2".
    c.kv_cache_dtype = "fp8_ds_mla";
    c.rule = fmt::format("DeepSeek-V3.2 on vLLM {}: --kv-cache-dtype {} becomes fp8_ds_mla",
                         release.text, kv_cache_dtype);
  }
  return c;
}

std::vector<std::string> VllmHybridLogLines(const VllmHybridBlock& h) {
  std::vector<std::string> out;
  if (!h.modelled) return out;
  if (h.enlarged) {
    // config.py HybridAttentionMambaModelConfig @v0.10.2 logger.info.
    out.push_back(fmt::format(
        "Setting attention block size to {} tokens to ensure that attention page size is >= "
        "mamba page size.",
        h.block_size));
  }
  if (h.page_bytes != h.state_bytes) {
    double pct = 100.0 * static_cast<double>(h.page_bytes - h.state_bytes) /
                 static_cast<double>(h.state_bytes);
    out.push_back(fmt::format(
        "Padding mamba page size by {:.2f}% to ensure that mamba page size and attention page "
        "size are exactly equal.",
        pct));
  }
  return out;
}

}  // namespace kvplan
