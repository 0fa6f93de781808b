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

#include "engines/trtllm.h"
#include "engines/vllm.h"
#include "gpus/gpu.h"
#include "models/model.h"

extern char** environ;

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

// One whole `kvplan compare` process (the vllm#21348 setup); reports peak RSS.
void BM_CompareProcess(benchmark::State& state) {
  std::vector<std::string> argv_s = {
      KVPLAN_BINARY, "compare", "--model", "Qwen/Qwen3-235B-A22B-FP8",
      "--gpu",       "h100",    "--tp",    "4"};
  std::vector<char*> argv;
  for (std::string& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  long max_rss_kib = 0;
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot run kvplan");
      break;
    }
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    auto end = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("kvplan compare failed");
      break;
    }
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    max_rss_kib = std::max(max_rss_kib, ru.ru_maxrss);
  }
  posix_spawn_file_actions_destroy(&actions);
  state.counters["peak_rss_MiB"] = static_cast<double>(max_rss_kib) / 1024.0;
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
