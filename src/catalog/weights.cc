// EstimateWeights: parameters and bytes of each part of a model, in total and
// on the largest rank, following how SGLang and vLLM shard each layer.
#include "catalog/weights.h"

#include <algorithm>
#include <array>

#include "base/checked_math.h"
#include "base/units.h"
#include "catalog/allocator_rounding.h"
#include "catalog/gemma_weights.h"
#include "catalog/layer_geometry.h"
#include "catalog/quantization.h"
#include "catalog/vision_towers.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Every product and sum of config figures is checked: a config inside the
// parser's per-key bounds can still multiply past int64 (heads x head_dim x
// hidden x layers), which printed negative sizes.
constexpr std::string_view kWhat = "the model's weight bytes (from its config.json)";
int64_t Mul(int64_t a, int64_t b) { return CheckedMul(a, b, kWhat); }
int64_t Add(int64_t a, int64_t b) { return CheckedAdd(a, b, kWhat); }

enum Part {
  kEmbedding,
  kVision,
  kDraftFc,
  kAttention,
  kLinearAttention,
  kDenseMlp,
  kExperts,
  kSharedExperts,
  kRouter,
  kPerLayerInput,  // Gemma-3n / Gemma-4 (catalog/gemma_weights.h)
  kAltupLaurel,
  kNorms,
  kLmHead,
  kHyperConnections,
  kNumParts
};

// Names and sharding labels stay within 15 characters so that std::string
// keeps them inline (EstimateWeights runs inside every plan).
constexpr std::array<const char*, kNumParts> kPartNames = {
    "embedding",      "vision tower", "draft fc",       "attention", "linear attn",
    "dense mlp",      "experts",      "shared experts", "router",    "per-layer input",
    "altup + laurel", "norms",        "lm_head",        "hyper-conn"};

struct Cost {
  Cost() = default;
  Cost(int64_t p, int64_t b, int64_t r, AllocatorSlack s = {})
      : params(p), bytes(b), rank_bytes(r), slack(s) {}
  int64_t params = 0;
  int64_t bytes = 0;       // as stored, whole model
  int64_t rank_bytes = 0;  // on one rank
  AllocatorSlack slack;    // the caching allocator's rounding of the rank's tensors
  Cost& operator+=(const Cost& o) {
    params = Add(params, o.params);
    bytes = Add(bytes, o.bytes);
    rank_bytes = Add(rank_bytes, o.rank_bytes);
    slack += o.slack;
    return *this;
  }
  // The rank holds this part as one tensor of rank_bytes (a fused projection).
  void OneRankTensor() { slack = TensorAllocatorSlack(rank_bytes); }
  // No rank holds it (borrowed from the target model, or tied).
  void NotOnRank() { rank_bytes = 0, slack = {}; }
};
using Costs = std::array<Cost, kNumParts>;

// What one rank holds of the tensors of a layer.
struct Shards {
  int attn_tp;      // attention heads split this many ways
  int kv_per_rank;  // K/V heads a rank holds: max(1, kv / attn_tp)
  int mlp_tp;       // dense MLP split
  int shared_tp;    // MoE dense parts (shared experts, DeepSeek first dense layers)
  int expert_ep;    // experts spread over this many ranks
  int expert_tp;    // each expert's matrices split this many ways
};

class Estimator {
 public:
  Estimator(const ModelSpec& m, const Parallelism& p) : m_(m), p_(p) {
    const int atp = p.AttentionTp();
    s_.attn_tp = atp;
    s_.kv_per_rank = m.num_kv_heads >= atp ? m.num_kv_heads / atp : 1;
    // Dense models under DP attention are replicated per DP group; MoE models
    // keep their dense MLPs on the full TP group (SGLang moe_dense_tp_size
    // default None = tp: python/sglang/srt/models/deepseek_v2.py @v0.5.3).
    s_.mlp_tp = m.IsMoe() ? p.tp : atp;
    s_.shared_tp = p.tp;
    // SGLang: moe_ep_size * moe_tp_size == tp (ep <= tp); vLLM
    // --enable-expert-parallel: ep == tp * dp and no TP inside an expert.
    s_.expert_ep = std::max(1, p.ep);
    s_.expert_tp = std::max(1, p.tp / s_.expert_ep);
    expert_quant_ = ExpertQuantization(m);
  }

  // How the routed experts are stored: the checkpoint's method, except DeepSeek-V4's
  // expert_dtype "fp4" (MXFP4 e2m1 with a ue8m0 scale per 32 values beside fp8-block linears:
  // vLLM deepseek_v4.py DeepseekV4FP8Config, Mxfp4MoEMethod).
  static Quantization ExpertQuantization(const ModelSpec& m) {
    if (m.compress_ratios.empty() || m.expert_dtype != "fp4" || !m.quant.IsQuantized()) {
      return m.quant;
    }
    Quantization q = m.quant;
    q.method = "mxfp4", q.format = "e2m1";
    q.weight_bits = 4, q.group_size = 32, q.scale_bytes = 1, q.block_n = q.block_k = 0;
    return q;
  }

