#include "catalog/sharding.h"

#include <algorithm>

#include <fmt/format.h>

namespace kvplan {
namespace {

void CheckHeads(const ModelSpec& m, int atp, std::vector<std::string>& out) {
  if (m.num_attention_heads <= 0 || atp <= 0) return;
  // vllm/config.py @v0.10.0 ModelConfig.verify_with_parallel_config; SGLang
  // asserts the same in its attention modules.
  if (m.num_attention_heads % atp != 0) {
    out.push_back(fmt::format(
        "Total number of attention heads ({}) must be divisible by tensor parallel size ({}).",
        m.num_attention_heads, atp));
  }
  if (m.attention != AttentionKind::kGqa || m.num_kv_heads <= 0) return;
  // QKVParallelLinear: KV heads split when kv >= tp, else replicated (tp % kv == 0).
  bool ok = m.num_kv_heads >= atp ? m.num_kv_heads % atp == 0 : atp % m.num_kv_heads == 0;
  if (!ok) {
    out.push_back(fmt::format(
        "num_key_value_heads ({}) must divide, or be a multiple of, the attention TP size ({}).",
        m.num_kv_heads, atp));
  }
}

// Block-fp8 checkpoints need every TP shard to be whole 128x128 blocks.
void CheckFp8Blocks(const ModelSpec& m, const Parallelism& p, std::vector<std::string>& out) {
  const Quantization& q = m.quant;
  if (q.block_n <= 0 || q.block_k <= 0) return;
  // python/sglang/srt/layers/quantization/fp8.py @v0.5.3 Fp8MoEMethod.create_weights
  // (vllm/model_executor/layers/quantization/fp8.py has the same text).
  if (m.IsMoe() && q.experts_quantized) {
    int expert_tp = std::max(1, p.tp / std::max(1, p.ep));
    int per_rank = m.moe_intermediate_size / expert_tp;
    if (m.moe_intermediate_size % expert_tp != 0 || per_rank % q.block_n != 0) {
      out.push_back(
          fmt::format("The output_size of gate's and up's weight = {} is not divisible by weight "
                      "quantization block_n = {}.",
                      per_rank, q.block_n));
    }
  }
  // Fp8LinearMethod.create_weights / validate_fp8_block_shape for dense MLPs.
  bool has_dense =
      std::find(m.layer_is_moe.begin(), m.layer_is_moe.end(), false) != m.layer_is_moe.end();
  int mlp_tp = m.IsMoe() ? p.tp : p.AttentionTp();
  if (has_dense && q.dense_mlp_quantized && m.intermediate_size > 0 && mlp_tp > 0) {
    int per_rank = m.intermediate_size / mlp_tp;
    if (per_rank % q.block_n != 0) {
      out.push_back(fmt::format(
          "Weight output_partition_size = {} is not divisible by weight quantization block_n = {}.",
          per_rank, q.block_n));
    }
  }
}

}  // namespace

std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par) {
  std::vector<std::string> out;
  CheckHeads(model, par.AttentionTp(), out);
  CheckFp8Blocks(model, par, out);
  return out;
}

}  // namespace kvplan
