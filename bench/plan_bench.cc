// Speed of the SGLang planner: one plan in-process (the arithmetic alone, with
// the explanation, and with the re-planned fixes), and `kvplan plan --json` as
// a whole process with its peak RSS. Figures go to BENCHMARKS.md.
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fcntl.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "engines/sglang.h"
#include "gpus/gpu.h"
#include "models/model.h"
#include "util/units.h"

extern char** environ;

namespace kvplan {
namespace {

struct Inputs {
  ModelSpec model = LoadModel("deepseek-ai/DeepSeek-V3");
  GpuSpec gpu = FindGpu("rtx-pro-6000");
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

// One whole `kvplan plan --json` process; reports peak RSS as a counter.
void BM_PlanProcess(benchmark::State& state) {
  std::vector<std::string> argv_s = {KVPLAN_BINARY,
                                     "plan",
                                     "--json",
                                     "--gpu",
                                     "rtx-pro-6000",
                                     "--pre-load-free-gib",
                                     "93.999",
                                     "--post-load-free-gib",
                                     "21.697",
                                     "--",
                                     "python",
                                     "-m",
                                     "sglang.launch_server",
                                     "--model-path",
                                     "deepseek-ai/DeepSeek-V3",
                                     "--tp",
                                     "8",
                                     "--mem-fraction-static",
                                     "0.55"};
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
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    max_rss_kib = std::max(max_rss_kib, ru.ru_maxrss);
  }
  posix_spawn_file_actions_destroy(&actions);
  state.counters["peak_rss_MiB"] = static_cast<double>(max_rss_kib) / 1024.0;
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
