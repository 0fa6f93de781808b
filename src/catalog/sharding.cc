#include "catalog/sharding.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/units.h"

namespace kvplan {
namespace {

using Problems = std::vector<std::string>;

// vllm/distributed/utils.py ensure_divisibility (the same text from 2023,
// vllm-project/vllm#440, to 2025-12, gpustack/gpustack#3777; SGLang's
// python/sglang/srt/distributed/utils.py is the copy "adapted from v0.6.4.post1").
std::string NotDivisible(int64_t numerator, int64_t denominator) {
  return fmt::format("AssertionError: {} is not divisible by {}", numerator, denominator);
}

// A bare `assert` in the model code: Python prints the statement in the
// traceback and "AssertionError" with no text; kvplan adds the numbers.
std::string BareAssert(const char* statement, const std::string& numbers) {
  return fmt::format("AssertionError at `{}` ({})", statement, numbers);
}

// vllm/model_executor/layers/vocab_parallel_embedding.py _get_indices (tracebacks
// of 2024-07, vllm-project/vllm#6385, and 2025-12, gpustack/gpustack#3777;
// SGLang's layers/vocab_parallel_embedding.py @main 2026 is a copy): the padded
// vocabulary is split with divide(); the embedding is built before any layer.
void CheckVocab(const ModelSpec& m, int tp, Problems& out) {
  if (m.vocab_size <= 0 || tp <= 1) return;
  const int64_t padded = PaddedVocab(m.vocab_size);
  if (padded % tp != 0) out.push_back(NotDivisible(padded, tp));
}

// vllm/config/model.py @v0.10.0 ModelConfig.verify_with_parallel_config
// (vllm/config.py before): ValueError while the config is built, before any
// worker starts.
void CheckVllmHeads(const ModelSpec& m, int tp, Problems& out) {
  if (m.num_attention_heads <= 0 || m.num_attention_heads % tp == 0) return;
  out.push_back(fmt::format(
      "Total number of attention heads ({}) must be divisible by tensor parallel size ({}).",
      m.num_attention_heads, tp));
}

// SGLang's attention modules (python/sglang/srt/models/llama.py, qwen2.py ...,
// copies of vLLM's [inferred at v0.5.3: not read at each release]): a bare
// assert on the attention-TP size.
void CheckSglangHeads(const ModelSpec& m, int atp, Problems& out) {
  if (m.num_attention_heads <= 0 || m.num_attention_heads % atp == 0) return;
  out.push_back(BareAssert(
      "assert self.total_num_heads % tp_size == 0",
      fmt::format("{} attention heads, attention TP size {}", m.num_attention_heads, atp)));
}

// The attention modules of both engines (vllm/model_executor/models/llama.py,
// qwen2.py, mixtral.py ... LlamaAttention.__init__, in every copy read, 2024 to
// 2026 [inferred for each release]; SGLang's copies): KV heads are split when
// there are at least as many as TP ranks, else replicated (tp % kv == 0).
void CheckKvHeads(const ModelSpec& m, int atp, Problems& out) {
  if (m.attention != AttentionKind::kGqa || m.num_kv_heads <= 0 || atp <= 1) return;
  const std::string numbers = fmt::format("{} KV heads, TP size {}", m.num_kv_heads, atp);
  if (m.num_kv_heads >= atp && m.num_kv_heads % atp != 0) {
    out.push_back(BareAssert("assert self.total_num_kv_heads % tp_size == 0", numbers));
  } else if (m.num_kv_heads < atp && atp % m.num_kv_heads != 0) {
    out.push_back(BareAssert("assert tp_size % self.total_num_kv_heads == 0", numbers));
  }
}

// python/sglang/srt/layers/moe/fused_moe_triton/layer.py FusedMoE.__init__ (read
// at 2025 and 2026 commits; later ones subtract fused shared-expert slots first):
// experts split over EP, each expert's intermediate size over tp / ep.
void CheckSglangExperts(const ModelSpec& m, const Parallelism& p, Problems& out) {
  if (!m.IsMoe() || m.num_experts <= 0) return;
  const int ep = std::max(1, p.ep);
  if (m.num_experts % ep != 0) {
    out.push_back(BareAssert("assert num_experts % self.moe_ep_size == 0",
                             fmt::format("{} experts, EP size {}", m.num_experts, ep)));
    return;
  }
  const int moe_tp = std::max(1, p.tp / ep);
  if (m.moe_intermediate_size > 0 && m.moe_intermediate_size % moe_tp != 0) {
    out.push_back(BareAssert(
        "assert intermediate_size % self.moe_tp_size == 0",
        fmt::format("moe_intermediate_size {}, MoE TP size {}", m.moe_intermediate_size, moe_tp)));
  }
}

// vllm/model_executor/models/deepseek_v2.py DeepseekV2MoE.__init__ (@v0.10.0
// [inferred: the EPLB change that added it]; issue vllm-project/vllm#52435):
// with --enable-expert-parallel the routed experts split evenly over EP.
void CheckVllmExperts(const ModelSpec& m, const Parallelism& p, Problems& out) {
  if (!m.IsMoe() || p.ep <= 1 || m.family.rfind("deepseek", 0) != 0) return;
  if (m.num_experts % p.ep == 0) return;
  out.push_back(
      fmt::format("AssertionError: n_physical_experts={} must be divisible by ep_size={}. Adjust "
                  "num_redundant_experts.",
                  m.num_experts, p.ep));
}

// Block-fp8 checkpoints need every TP shard to be whole 128x128 blocks.
void CheckFp8Blocks(const ModelSpec& m, const Parallelism& p, Problems& out) {
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

// vLLM: the config check, then the model as it is built (embedding, attention,
// experts, quantized weights).
Problems VllmProblems(const ModelSpec& m, const Parallelism& p) {
  Problems out;
  CheckVllmHeads(m, p.tp, out);
  CheckVocab(m, p.tp, out);
  // The attention module's own heads assert precedes the KV one; after a heads
  // failure (already raised above) it is the one the traceback would show.
  if (m.attention == AttentionKind::kGqa && m.num_attention_heads % p.tp == 0) {
    CheckKvHeads(m, p.tp, out);
  }
  CheckVllmExperts(m, p, out);
  CheckFp8Blocks(m, p, out);
  return out;
}

// SGLang: the model as it is built. Under DP attention the input embedding is
// not split (enable_tp=not is_dp_attention_enabled() in the model files) and the
// lm_head, built last, is split over the whole TP group.
Problems SglangProblems(const ModelSpec& m, const Parallelism& p) {
  Problems out;
  const int atp = p.AttentionTp();
  if (atp <= 0) return out;  // DP larger than TP: refused by the argument checks
  if (!p.dp_attention) CheckVocab(m, p.tp, out);
  CheckSglangHeads(m, atp, out);
  if (m.num_attention_heads <= 0 || m.num_attention_heads % atp == 0) CheckKvHeads(m, atp, out);
  CheckSglangExperts(m, p, out);
  CheckFp8Blocks(m, p, out);
  if (p.dp_attention) CheckVocab(m, p.dp_lm_head ? atp : p.tp, out);
  return out;
}

// TensorRT-LLM: heads only [kvplan's words; the engine's text at the release
// is not yet checked against its source].
Problems TrtllmProblems(const ModelSpec& m, const Parallelism& p) {
  Problems out;
  if (m.num_attention_heads > 0 && m.num_attention_heads % p.tp != 0) {
    out.push_back(fmt::format("{} attention heads are not divisible by --tp_size {}",
                              m.num_attention_heads, p.tp));
  }
  return out;
}

}  // namespace

int64_t PaddedVocab(int64_t vocab_size) {
  // vocab_parallel_embedding.py DEFAULT_VOCAB_PADDING_SIZE = 64, pad_vocab_size.
  return CeilDiv(vocab_size, 64) * 64;
}

std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par,
                                          ShardingEngine engine) {
  if (par.tp <= 0) return {};
  switch (engine) {
    case ShardingEngine::kVllm:
      return VllmProblems(model, par);
    case ShardingEngine::kSglang:
      return SglangProblems(model, par);
    case ShardingEngine::kTrtllm:
      return TrtllmProblems(model, par);
  }
  return {};
}

std::vector<std::string> ShardingProblems(const ModelSpec& model, const Parallelism& par) {
  return ShardingProblems(model, par, ShardingEngine::kVllm);
}

}  // namespace kvplan
