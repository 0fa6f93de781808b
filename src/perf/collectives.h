// The collectives of one forward pass under a parallel layout, and their time.
//   dense TP: one allreduce after attention (o_proj), one after the MLP or MoE
//     block (RowParallelLinear, reduce_results), one in VocabParallelEmbedding,
//     and an allgather of the vocab-parallel logits;
//   MoE with EP under DP attention: dispatch and combine all-to-alls per MoE layer;
//   DP attention: attention allreduce inside the attention-TP group, and an
//     allgather before / reduce-scatter after each MLP over the whole TP group.
#pragma once

#include "perf/step_time.h"

namespace kvplan {

struct CommBreakdown {
  double us = 0;
  int allreduces = 0;
  int allgathers = 0;
  int reduce_scatters = 0;
  int alltoalls = 0;
  double allreduce_bytes = 0;  // size of one per-layer allreduce
  int Count() const { return allreduces + allgathers + reduce_scatters + alltoalls; }
};

// `layers` and `moe_layers` are those of the stage.
CommBreakdown ForwardComm(const StepContext& ctx, const ForwardShape& shape, int layers,
                          int moe_layers);

// One allreduce of `bytes` over `n` GPUs as the engine would run it under
// `policy`: custom allreduce where chosen, otherwise NCCL.
double EngineAllreduceUs(int64_t bytes, int n, const Fabric& fabric, AllreducePolicy policy,
                         bool cuda_graph);

}  // namespace kvplan
