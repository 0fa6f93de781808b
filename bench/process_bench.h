// Times kvplan as a whole process, as a user runs it: one posix_spawn per
// iteration, stdout to /dev/null, wall-clock time as the iteration time and
// the largest peak RSS as a counter (peak_rss_MiB).
#pragma once

#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

extern char** environ;

namespace kvplan {

// Runs `kvplan args...` once per iteration; use with ->UseManualTime().
inline void BenchmarkKvplanProcess(benchmark::State& state, std::vector<std::string> args) {
  std::vector<std::string> argv_s = {KVPLAN_BINARY};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  long max_rss_kib = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    pid_t pid = 0;
    if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) != 0) {
      state.SkipWithError("cannot run kvplan");
      break;
    }
    int status = 0;
    struct rusage ru {};
    wait4(pid, &status, 0, &ru);
    const auto end = std::chrono::steady_clock::now();
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      state.SkipWithError("kvplan exited with an error");
      break;
    }
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    max_rss_kib = std::max(max_rss_kib, ru.ru_maxrss);
  }
  posix_spawn_file_actions_destroy(&actions);
  state.counters["peak_rss_MiB"] = static_cast<double>(max_rss_kib) / 1024.0;
}

}  // namespace kvplan