  // A linear layer [out x in] whose output (or input) dimension is split `split` ways.
  Cost Linear(int64_t out, int64_t in, bool quantized, int64_t split) const {
    return LinearOf(m_.quant, out, in, quantized, split);
  }
  Cost LinearOf(const Quantization& q, int64_t out, int64_t in, bool quantized,
                int64_t split) const {
    int64_t bytes = LinearBytes(q, quantized, out, in, m_.dtype_bytes);
    const int64_t rank = CeilDiv(bytes, split);
    return Cost{Mul(out, in), bytes, rank, TensorAllocatorSlack(rank)};
  }
  // A 1-D tensor (bias, norm) in the model dtype.
  Cost Vector(int64_t n, int64_t split, int elem_bytes = 0) const {
    int64_t bytes = Mul(n, elem_bytes > 0 ? elem_bytes : m_.dtype_bytes);
    return Cost{n, bytes, CeilDiv(bytes, split)};
  }

  // One layer's q/k/v/o with that layer's heads and head sizes (layer_geometry.h).
  void GqaAttention(Costs& c, const LayerGeometry& g) const {
    const int64_t h = m_.hidden_size, hd = g.head_dim, vhd = g.v_head_dim, heads = g.q_heads;
    const int64_t kv = g.kv_heads;
    const int64_t kv_per_rank = kv >= s_.attn_tp ? kv / s_.attn_tp : 1;
    const int64_t in = m_.draft_kind == "eagle3" ? 2 * h : h;  // EAGLE-3 attends over [emb, hidden]
    const int64_t q_out = Mul(heads, hd) * (m_.attention_output_gate ? 2 : 1);
    const bool qz = m_.quant.attention_quantized;
    Cost& a = c[kAttention];
    Cost qkv = Linear(q_out, in, qz, s_.attn_tp);
    // K/V heads are replicated when kv < attention TP (QKVParallelLinear):
    // each rank keeps kv_per_rank heads' weights.
    if (kv > 0) {  // hand-built specs may leave the geometry empty
      for (int64_t dim : {hd, vhd}) {
        Cost kv_proj = Linear(kv * dim, in, qz, 1);
        kv_proj.rank_bytes = kv_proj.bytes / kv * kv_per_rank;
        qkv += kv_proj;
      }
    }
    qkv.OneRankTensor();  // q, k and v are one qkv_proj tensor on a rank
    a += qkv;
    if (kv <= 0) return;
    a += Linear(h, heads * vhd, qz, s_.attn_tp);
    if (m_.attention_bias) {
      a += Vector(q_out, s_.attn_tp);
      Cost kb = Vector(kv * (hd + vhd), 1);
      kb.rank_bytes = kb.bytes / kv * kv_per_rank;
      a += kb;
    }
    if (m_.o_proj_bias) a += Vector(h, 1);
    // PLaMo-2 (plamo2.py Plamo2AttentionMixer @v0.10.2): a q_norm weight per query head (split
    // by head) and a k_norm weight per K/V head; one head_dim vector each elsewhere.
    if (m_.qk_norm && m_.family == "plamo2") {
      a += Vector(heads * hd, s_.attn_tp);
      a += Vector(kv * hd, 1);
    } else if (m_.qk_norm) {
      a += Vector(2 * hd, 1);
    }
    if (m_.attention_sinks) a += Vector(heads, s_.attn_tp);
  }

  // DeepSeek MLA: the down-projections (q_a, kv_a) are ReplicatedLinear; the
  // up-projections and o_proj split by attention TP
  // (python/sglang/srt/models/deepseek_v2.py @v0.5.3 DeepseekV2AttentionMLA).
  void MlaAttention(Costs& c) const {
    const int64_t h = m_.hidden_size, heads = m_.num_attention_heads;
    const int64_t qk = m_.qk_nope_head_dim + m_.qk_rope_head_dim;
    const bool qz = m_.quant.attention_quantized;
    Cost& a = c[kAttention];
    if (m_.q_lora_rank > 0) {
      a += Linear(m_.q_lora_rank, h, qz, 1);
      a += Vector(m_.q_lora_rank, 1);
      a += Linear(heads * qk, m_.q_lora_rank, qz, s_.attn_tp);
    } else {
      a += Linear(heads * qk, h, qz, s_.attn_tp);
    }
    a += Linear(m_.kv_lora_rank + m_.qk_rope_head_dim, h, qz, 1);
    a += Vector(m_.kv_lora_rank, 1);
    a += Linear(heads * (m_.qk_nope_head_dim + m_.v_head_dim), m_.kv_lora_rank, qz, s_.attn_tp);
    a += Linear(h, heads * m_.v_head_dim, qz, s_.attn_tp);
    if (m_.index_head_dim > 0) {
      // DeepSeek-V3.2 indexer (replicated): wq_b, wk, k_norm (weight + bias), weights_proj.
      const int64_t q_in = m_.q_lora_rank > 0 ? m_.q_lora_rank : h;
      a += Linear(int64_t{m_.index_n_heads} * m_.index_head_dim, q_in, qz, 1);
      a += Linear(m_.index_head_dim, h, qz, 1);
      a += Vector(2 * int64_t{m_.index_head_dim}, 1);
      a += Linear(m_.index_n_heads, h, false, 1);
    }
  }

