#include "engines/common/runtime_estimates.h"

#include <algorithm>

#include "base/units.h"

namespace kvplan {

int64_t DecoderActivationPerToken(const ModelSpec& m, int tp) {
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  const int64_t h = m.hidden_size;
  int64_t attn = 0;
  if (m.attention == AttentionKind::kMla) {
    int64_t qk = m.qk_nope_head_dim + m.qk_rope_head_dim;
    attn = m.num_attention_heads / tp * (qk + m.v_head_dim) + m.kv_lora_rank + m.qk_rope_head_dim;
  } else {
    int64_t kv = std::max<int64_t>(1, m.num_kv_heads / tp);
    attn = (m.num_attention_heads / tp + 2 * kv) * m.head_dim;
  }
  // Dense MLP: gate_up (2I) and the activation output (I).
  int64_t dense = 3 * static_cast<int64_t>(m.intermediate_size) / tp;
  int64_t mlp = m.IsMoe() && m.first_k_dense_layers == 0 ? 0 : dense;
  if (m.IsMoe()) {
    // vLLM fused_moe @v0.10: cache1/cache3 share one buffer of max(2N, K) per
    // routed token, cache2 holds N; N = moe_intermediate / tp.
    int64_t n = static_cast<int64_t>(m.moe_intermediate_size) / tp;
    int64_t moe = m.experts_per_token * (std::max(2 * n, h) + n);
    int64_t shared = 3 *
                     static_cast<int64_t>(m.shared_expert_intermediate_size +
                                          m.num_shared_experts * m.moe_intermediate_size) /
                     tp;
    mlp = std::max(mlp, moe + shared);
  }
  return dt * (2 * h + attn + mlp);
}

int64_t EstimateCudaContext() { return 500 * kMiB; }

int64_t EstimateNvlsBuffers(int gpus_per_replica, const GpuSpec& gpu) {
  if (gpus_per_replica < 2 || gpu.link != LinkKind::kNvlink || gpu.nvlink_generation < 4) return 0;
  return 2415919104;
}

}  // namespace kvplan
