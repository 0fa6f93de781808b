#include "perf/step_time.h"

#include <algorithm>
#include <cmath>

#include "perf/collectives.h"

namespace kvplan {
namespace {

// Roofline of one operation, in microseconds.
double RooflineUs(double flops, double bytes, double peak_flops, double compute_eff, double bw,
                  double mem_eff) {
  const double compute = peak_flops > 0 ? flops / (peak_flops * compute_eff) : 0;
  const double memory = bw > 0 ? bytes / (bw * mem_eff) : 0;
  return std::max(compute, memory) * 1e6;
}

// Block-scaled FP8 GEMMs (128x128 weight blocks, 1x128 activation groups: every K block
// rescales the accumulator) do not reach the FP8 dense rate. vllm#23280 measured them on one
// H100 (benchmarks/kernels/bench_block_fp8_gemm.py, DeepSeek-V3 N=2112 K=7168, M 4096 and
// 8192): Triton 403 and 407, CUTLASS 457 and 490 TFLOP/s, against 716 and 666 for torch bf16
// on the same GPU; their mean, 439 TFLOP/s, is 0.22 of the 1979 TFLOP/s FP8 peak, i.e. this
// share before Efficiency::gemm (0.32 x 0.7 = 0.22). On B200 blockwise FP8 is no faster
// than FP16 either (NVIDIA/cutlass#2923). The fused-MoE kernels of both engines (Triton
// fused_moe w8a8 block) use the same per-block scaling in their inner loop.
constexpr double kBlockFp8PeakShare = 0.32;

double GemmPeak(const StepContext& c) {
  const ModelGeometry& m = *c.model;
  if (m.fp4_compute && c.flops_fp4 > 0) return c.flops_fp4;
  if (m.fp8_compute && c.flops_fp8 > 0) {
    return m.fp8_block_scaled ? c.flops_fp8 * kBlockFp8PeakShare : c.flops_fp8;
  }
  return c.flops_bf16;
}

// KV elements one rank reads per cached token per layer.
double KvElemsPerRank(const ModelGeometry& m, int attn_tp) {
  if (m.kv_heads_for_split <= 0) return m.kv_elems_per_token;  // MLA latent: replicated
  const double heads_per_rank = std::max(1.0, m.kv_heads_for_split / attn_tp);
  return m.kv_elems_per_token * heads_per_rank / m.kv_heads_for_split;
}

// SGLang's Triton extend kernel (triton_ops/extend_attention.py): grid =
// (batch, heads, cdiv(q_len, BLOCK_M)); each block multiplies BLOCK_M query
// rows (the real ones padded) with the whole prefix on one SM. A 4-token verify
// of DeepSeek-V3 at TP 8 is 16 blocks on 188 SMs, each doing 8x the useful
// FLOPs: compute-bound on 16 SMs however short the KV read is.
double TritonExtendUs(const StepContext& c, const ForwardShape& s, double batch_local, double ctx,
                      double bytes) {
  const ModelGeometry& m = *c.model;
  const double heads = std::max(1.0, m.heads / c.par.AttentionTp());
  const double block_m = TritonExtendBlockM(c.compute_capability, m.attn_qk_dim);
  const double blocks = std::ceil(batch_local) * heads;  // one query block per request
  const double waves = std::ceil(blocks / c.sm_count);
  const double flops_per_block = block_m * (ctx + s.q_len) * m.attn_flops_per_ctx / m.heads;
  const double per_sm_flops = c.flops_bf16 / c.sm_count * c.eff.attention;
  const double compute_us = waves * flops_per_block / per_sm_flops * 1e6;
  const double memory_us = bytes / (c.hbm_bw * c.eff.memory) * 1e6;
  return std::max(compute_us, memory_us);
}

// Attention core of one layer kind over `window` context tokens (0 = unlimited).
double AttentionCoreUs(const StepContext& c, const ForwardShape& s, double batch_local,
                       double window) {
  const ModelGeometry& m = *c.model;
  const int attn_tp = c.par.AttentionTp();
  const double ctx = window > 0 ? std::min(s.ctx, window) : s.ctx;
  const double pairs = s.q_len * ctx + s.q_len * (s.q_len + 1) / 2;
  const double flops = batch_local * pairs * m.attn_flops_per_ctx / attn_tp;
  const double bytes =
      batch_local * (ctx + s.q_len) * KvElemsPerRank(m, attn_tp) * c.kv_bytes_per_elem;
  // Verify and draft-extend shapes: the queries of a request fit one block.
  // (Longer extends fill the GPU with blocks; the roofline covers them.)
  if (s.q_len > 1 && c.extend_attention == ExtendAttention::kTritonPerHead && c.sm_count > 0 &&
      s.q_len <= TritonExtendBlockM(c.compute_capability, m.attn_qk_dim)) {
    return TritonExtendUs(c, s, batch_local, ctx, bytes);
  }
  return RooflineUs(flops, bytes, c.flops_bf16, c.eff.attention, c.hbm_bw, c.eff.memory);
}

// aiconfigurator's memory-op model (systems/*.yaml mem_empirical_constant_latency, the same
// for every shipped system): a memory-bound kernel takes bytes / (bw x 0.8) plus 3 us, however
// few bytes it moves: launch to first DRAM access, one dependent round trip, the grid drain.
// The graph gap every kernel pays (Efficiency::kernel_graph_us) is part of those 3 us.
constexpr double kMemoryOpLatencyUs = 3.0;
// Of Efficiency's kernels per layer, those that are GEMMs (dense: qkv, o_proj, gate_up, down;
// MoE: qkv, o_proj, router, the two grouped expert GEMMs) or the attention core; the rest
// (norms, rope, KV store, activation; MoE: top-k, permute, unpermute/sum) are memory ops.
constexpr double kDenseComputeKernels = 5;
constexpr double kMoeComputeKernels = 6;

// Linears per layer whose input is quantized by a kernel of its own: with FP8/FP4 GEMMs each
// linear first quantizes its activations (SGLang/vLLM per_token_group_quant_fp8 for block
// FP8, scaled_fp4_quant for NVFP4): attention qkv and o_proj (MLA: q_a/kv_a, q_b, o_proj),
// a dense MLP's gate_up and down, an MoE's two grouped GEMMs and its shared expert's two.
struct QuantKernels {
  double dense = 0, moe = 0;  // per dense layer, per MoE layer
};
QuantKernels ActivationQuantKernels(const ModelGeometry& m) {
  QuantKernels q;
  if (!m.fp8_compute && !m.fp4_compute) return q;
  const auto quantized = [](double bytes_per_param) { return bytes_per_param < 2 ? 1.0 : 0.0; };
  const double attn = (m.mla ? 3 : 2) * quantized(m.attn_bytes_per_param);
  q.dense = attn + 2 * quantized(m.mlp_bytes_per_param);
  q.moe = attn + 2 * quantized(m.expert_bytes_per_param) +
          (m.shared_expert_params > 0 ? 2 * quantized(m.shared_bytes_per_param) : 0);
  return q;
}

// Kernels of one forward pass and what its memory ops' constant latency adds to their gaps.
struct KernelCount {
  double kernels = 0;
  double memory_op_us = 0;
};
KernelCount CountKernels(const ModelGeometry& m, const Efficiency& e, int dense_layers,
                         int moe_layers) {
  const QuantKernels q = ActivationQuantKernels(m);
  const double dense = e.kernels_per_dense_layer + q.dense;
  const double moe = e.kernels_per_moe_layer + q.moe;
  KernelCount k;
  k.kernels = dense_layers * dense + moe_layers * moe + 4;
  const double memory_ops = dense_layers * std::max(0.0, dense - kDenseComputeKernels) +
                            moe_layers * std::max(0.0, moe - kMoeComputeKernels);
  k.memory_op_us = memory_ops * std::max(0.0, kMemoryOpLatencyUs - e.kernel_graph_us);
  return k;
}

}  // namespace

StepBreakdown ForwardTime(const StepContext& c, const ForwardShape& s) {
  StepBreakdown out;
  const ModelGeometry& m = *c.model;
  const int pp = std::max(1, c.par.pp);
  const int tp = std::max(1, c.par.tp);
  const int attn_tp = c.par.AttentionTp();
  const bool dp_attn = c.par.dp_attention && c.par.dp > 1;
  const int layers = (m.layers + pp - 1) / pp;
  const int moe_layers = static_cast<int>(std::lround(static_cast<double>(m.moe_layers) / pp));
  const int mlp_less = static_cast<int>(std::lround(static_cast<double>(m.mlp_less_layers) / pp));
  const int dense_layers = std::max(0, layers - moe_layers - mlp_less);
  const double tokens = s.batch * s.q_len;
  const double local = dp_attn ? tokens / c.par.dp : tokens;
  const double batch_local = dp_attn ? s.batch / c.par.dp : s.batch;
  const double peak = GemmPeak(c);
  const double bw = c.hbm_bw;
  const Efficiency& e = c.eff;

  // Linear layers, each part at the bytes per parameter it is stored in.
  // What one rank holds of a layer's attention (perf/model_geometry.h).
  const double kv_per_rank =
      m.kv_heads > 0 ? std::max(1.0, m.kv_heads / attn_tp) / m.kv_heads : 1.0 / attn_tp;
  const double attn_p = m.attn_replicated_params + m.attn_kv_params * kv_per_rank +
                        (m.attn_params - m.attn_replicated_params - m.attn_kv_params) / attn_tp;
  const double attn_b = attn_p * m.attn_bytes_per_param;
  const double attn_us = RooflineUs(2 * attn_p * local, attn_b, peak, e.gemm, bw, e.memory);
  const double mlp_p = m.dense_mlp_params / tp;
  const double mlp_b = mlp_p * m.mlp_bytes_per_param;
  const double mlp_us = RooflineUs(2 * mlp_p * tokens, mlp_b, peak, e.gemm, bw, e.memory);
  double moe_us = 0, moe_bytes = 0;
  if (moe_layers > 0) {
    const double touched = ExpectedExpertsTouched(m.num_experts, m.top_k, tokens);
    moe_bytes = (touched * m.expert_params * m.expert_bytes_per_param +
                 m.shared_expert_params * m.shared_bytes_per_param +
                 m.router_params * m.dense_bytes_per_param) /
                tp;
    const double flops = 2 * (m.top_k * m.expert_params + m.shared_expert_params) * tokens / tp;
    moe_us = RooflineUs(flops, moe_bytes, peak, e.gemm, bw, e.memory);
  }
  const double head_p = m.embed_params / tp;
  const double head_bytes = head_p * m.dense_bytes_per_param;
  const double head_us =
      RooflineUs(2 * head_p * s.logit_tokens, head_bytes, c.flops_bf16, e.gemm, bw, e.memory);
  out.gemm_us = layers * attn_us + dense_layers * mlp_us + moe_layers * moe_us + head_us;
  out.weight_bytes = layers * attn_b + dense_layers * mlp_b + moe_layers * moe_bytes + head_bytes;

  // Attention core, by layer kind (stage share of each kind).
  const double share = static_cast<double>(layers) / std::max(1, m.layers);
  const double sliding = m.sliding_layers * share;
  const double linear = m.linear_layers * share;
  const double full = std::max(0.0, layers - sliding - linear);
  out.attention_us = full * AttentionCoreUs(c, s, batch_local, 0) +
                     sliding * AttentionCoreUs(c, s, batch_local, m.sliding_window);

  const CommBreakdown comm = ForwardComm(c, s, layers, moe_layers);
  out.comm_us = comm.us;
  out.collectives = comm.Count();

  // Launch gaps and the memory ops' constant latency (GPU time, graphed or not).
  const KernelCount k = CountKernels(m, e, dense_layers, moe_layers);
  const double gpu_us = out.gemm_us + out.attention_us + out.comm_us + k.memory_op_us;
  out.overhead_us = k.kernels * e.kernel_graph_us + k.memory_op_us;
  if (!s.cuda_graph) {
    // Eager: the host launches every kernel; the GPU waits when it is faster.
    out.overhead_us += std::max(0.0, k.kernels * e.kernel_eager_us - gpu_us);
  }
  out.total_us = out.gemm_us + out.attention_us + out.comm_us + out.overhead_us;
  return out;
}

StepContext GpuStepContext(const ModelGeometry* model, const GpuSpec& gpu) {
  StepContext c;
  c.model = model;
  c.hbm_bw = gpu.hbm_bandwidth;
  c.flops_bf16 = gpu.bf16_flops;
  c.flops_fp8 = gpu.fp8_flops;
  c.flops_fp4 = gpu.fp4_flops;
  c.sm_count = gpu.sm_count;
  c.compute_capability = gpu.compute_capability;
  return c;
}

}  // namespace kvplan
