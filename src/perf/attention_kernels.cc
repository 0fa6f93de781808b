#include "perf/attention_kernels.h"

namespace kvplan {

ExtendAttention SglangExtendAttention(int cc, bool mla, const std::string& backend) {
  // Only the kernel matters here, and the architecture-specific defaults
  // (trtllm_mha for GPT-OSS on SM100) all split the KV cache.
  const std::string chosen = SglangAttentionBackend(cc, mla, "", backend);
  return chosen == "triton" ? ExtendAttention::kTritonPerHead : ExtendAttention::kSplitKv;
}

int TritonExtendBlockM(int cc, double qk_dim) {
  // triton_ops/extend_attention.py _get_block_sizes_for_extend_attention:
  // capability >= 9: Lq <= 256 -> (128, 64) else (32, 64); sm86/sm89 (100 KB
  // shared memory): Lq <= 256 -> 64 else 32; sm80: Lq <= 128 -> 128,
  // <= 256 -> 64, else 32; older: Lq <= 128 -> 64 else 32.
  if (cc >= 90) return qk_dim <= 256 ? 128 : 32;
  if (cc == 86 || cc == 89) return qk_dim <= 256 ? 64 : 32;
  if (cc >= 80) return qk_dim <= 128 ? 128 : (qk_dim <= 256 ? 64 : 32);
  return qk_dim <= 128 ? 64 : 32;
}

}  // namespace kvplan
