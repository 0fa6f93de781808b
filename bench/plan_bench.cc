// Speed of the SGLang planner: one plan in-process (the arithmetic alone, with
// the explanation, and with the re-planned fixes), and `kvplan plan --json` as
// a whole process with its peak RSS. Figures go to BENCHMARKS.md.

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "base/units.h"
#include "bench/process_bench.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/sglang.h"

namespace kvplan {
namespace {

struct Inputs {
  ModelSpec model = LoadModel("deepseek-ai/DeepSeek-V3");
  GpuSpec gpu = FindGpu("rtx-pro-6000-server");
  SglangArgs args;
  SglangMeasured measured;
  Inputs() {
    args.tp = 8;
    args.mem_fraction_static = 0.55;
    args.cuda_graph_max_bs = 128;
    measured.pre_load_free_bytes = GiBToBytes(93.999);
    measured.post_load_free_bytes = GiBToBytes(21.697);
  }
};

void BM_PlanSglangArithmetic(benchmark::State& state) {
  Inputs in;
  in.args.mem_fraction_static = 0.88;
  for (auto _ : state) {
    PlanResult r =
        PlanSglang("main", in.model, in.gpu, in.args, in.measured, nullptr, {false, false});
    benchmark::DoNotOptimize(r.max_total_num_tokens);
  }
}
BENCHMARK(BM_PlanSglangArithmetic);

void BM_PlanSglangExplained(benchmark::State& state) {
  Inputs in;
  in.args.mem_fraction_static = 0.88;
  for (auto _ : state) {
    PlanResult r =
        PlanSglang("main", in.model, in.gpu, in.args, in.measured, nullptr, {true, false});
    benchmark::DoNotOptimize(r.max_total_num_tokens);
  }
}
BENCHMARK(BM_PlanSglangExplained);

void BM_PlanSglangFailingWithFixes(benchmark::State& state) {
  Inputs in;
  for (auto _ : state) {
    PlanResult r = PlanSglang("0.5.6", in.model, in.gpu, in.args, in.measured);
    benchmark::DoNotOptimize(r.fixes.size());
  }
}
BENCHMARK(BM_PlanSglangFailingWithFixes);

// One whole `kvplan plan --json` process (the story, failing, with fixes).
void BM_PlanProcess(benchmark::State& state) {
  BenchmarkKvplanProcess(
      state,
      {"plan", "--json", "--gpu", "rtx-pro-6000-server", "--pre-load-free-gib", "93.999",
       "--post-load-free-gib", "21.697", "--", "python", "-m", "sglang.launch_server",
       "--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8", "--mem-fraction-static", "0.55"});
}
BENCHMARK(BM_PlanProcess)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->Repetitions(30)
    ->ReportAggregatesOnly(true);

}  // namespace
}  // namespace kvplan

BENCHMARK_MAIN();
