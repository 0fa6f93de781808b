// Time of one forward pass on one rank: GEMMs and weight reads (MoE: only the
// experts the batch touches), attention FLOPs and KV reads at the current context,
// a roofline per part with the factors of perf/efficiency.h, kernel launch gaps with
// and without CUDA graphs and the small memory kernels' constant latency, and the
// collectives the parallel layout needs (perf/collectives.h).
#pragma once

#include "catalog/gpu.h"
#include "catalog/weights.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency.h"
#include "perf/model_geometry.h"
#include "perf/nccl_model.h"
#include "perf/topology.h"

namespace kvplan {

// How the engine reduces: NCCL only, the engine's default (custom allreduce
// where its rule allows, else NCCL), or custom allreduce forced on (a patched
// engine on PCIe).
enum class AllreducePolicy { kNcclOnly, kEngineDefault, kForceCustom };

// Everything about the hardware and launch that a forward pass depends on.
struct StepContext {
  const ModelGeometry* model = nullptr;
  double hbm_bw = 0;      // bytes/s
  double flops_bf16 = 0;  // FLOP/s
  double flops_fp8 = 0;   // FLOP/s (0 = none)
  double flops_fp4 = 0;   // FLOP/s (0 = none)
  int sm_count = 0;       // streaming multiprocessors (0 = unknown)
  int compute_capability = 0;
  // The kernel of multi-token forwards over the cache (verify, draft extend).
  ExtendAttention extend_attention = ExtendAttention::kSplitKv;
  Fabric fabric;  // for the TP group
  Parallelism par;
  double kv_bytes_per_elem = 2;  // KV-cache dtype
  AllreducePolicy allreduce = AllreducePolicy::kEngineDefault;
  Efficiency eff;
};

// A context for `model` on `gpu`: the card's HBM bandwidth, dense FLOP/s per precision, SMs
// and compute capability; the launch's fields (fabric, layout, KV dtype, efficiency) are left
// at their defaults for the caller.
StepContext GpuStepContext(const ModelGeometry* model, const GpuSpec& gpu);

// One forward pass: `batch` requests, each adding `q_len` tokens on top of
// `ctx` tokens already in the KV cache; `logit_tokens` rows go through the
// LM head (decode: batch; prefill: batch; verify: batch x q_len).
struct ForwardShape {
  double batch = 1;
  double q_len = 1;
  double ctx = 0;
  double logit_tokens = 1;
  bool cuda_graph = true;  // replayed from a CUDA graph
};

struct StepBreakdown {
  double gemm_us = 0;       // linear layers, weights streamed
  double attention_us = 0;  // attention core, KV streamed
  double comm_us = 0;       // collectives
  double overhead_us = 0;   // kernel launches / gaps
  double total_us = 0;
  int collectives = 0;      // collectives per forward pass
  double weight_bytes = 0;  // bytes of weights read per rank
};

// Time of one pipeline stage (layers / pp) of one forward pass, per rank.
StepBreakdown ForwardTime(const StepContext& ctx, const ForwardShape& shape);

}  // namespace kvplan