  // DeepSeek-V4 attention (vLLM models/deepseek_v4.py DeepseekV4Attention @023da1f): wq_a and
  // wkv fused and replicated, wq_b and the grouped low-rank output (wo_a, wo_b) split by
  // attention TP, float32 sinks; a compressor where the layer compresses and, on c4 layers,
  // the indexer with a compressor of its own (layers/deepseek_v4_attention.py @0a291a2).
  void Dsv4Attention(Costs& c, int layer) const {
    const int64_t h = m_.hidden_size, heads = m_.num_attention_heads, hd = m_.head_dim;
    const int64_t q = m_.q_lora_rank, groups = m_.o_groups, o = m_.o_lora_rank;
    const bool qz = m_.quant.attention_quantized;
    Cost& a = c[kAttention];
    a += Linear(q + hd, h, qz, 1);                                     // fused_wqa_wkv
    a += Vector(q + hd, 1);                                            // q_norm, kv_norm
    a += Linear(Mul(heads, hd), q, qz, s_.attn_tp);                    // wq_b
    a += Linear(groups * o, Mul(heads, hd) / groups, qz, s_.attn_tp);  // wo_a
    a += Linear(h, groups * o, qz, s_.attn_tp);                        // wo_b
    a += Vector(heads, s_.attn_tp, 4);                                 // attn_sink
    // An MTP draft's layer (past the list) has the window alone, as the config's trailing 0.
    const size_t i = static_cast<size_t>(layer);
    const int ratio = i < m_.compress_ratios.size() ? m_.compress_ratios[i] : 0;
    if (ratio > 0) a += Dsv4Compressor(ratio, hd);
    if (ratio == 4) {
      const int64_t ih = m_.index_n_heads, id = m_.index_head_dim;
      a += Linear(ih * id, q, qz, 1);  // indexer wq_b (replicated)
      a += Linear(ih, h, false, 1);    // weights_proj (quant_config=None)
      a += Vector(2 * id, 1);          // k_norm (LayerNorm)
      a += Dsv4Compressor(4, id);
    }
  }

  // layers/deepseek_compressor.py @0de10a2 DeepseekCompressor: the kv and gate projections
  // (quant_config=None, replicated), ape (float32, one row per position in the window) and
  // the norm; c4 windows overlap, doubling the projections (coff 2).
  Cost Dsv4Compressor(int ratio, int64_t dim) const {
    const int64_t coff = ratio == 4 ? 2 : 1;
    Cost k = Linear(2 * coff * dim, m_.hidden_size, false, 1);  // fused_wkv_wgate
    k += Vector(ratio * coff * dim, 1, 4);                      // ape
    k += Vector(dim, 1);                                        // norm
    return k;
  }

  // DeepSeek-V4's manifold-constrained hyper-connections (deepseek_v4.py DeepseekV4DecoderLayer):
  // before attention and before the FFN a float32 (2 + hc) x hc mix from the hc x hidden
  // residual streams, its base and three scales; replicated.
  Cost Dsv4HyperConnections() const {
    const int64_t hc = m_.hc_mult, mix = (2 + hc) * hc;
    return Vector(2 * (Mul(mix, hc * m_.hidden_size) + mix + 3), 1, 4);
  }

  // Mamba2 mixer (transformers GraniteMoeHybridMambaLayer): in_proj to
  // z, x, B, C and dt; conv1d over x, B, C; per-head dt_bias, A_log, D; a
  // gated RMSNorm; out_proj. Head-parallel except the norm (approximated as split).
  void Mamba2Mixer(Costs& c) const {
    const int64_t h = m_.hidden_size, inter = m_.mamba_intermediate_size;
    const int64_t heads = m_.mamba_num_heads;
    const int64_t conv_dim = inter + 2 * int64_t{m_.mamba_n_groups} * m_.mamba_state_size;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(inter + conv_dim + heads, h, qz, tp);  // in_proj
    a += Linear(h, inter, qz, tp);                     // out_proj
    if (m_.mamba_proj_bias) a += Vector(inter + conv_dim + heads + h, tp);
    a += Vector(Mul(conv_dim, m_.mamba_conv_kernel), tp);  // conv1d
    if (m_.mamba_conv_bias) a += Vector(conv_dim, tp);
    a += Vector(3 * heads, tp);                       // dt_bias, A_log, D
    if (m_.mamba_gated_norm) a += Vector(inter, tp);  // gated RMSNorm
  }

  // Mamba-1 mixer (transformers JambaMambaMixer / MambaMixer): in_proj to x and z, a
  // depthwise conv1d, x_proj to dt, B and C, dt_proj back to the channels, A_log
  // (channels x state), D; Jamba's dt / B / C RMSNorms. Channel-parallel.
  void Mamba1Mixer(Costs& c) const {
    const int64_t h = m_.hidden_size, inter = m_.mamba_intermediate_size;
    const int64_t rank = m_.mamba_dt_rank, state = m_.mamba_state_size;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(2 * inter, h, qz, tp);  // in_proj
    a += Linear(h, inter, qz, tp);      // out_proj
    if (m_.mamba_proj_bias) a += Vector(2 * inter + h, tp);
    a += Vector(Mul(inter, m_.mamba_conv_kernel), tp);  // conv1d
    if (m_.mamba_conv_bias) a += Vector(inter, tp);
    a += Linear(rank + 2 * state, inter, qz, tp);  // x_proj
    a += Linear(inter, rank, qz, tp);              // dt_proj
    a += Vector(inter, tp);                        // dt_proj bias
    a += Vector(Mul(inter, state) + inter, tp);    // A_log, D
    if (m_.mamba_inner_norms) a += Vector(rank + 2 * state, 1);
  }

