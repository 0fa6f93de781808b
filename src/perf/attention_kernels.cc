#include "perf/attention_kernels.h"

#include <algorithm>
#include <vector>

#include "kvplan/error.h"

namespace kvplan {

void CheckSglangAttentionBackend(const std::string& backend) {
  // server_args.py @v0.5.6 ATTENTION_BACKEND_CHOICES (the CUDA and ROCm ones).
  static const std::vector<std::string> kKnown = {
      "triton",     "torch_native", "flex_attention",
      "nsa",        "cutlass_mla",  "fa3",
      "fa4",        "flashinfer",   "flashmla",
      "trtllm_mla", "trtllm_mha",   "dual_chunk_flash_attn",
      "aiter",      "wave"};
  if (!backend.empty() && std::find(kKnown.begin(), kKnown.end(), backend) == kKnown.end()) {
    std::string list;
    for (const std::string& b : kKnown) list += (list.empty() ? "" : ", ") + b;
    throw InputError("unknown SGLang --attention-backend '" + backend + "' (expected " + list +
                     ")");
  }
}

ExtendAttention SglangExtendAttention(int cc, bool mla, const std::string& backend) {
  CheckSglangAttentionBackend(backend);
  if (backend == "triton") return ExtendAttention::kTritonPerHead;
  if (!backend.empty()) return ExtendAttention::kSplitKv;
  // server_args.py @v0.5.14 _get_default_attn_backend (MLA branch): Hopper -> fa3,
  // SM100 -> trtllm_mla, else "triton".
  if (!mla) return ExtendAttention::kSplitKv;
  if (cc == 90 || cc == 100 || cc == 103) return ExtendAttention::kSplitKv;
  return cc > 0 ? ExtendAttention::kTritonPerHead : ExtendAttention::kSplitKv;
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
