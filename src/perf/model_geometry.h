// The numbers of a model that the step-time model reads, flattened once from
// a ModelSpec into plain doubles so that evaluating a configuration touches
// no strings, vectors or heap memory.
#pragma once

#include "catalog/model.h"

namespace kvplan {

struct ModelGeometry {
  int layers = 0;
  int moe_layers = 0;      // layers with routed experts
  int sliding_layers = 0;  // sliding-window layers (KV read capped at the window)
  int linear_layers = 0;   // linear-attention layers (no per-token KV)
  // Layers without an MLP (Nemotron-H's mixer-only blocks, the Mamba2 half of a Falcon-H1
  // layer, catalog ModelSpec::layer_has_mlp): neither a dense MLP nor its all-reduce.
  int mlp_less_layers = 0;
  double sliding_window = 0;
  double hidden = 0;
  double vocab = 0;
  bool mla = false;
  double heads = 0;     // attention heads
  double kv_heads = 0;  // GQA KV heads (MLA: 1 latent)

  // Parameters (counts, not bytes).
  double attn_params = 0;  // one layer's attention projections
  // Of them, what tensor parallelism does not split: MLA's down-projections
  // (q_a, kv_a: ReplicatedLinear), and the GQA K/V projections, which each
  // rank keeps max(1, kv_heads / tp) heads of.
  double attn_replicated_params = 0;
  double attn_kv_params = 0;
  double dense_mlp_params = 0;      // one dense layer's MLP
  double expert_params = 0;         // one routed expert
  double shared_expert_params = 0;  // one MoE layer's shared experts
  double router_params = 0;         // one MoE layer's router
  double embed_params = 0;          // embedding (and lm_head when untied, separately)
  double num_experts = 0;
  double top_k = 0;

  // Bytes per parameter as stored, part by part: quantization_config keeps
  // some layers in 16 bits (gpt-oss: all but the experts; compressed-tensors
  // ignore lists), so one figure for every linear layer would be wrong.
  double attn_bytes_per_param = 2;
  double mlp_bytes_per_param = 2;     // dense MLP layers
  double expert_bytes_per_param = 2;  // routed experts
  double shared_bytes_per_param = 2;  // shared experts
  double weight_bytes_per_param = 2;  // the largest part: experts of an MoE, else the MLP
  double dense_bytes_per_param = 2;   // embeddings, lm_head, norms
  bool fp8_compute = false;           // weights in FP8: GEMMs run at FP8 rate
  // FP8 with per-block weight scales (quantization_config.weight_block_size, DeepSeek's
  // 128x128) and per-token-group activation scales: the block-scaled kernels' own rate.
  bool fp8_block_scaled = false;
  bool fp4_compute = false;

  // Attention core per layer, per new token, per context token.
  double attn_flops_per_ctx = 0;  // FLOPs (QK^T and PV), all heads
  double attn_qk_dim = 0;         // per-head query/key width (MLA: latent + rope = 576)
  // KV-cache elements per token per layer (GQA: 2 kv_heads head_dim; MLA: latent + rope).
  double kv_elems_per_token = 0;
  double kv_heads_for_split = 0;  // what TP divides (GQA kv heads; MLA 0 = replicated)

  double ActiveParamsPerToken() const;  // all layers, embeddings excluded
};

ModelGeometry MakeGeometry(const ModelSpec& m);

// Expected number of distinct routed experts a forward pass over `tokens`
// tokens touches when each picks top_k of num_experts uniformly:
// E (1 - (1 - k/E)^tokens).
double ExpectedExpertsTouched(double num_experts, double top_k, double tokens);

}  // namespace kvplan