  // PLaMo-2's mixer (vLLM models/plamo2.py Plamo2MambaMixer @v0.10.2), channel-parallel:
  // in_proj to gate and x (2 x intermediate), a depthwise conv1d without bias, bcdt_proj to B, C
  // and dt (2 x state + rank), dt_proj to one dt per head, A (float32), D and dt_bias per head,
  // out_proj; dt_norm, B_norm and C_norm (replicated).
  void Plamo2Mixer(Costs& c) const {
    const int64_t h = m_.hidden_size, inter = m_.mamba_intermediate_size;
    const int64_t heads = m_.mamba_num_heads, rank = m_.mamba_dt_rank;
    const int64_t state = m_.mamba_state_size;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(2 * inter, h, qz, tp);                  // in_proj
    a += Vector(Mul(inter, m_.mamba_conv_kernel), tp);  // conv1d
    a += Linear(rank + 2 * state, inter, qz, tp);       // bcdt_proj
    a += Linear(heads, rank, qz, tp);                   // dt_proj
    a += Vector(heads, tp, 4);                          // A, float32
    a += Vector(2 * heads, tp);                         // D, dt_bias
    a += Linear(h, inter, qz, tp);                      // out_proj
    a += Vector(rank + 2 * state, 1);                   // dt_norm, B_norm, C_norm
  }

  // Kimi delta attention (vLLM layers/kda.py KimiDeltaAttention @v0.11.1): column-parallel
  // q/k/v projections, each with a depthwise short conv1d (no bias); the forget (f) and
  // output-gate (g) projections as a replicated hidden -> head_dim down-projection and a
  // column-parallel up-projection; beta (b_proj, one per head); float32 A_log per head and
  // dt_bias per channel; a per-head-dim RMSNorm (o_norm); a row-parallel o_proj.
  void KdaMixer(Costs& c) const {
    const int64_t h = m_.hidden_size, hd = m_.linear_value_head_dim;
    const int64_t heads = m_.linear_num_value_heads, proj = heads * hd;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(3 * proj, h, qz, tp);                           // q_proj, k_proj, v_proj
    a += Vector(Mul(3 * proj, m_.linear_conv_kernel_dim), tp);  // q/k/v conv1d
    for (int gate = 0; gate < 2; ++gate) {                      // f_a/f_b, g_a/g_b
      a += Linear(hd, h, false, 1);
      a += Linear(proj, hd, false, tp);
    }
    a += Linear(heads, h, false, tp);  // b_proj
    a += Vector(heads, tp, 4);         // A_log
    a += Vector(proj, tp, 4);          // dt_bias
    a += Vector(hd, 1);                // o_norm
    a += Linear(h, proj, qz, tp);      // o_proj
  }

  // LFM2's gated short convolution (vLLM layers/mamba/short_conv.py ShortConv @v0.10.2):
  // in_proj to B, C and x (3 x conv_dim, column-parallel), a depthwise conv of
  // conv_L_cache taps (column-parallel), out_proj (row-parallel); biases with conv_bias.
  void ShortConvMixer(Costs& c) const {
    const int64_t h = m_.hidden_size, dim = m_.mamba_intermediate_size;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(3 * dim, h, qz, tp);                   // in_proj
    a += Vector(Mul(dim, m_.mamba_conv_kernel), tp);   // conv
    a += Linear(h, dim, qz, tp);                       // out_proj
    if (m_.mamba_conv_bias) a += Vector(4 * dim, tp);  // in_proj and conv biases
    if (m_.mamba_conv_bias) a += Vector(h, 1);         // out_proj bias
  }

  // MiniMax lightning attention (vLLM models/minimax_text_01.py
  // MiniMaxText01LinearAttention @v0.10.2): column-parallel qkv_proj and output_gate, an
  // RMSNorm over the rank's heads (MiniMaxText01RMSNormTP), a row-parallel out_proj; no biases.
  void LightningMixer(Costs& c) const {
    const int64_t h = m_.hidden_size;
    const int64_t proj = int64_t{m_.linear_num_value_heads} * m_.linear_value_head_dim;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(3 * proj, h, qz, tp);  // qkv_proj
    a += Linear(proj, h, qz, tp);      // output_gate
    a += Vector(proj, tp);             // norm
    a += Linear(h, proj, qz, tp);      // out_proj
  }

  // Qwen3-Next gated delta-net; all head-parallel except the norm.
  void LinearAttention(Costs& c) const {
    if (m_.family == "plamo2") return Plamo2Mixer(c);
    if (m_.state_kind == StateKind::kMamba2) return Mamba2Mixer(c);
    if (m_.state_kind == StateKind::kMamba1) return Mamba1Mixer(c);
    if (m_.state_kind == StateKind::kShortConv) return ShortConvMixer(c);
    if (m_.state_kind == StateKind::kLightning) return LightningMixer(c);
    if (m_.family == "kimi_linear") return KdaMixer(c);
    const int64_t h = m_.hidden_size;
    const int64_t key_dim = int64_t{m_.linear_num_key_heads} * m_.linear_key_head_dim;
    const int64_t value_dim = int64_t{m_.linear_num_value_heads} * m_.linear_value_head_dim;
    const bool qz = m_.quant.attention_quantized;
    const int tp = s_.attn_tp;
    Cost& a = c[kLinearAttention];
    a += Linear(2 * key_dim + 2 * value_dim, h, qz, tp);                       // in_proj_qkvz
    a += Linear(2 * int64_t{m_.linear_num_value_heads}, h, false, tp);         // in_proj_ba
    a += Vector(Mul(2 * key_dim + value_dim, m_.linear_conv_kernel_dim), tp);  // conv1d
    a += Vector(2 * int64_t{m_.linear_num_value_heads}, tp);                   // dt_bias, A_log
    a += Vector(m_.linear_value_head_dim, 1);                                  // gated RMSNorm
    a += Linear(h, value_dim, qz, tp);                                         // out_proj
  }

