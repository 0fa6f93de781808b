// Log forensics speed targets (issue #4):
//  - scanning a 1 GB synthetic SGLang log: >= 300 MB/s on one core, with memory
//    independent of the log's size (fixed read buffer);
//  - `kvplan diff` of two typical start-up logs as a whole process: median <= 50 ms.
// KVPLAN_BENCH_LOG_MB sets the synthetic log's size (default 1024).
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <benchmark/benchmark.h>

#include "bench/process_bench.h"

#include "logs/log_scanner.h"

namespace {

std::string Data(const std::string& name) {
  return std::string(KVPLAN_SOURCE_DIR) + "/tests/data/synthetic/" + name;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int64_t LogMegabytes() {
  const char* env = std::getenv("KVPLAN_BENCH_LOG_MB");
  return env != nullptr ? std::atoll(env) : 1024;
}

// A start-up log followed by hours of serving: decode/prefill batches and HTTP
// access lines from 8 ranks, with a relaunch in the middle.
std::string g_generated;  // the synthetic log, once written (removed at exit)

const std::string& SyntheticLog() {
  static const std::string path = [] {
    std::string p = (std::filesystem::temp_directory_path() /
                     ("kvplan-bench-" + std::to_string(::getpid()) + ".log"))
                        .string();
    std::string startup = ReadFile(Data("sglang/story_baseline_auto_mfs.log"));
    std::string block;
    for (int i = 0; i < 1000; ++i) {
      int rank = i % 8;
      block += "[2025-07-21 09:13:" + std::to_string(10 + i % 50) + " TP" + std::to_string(rank) +
               "] Decode batch. #running-req: " + std::to_string(30 + i % 17) +
               ", #token: " + std::to_string(18000 + i * 7) +
               ", token usage: 0.08, cuda graph: True, gen throughput (token/s): 1456.12, "
               "#queue-req: 0, \n";
      if (i % 10 == 0) {
        block +=
            "[2025-07-21 09:13:11 TP0] Prefill batch. #new-seq: 1, #new-token: 512, "
            "#cached-token: 0, token usage: 0.08, #running-req: 36, #queue-req: 0, \n";
        block +=
            "[2025-07-21 09:13:11] INFO:     10.0.0.17:51234 - \"POST /v1/chat/completions "
            "HTTP/1.1\" 200 OK\n";
      }
    }
    FILE* f = std::fopen(p.c_str(), "wb");
    int64_t target = LogMegabytes() << 20;
    int64_t written = 0;
    bool relaunched = false;
    std::fwrite(startup.data(), 1, startup.size(), f);
    while (written < target) {
      std::fwrite(block.data(), 1, block.size(), f);
      written += static_cast<int64_t>(block.size());
      if (!relaunched && written > target / 2) {
        std::fwrite(startup.data(), 1, startup.size(), f);
        relaunched = true;
      }
    }
    std::fclose(f);
    g_generated = p;
    return p;
  }();
  return path;
}

int64_t PeakRssKiB() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

void BM_ScanSyntheticLog(benchmark::State& state) {
  const std::string& path = SyntheticLog();
  int64_t bytes = static_cast<int64_t>(std::filesystem::file_size(path));
  int64_t rss_before = PeakRssKiB();
  size_t runs = 0;
  for (auto _ : state) {
    kvplan::ScanResult r = kvplan::ScanLogFile(path);
    runs = r.runs.size();
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * bytes);
  state.counters["log_MiB"] = static_cast<double>(bytes >> 20);
  state.counters["runs"] = static_cast<double>(runs);
  // Growth of the peak RSS while scanning: the fixed buffer, not the log size.
  state.counters["peak_rss_growth_MiB"] = static_cast<double>(PeakRssKiB() - rss_before) / 1024.0;
}
BENCHMARK(BM_ScanSyntheticLog)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_DiffProcess(benchmark::State& state) {
  kvplan::BenchmarkKvplanProcess(state, {"diff", Data("sglang/story_baseline_auto_mfs.log"),
                                         Data("sglang/story_mfs_0.55_failed.log")});
}
BENCHMARK(BM_DiffProcess)
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime()
    ->Iterations(1)
    ->Repetitions(15)
    ->ReportAggregatesOnly(true);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (!g_generated.empty()) std::filesystem::remove(g_generated);
  return 0;
}
