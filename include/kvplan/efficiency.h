// Achieved-efficiency factors of the roofline step-time model. Each is a
// named, documented default that a user can recalibrate from one measured
// step (kvplan perf and kvplan tune take overrides); docs/perf-validation.md
// shows the fit.
#pragma once

namespace kvplan {

struct Efficiency {
  // Share of peak HBM bandwidth streaming weights and KV reaches.
  // aiconfigurator ships 0.8 for every system (mem_bw_empirical_scaling_factor).
  double memory = 0.8;
  // Share of dense peak FLOP/s large GEMMs reach (typical cuBLAS/CUTLASS
  // bf16/fp8 at serving shapes, 60-75 %).
  double gemm = 0.7;
  // Share of peak FLOP/s the attention kernels (FlashAttention/FlashInfer) reach.
  double attention = 0.5;
  // GPU-side cost of one kernel replayed from a CUDA graph: the gap a tiny
  // kernel leaves. 1 us reproduces SGLang's 158 tok/s for Llama-3.1-8B bs 1
  // on one H100 (docs/advanced_features/speculative_decoding.md).
  double kernel_graph_us = 1.0;
  // Host cost of launching one kernel eagerly from PyTorch (no graph).
  double kernel_eager_us = 5.0;
  // Kernels per decoder layer: norm, qkv, rope, attention, o_proj, norm,
  // gate_up, activation, down (+ residual adds).
  double kernels_per_dense_layer = 10;
  // MoE layers add router, top-k, permute, the grouped GEMMs and unpermute.
  double kernels_per_moe_layer = 16;
  // Per-iteration host cost of a speculative-decoding step (tree building,
  // verification bookkeeping) outside the graphs.
  double spec_iteration_overhead_us = 150;
  // SGLang's speculative worker v1 (the default up to at least v0.5.6: spec v2
  // needs SGLANG_ENABLE_SPEC_V2=1) turns the overlap scheduler off, so the
  // scheduler's per-iteration CPU work and the worker's GPU->CPU syncs
  // (eagle_worker.py @00559ea: seq_lens sum .item(), accept lengths to host)
  // stall the GPU. sglang#26171 measured one such sync at 0.2-1.1 ms per
  // output token (EAGLE-3, Qwen3-8B, one GPU); 1 ms covers two syncs and the
  // scheduler step at the low end of that range (kvplan's assumption).
  double sglang_spec_v1_serial_us = 1000;
};

}  // namespace kvplan