  void DenseMlp(Costs& c, int64_t inter, int tp, bool qz, Part part) const {
    const int64_t h = m_.hidden_size;
    const int64_t up = (m_.gated_mlp ? 2 : 1) * inter;
    Cost& d = c[part];
    d += Linear(up, h, qz, tp);     // gate_proj + up_proj (up only when not gated)
    d += Linear(h, inter, qz, tp);  // down_proj
    if (m_.mlp_bias) {
      d += Vector(up, tp);
      d += Vector(h, 1);
    }
  }

  // One of Zamba2's shared blocks, stored once however many layers apply it (vLLM
  // models/zamba2.py Zamba2AttentionDecoderLayer @v0.11.0): an RMSNorm over the 2 x hidden
  // input, qkv_proj (as many K/V heads as query heads) and o_proj of attention_hidden_size
  // (2 x hidden), the pre-MLP RMSNorm, and a GELU gate/up + down MLP (biases with
  // add_bias_linear).
  void Zamba2SharedBlock(Costs& c) const {
    const int64_t h = m_.hidden_size, width = 2 * h;
    const bool qz = m_.quant.attention_quantized;
    c[kAttention] += Linear(3 * width, width, qz, s_.attn_tp);  // qkv_proj
    c[kAttention] += Linear(h, width, qz, s_.attn_tp);          // o_proj
    c[kNorms] += Vector(width + h, 1);                          // input, pre_ff norms
    DenseMlp(c, m_.intermediate_size, s_.mlp_tp, m_.quant.dense_mlp_quantized, kDenseMlp);
  }

  // What each application of a shared block adds (zamba2.py Zamba2HybridLayer and
  // Zamba2LoRA @v0.11.0): a replicated hidden x hidden linear after the block, the MLP's
  // gate/up adapter (A: hidden -> rank, B: rank -> 2 x intermediate, both column-parallel)
  // and, with use_shared_attention_adapter, q/k/v adapters (2 x hidden -> rank -> 2 x hidden).
  void Zamba2Application(Costs& c) const {
    const int64_t h = m_.hidden_size, rank = m_.adapter_rank, width = 2 * h;
    c[kAttention] += Linear(h, h, m_.quant.attention_quantized, 1);  // linear
    const bool mz = m_.quant.dense_mlp_quantized;
    c[kDenseMlp] += Linear(rank, h, mz, s_.mlp_tp);
    c[kDenseMlp] += Linear(2 * int64_t{m_.intermediate_size}, rank, mz, s_.mlp_tp);
    if (!m_.shared_attention_adapter) return;
    for (int qkv = 0; qkv < 3; ++qkv) {
      c[kAttention] += Linear(rank, width, m_.quant.attention_quantized, s_.attn_tp);
      c[kAttention] += Linear(width, rank, m_.quant.attention_quantized, s_.attn_tp);
    }
  }

  // The tensors Gemma-3n / Gemma-4 add (catalog/gemma_weights.h), unquantized, each split
  // as the engines split it; the per-layer embedding table like the token embedding.
  void AddGemmaTensors(Costs& c, const std::vector<GemmaTensor>& tensors) const {
    for (const GemmaTensor& t : tensors) {
      const Part part = t.part == GemmaPart::kRouter          ? kRouter
                        : t.part == GemmaPart::kPerLayerInput ? kPerLayerInput
                                                              : kAltupLaurel;
      if (t.split == GemmaSplit::kVocab) {
        const int64_t bytes = Mul(Mul(t.rows, t.cols), m_.dtype_bytes);
        const int64_t rank_rows = CeilDiv(CeilDiv(t.rows, 64) * 64, p_.dp_attention ? 1 : p_.tp);
        const int64_t rank = Mul(Mul(rank_rows, t.cols), m_.dtype_bytes);
        c[part] += Cost{Mul(t.rows, t.cols), bytes, rank, TensorAllocatorSlack(rank)};
      } else if (t.cols == 1) {
        c[part] += Vector(t.rows, 1);
      } else {
        c[part] += Linear(t.rows, t.cols, false, t.split == GemmaSplit::kTp ? s_.attn_tp : 1);
      }
    }
  }

  // One norm's parameters: RMSNorm a weight, LayerNorm a weight and a bias.
  int64_t NormParams() const { return int64_t{m_.hidden_size} * (m_.norm_bias ? 2 : 1); }

