// Speed of `kvplan simulate`: whole simulations (the plan, the scheduler, a
// step time per step, the metrics) in simulated requests per second on one
// core. Target (issue #12): at least 300,000 requests/s for Llama-3.1-8B on
// one H100, 1,024 in / 128 out, concurrency 16, 100,000 requests; memory
// flat in the number of requests (the simulator holds only the requests in
// flight, the metrics fixed histograms).
#include <benchmark/benchmark.h>

#include "kvplan/simulate.h"

namespace kvplan {
namespace {

SimulateQuery Query(const char* engine, int64_t requests) {
  SimulateQuery q;
  q.launch.engine = engine;
  q.launch.model = "meta-llama/Llama-3.1-8B-Instruct";
  q.launch.gpu = "h100";
  q.workload.concurrency = 16;
  q.workload.num_requests = requests;
  q.workload.input = {"fixed", 1024, 0};
  q.workload.output = {"fixed", 128, 0};
  return q;
}

void Run(benchmark::State& state, const char* engine) {
  const SimulateQuery q = Query(engine, state.range(0));
  int64_t requests = 0;
  for (auto _ : state) {
    const SimulateResult r = Simulate(q);
    benchmark::DoNotOptimize(r.e2e_ms.mean);
    requests += r.completed;
  }
  state.counters["requests_per_s"] =
      benchmark::Counter(static_cast<double>(requests), benchmark::Counter::kIsRate);
}

void BM_SimulateSglang(benchmark::State& state) { Run(state, "sglang"); }
void BM_SimulateVllm(benchmark::State& state) { Run(state, "vllm"); }

BENCHMARK(BM_SimulateSglang)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_SimulateVllm)->Arg(100000)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace kvplan

BENCHMARK_MAIN();
