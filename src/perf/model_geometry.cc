#include "perf/model_geometry.h"

#include <algorithm>
#include <cmath>

#include "catalog/layer_geometry.h"
#include "catalog/quantization.h"
#include "kvplan/error.h"

namespace kvplan {

double ExpectedExpertsTouched(double e, double k, double tokens) {
  if (e <= 0 || k <= 0 || tokens <= 0) return 0;
  if (k >= e) return e;
  return e * (1.0 - std::pow(1.0 - k / e, tokens));
}

double ModelGeometry::ActiveParamsPerToken() const {
  const int dense = layers - moe_layers - mlp_less_layers;
  return layers * attn_params + dense * dense_mlp_params +
         moe_layers * (top_k * expert_params + shared_expert_params + router_params);
}

namespace {

// Bytes per parameter of each part, and which GEMM rate the weights allow.
void SetBytesPerParam(const ModelSpec& m, ModelGeometry* out) {
  ModelGeometry& g = *out;
  g.dense_bytes_per_param = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  // Bytes per parameter of one part, scales included (LinearBytes over a
  // representative square matrix; the per-parameter share does not depend on it).
  const int dtype = static_cast<int>(g.dense_bytes_per_param);
  const auto per_param = [&](bool quantized) {
    if (!m.quant.IsQuantized() || !quantized) return g.dense_bytes_per_param;
    constexpr int64_t kSide = 4096;
    return static_cast<double>(LinearBytes(m.quant, true, kSide, kSide, dtype)) / (kSide * kSide);
  };
  g.attn_bytes_per_param = per_param(m.quant.attention_quantized);
  g.mlp_bytes_per_param = per_param(m.quant.dense_mlp_quantized);
  g.expert_bytes_per_param = per_param(m.quant.experts_quantized);
  g.shared_bytes_per_param = per_param(m.quant.shared_experts_quantized);
  g.weight_bytes_per_param = m.IsMoe() ? g.expert_bytes_per_param : g.mlp_bytes_per_param;
  const int bits = m.quant.IsQuantized() ? m.quant.weight_bits : 16;
  // GEMMs run at the FP8/FP4 rate only when the weights are stored so
  // (W8A8 / MXFP4 kernels); int4 weight-only kernels dequantize to bf16.
  g.fp8_compute = bits == 8 && m.quant.method != "gptq" && m.quant.method != "awq";
  g.fp4_compute = bits == 4 && m.quant.method == "mxfp4";
  g.fp8_block_scaled = g.fp8_compute && m.quant.block_n > 0 && m.quant.block_k > 0;
}

// Layers with their own heads, head sizes, MLP widths or none (catalog/layer_geometry.h):
// the per-layer figures become their means (attention and KV over all layers, the dense
// MLP over the dense layers), so that layers x figure is the model's total.
void AveragePerLayerShapes(const ModelSpec& m, ModelGeometry* g) {
  const double h = m.hidden_size;
  double attn = 0, attn_kv = 0, mlp = 0;
  int dense = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    const LayerGeometry l = LayerGeometryAt(m, i);
    if (LayerHasAttention(m, i) && l.kv != LayerKv::kNone) {
      attn += h * l.q_heads * l.head_dim + h * l.kv_heads * (l.head_dim + l.v_head_dim) +
              static_cast<double>(l.q_heads) * l.v_head_dim * h;
      attn_kv += h * l.kv_heads * (l.head_dim + l.v_head_dim);
    }
    const bool moe = i < static_cast<int>(m.layer_is_moe.size()) && m.layer_is_moe[i];
    if (!moe) mlp += 3.0 * h * static_cast<double>(l.mlp_intermediate), ++dense;
  }
  const double layers = std::max(1, m.num_layers);
  g->attn_params = attn / layers;
  g->attn_kv_params = attn_kv / layers;
  g->dense_mlp_params = dense > 0 ? mlp / dense : g->dense_mlp_params;
  g->kv_elems_per_token =
      static_cast<double>(KvBytesPerTokenOfLayers(m, 0, m.num_layers, 1, 1)) / layers;
}

}  // namespace