  void Moe(Costs& c, int layer) const {
    const int64_t h = m_.hidden_size, e = m_.num_experts, inter = m_.moe_intermediate_size;
    const bool qz = m_.quant.experts_quantized;
    Cost one;  // one expert: gate + up + down, or up + down (Nemotron-H's relu2 experts)
    one += LinearOf(expert_quant_, (m_.gated_mlp ? 2 : 1) * inter, h, qz, 1);
    one += LinearOf(expert_quant_, h, inter, qz, 1);
    if (m_.expert_bias) one += Vector(2 * inter + h, 1);
    const int64_t experts_on_rank = CeilDiv(e, s_.expert_ep);
    c[kExperts] += Cost{Mul(one.params, e), Mul(one.bytes, e),
                        CeilDiv(Mul(one.bytes, experts_on_rank), s_.expert_tp)};
    // FusedMoE holds a rank's experts as two tensors: w13 (gate and up) and w2 (down).
    const int64_t w2 = LinearOf(expert_quant_, h, inter, qz, 1).bytes;
    const int64_t bias = m_.expert_bias ? Vector(2 * inter + h, 1).bytes : 0;
    for (int64_t w : {one.bytes - w2 - bias, w2}) {
      c[kExperts].slack += TensorAllocatorSlack(CeilDiv(Mul(w, experts_on_rank), s_.expert_tp));
    }
    // Routers stay in 16 bits (listed in modules_to_not_convert, or created
    // with quant_config=None: deepseek_v2.py MoEGate).
    if (m_.family == "minimax_text_01") {
      // minimax_text_01.py MiniMaxText01MoE @v0.10.2: the gate is a float32 ReplicatedLinear
      // (the checkpoint's 912,210,767,872 bytes hold it in float32 too).
      c[kRouter] += Vector(Mul(e, h), 1, 4);
    } else {
      c[kRouter] += Linear(e, h, false, 1);
    }
    if (m_.router_bias) c[kRouter] += Vector(e, 1);
    if (layer < m_.num_hash_layers) {
      // DeepSeek-V4's first num_hash_layers route by token id: a vocab x top-k int32 table
      // (deepseek_v4.py DeepseekV4MoE tid2eid) instead of the correction bias.
      c[kRouter] += Vector(Mul(m_.vocab_size, m_.experts_per_token), 1, 4);
    } else if (m_.routing_bias) {
      c[kRouter] += Vector(e, 1, 4);  // float32 e_score_correction_bias
    }
    if (m_.num_shared_experts > 0) {
      DenseMlp(c, int64_t{m_.num_shared_experts} * inter, s_.shared_tp,
               m_.quant.shared_experts_quantized, kSharedExperts);
    }
    if (m_.shared_expert_intermediate_size > 0) {
      DenseMlp(c, m_.shared_expert_intermediate_size, s_.shared_tp,
               m_.quant.shared_experts_quantized, kSharedExperts);
      if (m_.shared_expert_gate) c[kSharedExperts] += Linear(1, h, false, 1);
    }
  }

  // Layer `layer`; mlp: 0 dense, 1 MoE, 2 none (a mixer-only block with
  // norms_without_mlp norms, or a DeciLM no_op FFN). A DeciLM no_op attention has
  // neither projections nor its input norm.
  Costs Layer(int layer, bool linear, int mlp) const {
    Costs c{};
    const LayerGeometry g = LayerGeometryAt(m_, layer);
    const bool attention = LayerHasAttention(m_, layer);
    if (m_.shared_blocks > 0 && !linear) {
      Zamba2Application(c);  // the block itself is FirstStage's; its norms are the block's
      return c;
    }
    if (linear) {
      LinearAttention(c);
    } else if (!attention) {
      // nemotron_nas.py DeciLMDecoderLayer: no self_attn, no input_layernorm.
    } else if (!m_.compress_ratios.empty()) {
      Dsv4Attention(c, layer);
    } else if (m_.attention == AttentionKind::kMla) {
      MlaAttention(c);
    } else {
      GqaAttention(c, g);
    }
    if (m_.hc_mult > 0) c[kHyperConnections] += Dsv4HyperConnections();
    if (mlp == 1) {
      Moe(c, layer);
    } else if (mlp == 0) {
      DenseMlp(c, g.mlp_intermediate, s_.mlp_tp, m_.quant.dense_mlp_quantized, kDenseMlp);
    }
    // One of the layer's norms is the attention's (input_layernorm).
    const int norms = (mlp == 2 ? m_.norms_without_mlp : m_.norms_per_layer) - (attention ? 0 : 1);
    c[kNorms] += Vector(norms * NormParams(), 1);
    AddGemmaTensors(c, GemmaLayerTensors(m_));
    return c;
  }

  // Embedding rows are padded to a multiple of 64 and split vocab-parallel
  // (python/sglang/srt/layers/vocab_parallel_embedding.py @v0.5.3,
  // DEFAULT_VOCAB_PADDING_SIZE = 64). Under DP attention SGLang builds the
  // input embedding with enable_tp=not is_dp_attention_enabled() (replicated),
  // and the lm_head on the attention-TP group only with --enable-dp-lm-head.
  Cost VocabTable(int64_t rows, bool quantized, int split) const {
    if (rows <= 0) return Cost{};
    const int64_t h = m_.hidden_size;
    int64_t bytes = LinearBytes(m_.quant, quantized, rows, h, m_.dtype_bytes);
    int64_t padded = CeilDiv(rows, 64) * 64;
    int64_t rank_rows = CeilDiv(padded, split);
    const int64_t rank = bytes / rows * rank_rows;
    return Cost{rows * h, bytes, rank, TensorAllocatorSlack(rank)};
  }

