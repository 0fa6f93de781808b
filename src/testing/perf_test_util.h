// Step contexts on the reference hardware, for the performance tests.
#pragma once

#include "perf/reference_hardware.h"
#include "perf/step_time.h"

namespace kvplan::perf_test {

inline StepContext Context(const ModelGeometry* g, const char* gpu_id, Topology topology, int tp,
                           AllreducePolicy policy = AllreducePolicy::kEngineDefault) {
  const GpuSpec gpu = ReferenceGpu(gpu_id);
  StepContext c;
  c.model = g;
  c.hbm_bw = gpu.hbm_bandwidth;
  c.flops_bf16 = gpu.bf16_flops;
  c.flops_fp8 = gpu.fp8_flops;
  c.flops_fp4 = gpu.fp4_flops;
  c.sm_count = gpu.sm_count;
  c.compute_capability = gpu.compute_capability;
  c.fabric = MakeFabric(gpu, topology, tp);
  c.par.tp = tp;
  c.allreduce = policy;
  return c;
}

inline ForwardShape Decode(double batch, double ctx, bool graph = true) {
  return {batch, 1, ctx, batch, graph};
}

}  // namespace kvplan::perf_test