ModelGeometry MakeGeometry(const ModelSpec& m) {
  if (!m.compress_ratios.empty()) {
    // DeepSeek-V4's attention reads a sliding window plus compressed (and, on c4 layers,
    // indexer-selected) KV: the step-time model has no such kernel, so it says so.
    throw InputError("kvplan: the step-time model does not model " + m.architecture +
                     "'s compressed sparse attention (sliding window + c4/c128 KV)");
  }
  ModelGeometry g;
  g.layers = m.num_layers;
  g.hidden = m.hidden_size;
  g.vocab = static_cast<double>(m.vocab_size);
  g.heads = m.num_attention_heads;
  const double h = m.hidden_size;
  const double hd =
      m.head_dim > 0 ? m.head_dim : (m.num_attention_heads > 0 ? h / m.num_attention_heads : 0);
  const double vhd = m.v_head_dim > 0 ? m.v_head_dim : hd;
  if (m.attention == AttentionKind::kMla) {
    g.mla = true;
    g.kv_heads = 1;
    const double qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
    const double q =
        m.q_lora_rank > 0 ? h * m.q_lora_rank + m.q_lora_rank * g.heads * qk : h * g.heads * qk;
    const double kv = h * (m.kv_lora_rank + m.qk_rope_head_dim) +
                      m.kv_lora_rank * g.heads * (m.qk_nope_head_dim + vhd);
    g.attn_params = q + kv + g.heads * vhd * h;
    // deepseek_v2.py DeepseekV2AttentionMLA: q_a_proj and kv_a_proj_with_mqa are replicated.
    g.attn_replicated_params =
        (m.q_lora_rank > 0 ? h * m.q_lora_rank : 0) + h * (m.kv_lora_rank + m.qk_rope_head_dim);
    // Absorbed MLA decode: scores over latent+rope, values over the latent.
    g.attn_flops_per_ctx =
        2.0 * g.heads * (m.kv_lora_rank + m.qk_rope_head_dim) + 2.0 * g.heads * m.kv_lora_rank;
    g.kv_elems_per_token = m.kv_lora_rank + m.qk_rope_head_dim;
    g.kv_heads_for_split = 0;
    g.attn_qk_dim = m.kv_lora_rank + m.qk_rope_head_dim;
  } else {
    g.kv_heads = m.num_kv_heads > 0 ? m.num_kv_heads : m.num_attention_heads;
    g.attn_params = h * g.heads * hd + 2.0 * h * g.kv_heads * hd + g.heads * vhd * h;
    g.attn_kv_params = 2.0 * h * g.kv_heads * hd;
    g.attn_flops_per_ctx = 2.0 * g.heads * hd + 2.0 * g.heads * vhd;
    g.kv_elems_per_token = g.kv_heads * (hd + vhd);
    g.kv_heads_for_split = g.kv_heads;
    g.attn_qk_dim = hd;
  }
  g.dense_mlp_params = 3.0 * h * m.intermediate_size;
  if (m.IsMoe()) {
    g.num_experts = m.num_experts;
    g.top_k = m.experts_per_token;
    g.expert_params = 3.0 * h * m.moe_intermediate_size;
    g.shared_expert_params = 3.0 * h *
                             (m.num_shared_experts * static_cast<double>(m.moe_intermediate_size) +
                              m.shared_expert_intermediate_size);
    g.router_params = h * m.num_experts;
    int moe = 0;
    for (int i = 0; i < m.num_layers; ++i) {
      const bool is_moe = i < static_cast<int>(m.layer_is_moe.size()) ? m.layer_is_moe[i]
                                                                      : i >= m.first_k_dense_layers;
      moe += is_moe ? 1 : 0;
    }
    g.moe_layers = moe;
  }
  for (LayerKind k : m.layer_kinds) {
    if (k == LayerKind::kSliding || k == LayerKind::kChunked) ++g.sliding_layers;
    if (k == LayerKind::kLinear) ++g.linear_layers;
  }
  for (bool has_mlp : m.layer_has_mlp) g.mlp_less_layers += has_mlp ? 0 : 1;
  g.sliding_window = m.sliding_window;
  g.embed_params = g.vocab * h;
  if (HasPerLayerGeometry(m) && m.attention == AttentionKind::kGqa) AveragePerLayerShapes(m, &g);
  SetBytesPerParam(m, &g);
  return g;
}

}  // namespace kvplan
