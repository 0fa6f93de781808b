// The vision tower's sharding under SGLang's tensor parallelism (multimodal.h).
#include "engines/sglang/multimodal.h"

#include <string>

namespace kvplan {

int64_t SglangEncoderWeightsOvercount(const ModelSpec& m, const WeightEstimate& w, int tp) {
  if (tp <= 1) return 0;
  // python/sglang/srt/models/qwen2_5_vl.py (v0.4.x to v0.5.x) Qwen2_5_VisionBlock:
  // VisionAttention's qkv/proj and Qwen2_5_VLMLP's gate/up/down are
  // Column/RowParallelLinear, as is the patch merger's MLP; qwen2_vl.py and
  // qwen3_vl.py (Qwen3.5 and Qwen3-VL-MoE reuse it) build theirs the same way.
  // Their norms, patch embed and position table (under 1 %) are taken as split
  // too. --mm-enable-dp-encoder (v0.5.6) replicates them: budget.cc passes TP 1.
  const std::string& k = m.vision_kind;
  const bool sharded = k == "qwen2_vl" || k == "qwen2_5_vl" || k == "qwen3_vl" ||
                       k == "qwen3_vl_moe" || k == "qwen3_5" || k == "qwen3_5_moe";
  if (!sharded) return 0;
  for (const WeightPart& p : w.parts) {
    if (p.name == "vision tower") return p.bytes_per_rank - p.bytes_per_rank / tp;
  }
  return 0;
}

}  // namespace kvplan
