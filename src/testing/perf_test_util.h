// Step contexts on the reference hardware, for the performance tests.
#pragma once

#include "perf/reference_hardware.h"
#include "perf/step_time.h"

namespace kvplan::perf_test {

inline StepContext Context(const ModelGeometry* g, const char* gpu_id, Topology topology, int tp,
                           AllreducePolicy policy = AllreducePolicy::kEngineDefault) {
  const GpuSpec gpu = ReferenceGpu(gpu_id);
  StepContext c = GpuStepContext(g, gpu);
  c.fabric = MakeFabric(gpu, topology, tp);
  c.par.tp = tp;
  c.allreduce = policy;
  return c;
}

inline ForwardShape Decode(double batch, double ctx, bool graph = true) {
  return {batch, 1, ctx, batch, graph};
}

}  // namespace kvplan::perf_test
