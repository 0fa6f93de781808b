// Speed of `kvplan tune`: whole searches (memory from the SGLang planner and
// time from the step-time model) in configurations per second on 1 and 2
// threads, and the allocation-free time evaluation of one configuration.
// Target (issue #5): at least 100,000 configurations per second on 2 cores.
#include <benchmark/benchmark.h>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "perf/perf_report.h"
#include "perf/reference_hardware.h"
#include "perf/speculative.h"
#include "perf/step_time.h"
#include "tune/tune.h"

namespace kvplan {
namespace {

// DeepSeek-V3 (61-layer MoE, MLA, FP8, MTP layer) on eight H200: layouts
// with EP and DP attention, NEXTN settings; most candidates start.
TuneRequest Request(int threads) {
  TuneRequest r;
  r.model = LoadModel("deepseek-ai/DeepSeek-V3");
  r.gpu = FindGpu("h200");
  r.gpus = 8;
  r.topology = Topology::kNvswitch;
  r.context = 4096;
  r.threads = threads;
  return r;
}

void BM_TuneSearch(benchmark::State& state) {
  const TuneRequest req = Request(static_cast<int>(state.range(0)));
  int64_t configs = 0;
  for (auto _ : state) {
    const TuneReport rep = RunTune(req);
    benchmark::DoNotOptimize(rep.ranked.data());
    configs += rep.evaluated;
  }
  state.SetItemsProcessed(configs);
  // Rate over wall-clock time; with MeasureProcessCPUTime the CPU column is
  // the whole process's CPU time (all worker threads).
  state.counters["configs_per_s"] =
      benchmark::Counter(static_cast<double>(configs), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_TuneSearch)
    ->Arg(1)
    ->Arg(2)
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()
    ->UseRealTime();

// One decode step and one EAGLE-3 iteration of the step-time model: what the
// search's time pass does per configuration, without allocation.
void BM_StepTime(benchmark::State& state) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("deepseek-v3"));
  const ModelGeometry d = MakeGeometry(ReferenceModel("eagle3-deepseek"));
  PerfRequest pr;
  pr.gpu = FindGpu("rtx-pro-6000-server");
  pr.topology = Topology::kPcieDualSocket;
  pr.par.tp = 8;
  const StepContext tc = MakeStepContext(g, pr);
  const StepContext dc = MakeStepContext(d, pr);
  SpecConfig spec = ResolveSglangSpec(SpecAlgorithm::kEagle3, "DeepseekV3", 3, 1, 4);
  double bs = 1;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ForwardTime(tc, {bs, 1, 2048, bs, true}).total_us);
    benchmark::DoNotOptimize(SpeculativeStep(tc, dc, spec, SpecEngine::kSglang, bs, 2048, true));
    bs = bs >= 256 ? 1 : bs * 2;
  }
}
BENCHMARK(BM_StepTime);

}  // namespace
}  // namespace kvplan

BENCHMARK_MAIN();