  Costs FirstStage() const {
    Costs c{};
    const int64_t h = m_.hidden_size;
    Cost emb = VocabTable(m_.vocab_size, false, p_.dp_attention ? 1 : p_.tp);
    // SGLang's EAGLE workers reuse the target's embedding (set_embed).
    if (m_.IsDraft()) emb.NotOnRank();
    c[kEmbedding] += emb;
    // GPT-2's absolute position table: a plain nn.Embedding, replicated
    // (vllm/model_executor/models/gpt2.py wpe).
    if (m_.learned_position_rows > 0) c[kEmbedding] += Vector(Mul(m_.learned_position_rows, h), 1);
    if (m_.embedding_norm) c[kNorms] += Vector(NormParams(), 1);  // Bloom
    AddGemmaTensors(c, GemmaModelTensors(m_));
    // The vision tower and projector, replicated on every rank, in the model dtype.
    const int64_t vision = m_.vision_params > 0
                               ? m_.vision_params
                               : (m_.multimodal ? SiglipOrLlama4TowerParams(m_) : 0);
    if (vision > 0) c[kVision] += Vector(vision, 1);
    for (int b = 0; b < m_.shared_blocks; ++b) Zamba2SharedBlock(c);
    if (m_.draft_kind == "eagle3") {
      c[kDraftFc] += Linear(h, 3 * int64_t{m_.target_hidden_size}, false, 1);
    } else if (m_.draft_kind == "eagle") {
      c[kDraftFc] += Linear(h, 2 * h, false, 1);
      c[kDraftFc] += Vector(h, 1);
    } else if (m_.draft_kind == "mtp") {
      // eh_proj is a plain nn.Linear (16-bit) in deepseek_nextn.py; enorm, hnorm.
      c[kDraftFc] += Linear(h, 2 * h, false, 1);
      c[kDraftFc] += Vector(2 * h, 1);
    }
    return c;
  }

  Costs LastStage(bool also_first) const {
    Costs c{};
    c[kNorms] += Vector(NormParams(), 1);  // final norm
    const int lm_split = (p_.dp_attention && p_.dp_lm_head) ? s_.attn_tp : p_.tp;
    const int64_t rows = m_.draft_vocab_size > 0 ? m_.draft_vocab_size : m_.vocab_size;
    Cost head = VocabTable(rows, m_.quant.lm_head_quantized, lm_split);
    // EAGLE-1/2 and MTP drafts use the target's lm_head (set_embed_and_head).
    if (m_.draft_kind == "eagle" || m_.draft_kind == "mtp") head.NotOnRank();
    if (m_.tie_word_embeddings) {
      // Tied: no separate tensor, except that a last PP stage needs its own copy.
      head.params = head.bytes = 0;
      if (also_first) head.NotOnRank();
    }
    c[kLmHead] += head;
    if (m_.hc_mult > 0) {
      // deepseek_v4.py DeepseekV4Model: hc_head_fn (hc x hc*hidden), its base and scale, float32.
      const int64_t hc = m_.hc_mult;
      c[kHyperConnections] += Vector(Mul(hc, hc * m_.hidden_size) + hc + 1, 1, 4);
    }
    if (m_.lm_head_bias) c[kLmHead] += Vector(rows, lm_split);  // Phi-2, GPT-J
    return c;
  }

 private:
  const ModelSpec& m_;
  const Parallelism& p_;
  Shards s_{};
  Quantization expert_quant_;
};

void CheckParallelism(const ModelSpec& m, const Parallelism& p) {
  if (p.tp < 1 || p.pp < 1 || p.dp < 1 || p.ep < 1) {
    throw InputError("parallel sizes must be >= 1 (tp, pp, dp, ep)");
  }
  if (p.dp_attention && (p.dp > p.tp || p.tp % p.dp != 0)) {
    throw InputError("--enable-dp-attention needs dp to divide tp (tp " + std::to_string(p.tp) +
                     ", dp " + std::to_string(p.dp) + ")");
  }
  if (p.pp > m.num_layers) {
    throw InputError("pp " + std::to_string(p.pp) + " exceeds the model's " +
                     std::to_string(m.num_layers) + " layers");
  }
  if (m.shared_blocks > 0 && p.pp > 1) {
    // vLLM models/zamba2.py Zamba2ForCausalLM is not SupportsPP (vllm-project/vllm#13185: "PP
    // is not supported"); kvplan prices the shared blocks on the first stage only.
    throw InputError(m.architecture + " does not support pipeline parallelism (vLLM's " +
                     "zamba2.py is not SupportsPP); use a pipeline parallel size of 1");
  }
  if (m.num_experts > 0 && p.ep > m.num_experts) {
    throw InputError("ep " + std::to_string(p.ep) + " exceeds the model's " +
                     std::to_string(m.num_experts) + " experts");
  }
}

int64_t RankBytes(const Costs& c) {
  int64_t total = 0;
  for (const Cost& x : c) total = Add(total, x.rank_bytes);
  return total;
}

const char* Sharding(Part part, const Parallelism& p) {
  switch (part) {
    case kEmbedding:
      return p.dp_attention ? "replicated" : "vocab tp";
    case kLmHead:
      return p.dp_attention && p.dp_lm_head ? "vocab attn-tp" : "vocab tp";
    case kAttention:
    case kLinearAttention:
      return p.dp_attention ? "attn-tp" : "tp";
    case kDenseMlp:
    case kSharedExperts:
      return "tp";
    case kExperts:
      return p.ep > 1 ? "ep" : "tp";
    default:
      return "replicated";
  }
}

}  // namespace

