// Speed of `kvplan compare` (target: median <= 30 ms as a whole process) and of
// the vLLM and TensorRT-LLM planners in-process. Figures go to BENCHMARKS.md.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench/process_bench.h"

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/trtllm/trtllm.h"
#include "engines/vllm/vllm.h"

namespace kvplan {
namespace {

void BM_PlanVllm(benchmark::State& state) {
  ModelSpec model = LoadModel("Qwen/Qwen3-235B-A22B-FP8");
  const GpuSpec& gpu = FindGpu("h100");
  VllmArgs args = ParseVllmArgs({"--tensor-parallel-size", "4"});
  for (auto _ : state) {
    PlanResult r = PlanVllm("", model, gpu, args, VllmMeasured{});
    benchmark::DoNotOptimize(r.max_total_num_tokens);
  }
}
BENCHMARK(BM_PlanVllm);

void BM_PlanVllmFailingWithFixes(benchmark::State& state) {
  ModelSpec model = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  const GpuSpec& gpu = FindGpu("rtx-3090");
  VllmArgs args = ParseVllmArgs({"--gpu-memory-utilization", "0.75"});
  for (auto _ : state) {
    PlanResult r = PlanVllm("0.10.1", model, gpu, args, VllmMeasured{});
    benchmark::DoNotOptimize(r.fixes.size());
  }
}
BENCHMARK(BM_PlanVllmFailingWithFixes);

void BM_PlanTrtllm(benchmark::State& state) {
  ModelSpec model = LoadModel("Qwen/Qwen3-235B-A22B-FP8");
  const GpuSpec& gpu = FindGpu("h100");
  TrtllmArgs args = ParseTrtllmArgs({"--tp_size", "4"});
  for (auto _ : state) {
    PlanResult r = PlanTrtllm("", model, gpu, args, TrtllmMeasured{});
    benchmark::DoNotOptimize(r.max_total_num_tokens);
  }
}
BENCHMARK(BM_PlanTrtllm);

// One whole `kvplan compare` process (the vllm#21348 setup).
void BM_CompareProcess(benchmark::State& state) {
  BenchmarkKvplanProcess(
      state, {"compare", "--model", "Qwen/Qwen3-235B-A22B-FP8", "--gpu", "h100", "--tp", "4"});
}
BENCHMARK(BM_CompareProcess)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(30)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace kvplan

BENCHMARK_MAIN();