int64_t LoadedBytesPerRank(const ModelSpec& model, const WeightEstimate& w, LoadMeasure measure,
                           int rope_element_bytes) {
  const int64_t slack = measure == LoadMeasure::kAllocated ? w.slack.allocated : w.slack.reserved;
  const int64_t rope = Mul(model.rope_cache_elements, rope_element_bytes);
  return Add(Add(w.bytes_per_rank, slack), rope);
}

namespace {

// The parts of every decoder layer, priced once per (attention x MLP) class, or
// once per layer where layers have their own geometry (ModelSpec::layer_geometry).
class LayerPrices {
 public:
  LayerPrices(const ModelSpec& m, const Estimator& est) : m_(m) {
    // Specs built by hand (not parsed) may leave the per-layer tables empty:
    // then layers are full attention, and MoE after the first dense ones.
    const size_t n = static_cast<size_t>(m.num_layers);
    have_kinds_ = m.layer_kinds.size() == n;
    have_moe_ = m.layer_is_moe.size() == n;
    have_mlp_ = m.layer_has_mlp.size() == n;
    // DeepSeek-V4's layers differ by compress ratio and hash routing: priced one by one.
    per_layer_ = HasPerLayerGeometry(m) || !m.compress_ratios.empty();
    if (per_layer_) layers_.resize(n);
    for (int i = 0; i < m.num_layers; ++i) {
      const int k = ClassOf(i);
      Costs& slot = per_layer_ ? layers_[static_cast<size_t>(i)] : cls_[k];
      if (per_layer_ || !have_[k]) slot = est.Layer(i, k >= 3, k % 3), have_[k] = true;
    }
  }
  const Costs& Of(int layer) const {
    return per_layer_ ? layers_[static_cast<size_t>(layer)] : cls_[ClassOf(layer)];
  }

 private:
  int ClassOf(int i) const {
    const bool linear = have_kinds_ && m_.layer_kinds[i] == LayerKind::kLinear;
    const bool moe =
        have_moe_ ? m_.layer_is_moe[i] : m_.num_experts > 0 && i >= m_.first_k_dense_layers;
    const bool no_mlp = (have_mlp_ && !m_.layer_has_mlp[i]) ||
                        (per_layer_ && !moe && LayerGeometryAt(m_, i).mlp_intermediate == 0);
    const int mlp = no_mlp ? 2 : (moe ? 1 : 0);
    return (linear ? 3 : 0) + mlp;
  }
  static constexpr int kClasses = 6;
  const ModelSpec& m_;
  bool have_kinds_ = false, have_moe_ = false, have_mlp_ = false, per_layer_ = false;
  std::array<Costs, kClasses> cls_{};
  std::array<bool, kClasses> have_{};
  std::vector<Costs> layers_;
};

}  // namespace

WeightEstimate EstimateWeights(const ModelSpec& model, const Parallelism& par) {
  CheckParallelism(model, par);
  Estimator est(model, par);
  const LayerPrices prices(model, est);
  const Costs first = est.FirstStage();
  const Costs last = est.LastStage(par.pp == 1);

  WeightEstimate out;
  out.stage_layers = PipelineStageLayers(model.num_layers, par.pp);
  Costs totals{};
  Costs best{};
  int64_t best_bytes = -1;
  int layer = 0;
  for (int s = 0; s < par.pp; ++s) {
    Costs stage{};
    if (s == 0) stage = first;
    if (s == par.pp - 1) {
      for (int k = 0; k < kNumParts; ++k) stage[k] += last[k];
    }
    for (int n = 0; n < out.stage_layers[s]; ++n, ++layer) {
      const Costs& one = prices.Of(layer);
      for (int k = 0; k < kNumParts; ++k) stage[k] += one[k];
    }
    for (int k = 0; k < kNumParts; ++k) {
      totals[k] += Cost{stage[k].params, stage[k].bytes, 0};
    }
    int64_t b = RankBytes(stage);
    if (b > best_bytes) best_bytes = b, best = stage, out.stage = s;
  }
  out.parts.reserve(kNumParts);
  for (int k = 0; k < kNumParts; ++k) {
    if (totals[k].params == 0 && best[k].rank_bytes == 0) continue;
    out.parts.push_back(WeightPart{kPartNames[k], totals[k].params, totals[k].bytes,
                                   best[k].rank_bytes, Sharding(static_cast<Part>(k), par)});
    out.total_params = Add(out.total_params, totals[k].params);
    out.total_bytes = Add(out.total_bytes, totals[k].bytes);
  }
  out.bytes_per_rank = best_bytes;
  for (const Cost& x : best) out.slack += x.slack;
  if (model.checkpoint_bytes) {
    out.total_bytes = *model.checkpoint_bytes;
    out.from_checkpoint = true;
  }
  return out;
}

std::string UncountedWeightsWarning(const ModelSpec& model) {
  if (model.uncounted_weights.empty()) return "";
  return "the weights leave out the checkpoint's " + model.uncounted_weights +
         " (kvplan does not size it from the config), so the weights per GPU are low by its "
         "size and the KV cache high; plan from the engine's log to be exact "
         "(vLLM: --measured weights=GIB; SGLang: --pre-load-free-gib and --post-load-free-gib)";
}

}  // namespace kvplan
