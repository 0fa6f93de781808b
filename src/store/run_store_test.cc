#include "store/run_store.h"

#include <unistd.h>

#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "logs/log_scanner.h"
#include "util/error.h"

namespace kvplan {
namespace {

class TempDir {
 public:
  TempDir() {
    path_ = std::filesystem::temp_directory_path() /
            ("kvplan-store-" + std::to_string(::getpid()) + "-" +
             std::to_string(reinterpret_cast<uintptr_t>(this)));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }
  std::string File(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

RunRecord MakeRun(const std::string& model, const std::string& outcome, int index = 0) {
  RunRecord r;
  r.engine = "sglang";
  r.model = model;
  r.gpu_name = "NVIDIA H100 80GB HBM3";
  r.outcome = outcome;
  r.launch_index = index;
  r.settings.push_back({"tp_size", "2", "user", "set on the launch command line (--tp)"});
  r.timeline.push_back({"TP0", "t", std::string(kStageLoadWeightEnd), 21.5, 50.25, 7});
  r.figures["kv_tokens"] = 1234;
  return r;
}

TEST(RunStore, IngestIsIdempotentByContentHash) {
  TempDir dir;
  RunStore store(dir.File("sub/dir/runs.db"));  // creates the directories
  std::vector<RunRecord> runs = {MakeRun("m", "ok", 0), MakeRun("m", "failed", 1)};
  IngestOutcome first = store.Ingest("a.log", "hash-a", 100, runs);
  EXPECT_FALSE(first.already_present);
  EXPECT_EQ(first.runs_stored, 2);
  IngestOutcome again = store.Ingest("copy-of-a.log", "hash-a", 100, runs);
  EXPECT_TRUE(again.already_present);
  EXPECT_EQ(again.runs_stored, 0);
  EXPECT_EQ(store.CountRuns(), 2);
  EXPECT_EQ(store.CountLogs(), 1);
}

TEST(RunStore, RecordsRoundTripAndFiltersApply) {
  TempDir dir;
  RunStore store(dir.File("runs.db"));
  store.Ingest("a.log", "h1", 1, {MakeRun("Qwen/Qwen3-8B", "ok")});
  store.Ingest("b.log", "h2", 1, {MakeRun("meta-llama/Llama-3.1-8B", "failed")});
  std::vector<StoredRun> all = store.List({});
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[0].record.model, "Qwen/Qwen3-8B");
  EXPECT_DOUBLE_EQ(*all[0].record.timeline[0].avail_gib, 21.5);
  EXPECT_DOUBLE_EQ(*all[0].record.Figure("kv_tokens"), 1234);
  EXPECT_EQ(all[1].log_path, "b.log");
  EXPECT_EQ(store.List({"qwen3", false}).size(), 1u);
  std::vector<StoredRun> failed = store.List({"", true});
  ASSERT_EQ(failed.size(), 1u);
  EXPECT_EQ(failed[0].record.model, "meta-llama/Llama-3.1-8B");
}

TEST(RunStore, LastGoodIsTheNewestSuccessOnTheSameModelAndHardware) {
  TempDir dir;
  RunStore store(dir.File("runs.db"));
  store.Ingest("old.log", "h1", 1, {MakeRun("m", "ok")});
  store.Ingest("new.log", "h2", 1, {MakeRun("m", "ok")});
  store.Ingest("bad.log", "h3", 1, {MakeRun("m", "failed")});
  RunRecord other_gpu = MakeRun("m", "ok");
  other_gpu.gpu_name = "NVIDIA B200";
  store.Ingest("b200.log", "h4", 1, {other_gpu});
  std::optional<StoredRun> good = store.LastGood(MakeRun("m", "failed"), "h3");
  ASSERT_TRUE(good);
  EXPECT_EQ(good->log_path, "new.log");
  EXPECT_FALSE(store.LastGood(MakeRun("other-model", "failed"), ""));
  std::optional<StoredRun> older = store.LastGood(MakeRun("m", "ok"), "h2");
  ASSERT_TRUE(older);
  EXPECT_EQ(older->log_path, "old.log");
}

// Several threads, each with its own connection, ingest at once: every
// distinct log is stored exactly once, with all its runs.
TEST(RunStore, ConcurrentIngestsLoseNothingAndDuplicateNothing) {
  TempDir dir;
  std::string db = dir.File("runs.db");
  constexpr int kThreads = 6, kLogsPerThread = 8;
  std::vector<std::thread> threads;
  std::vector<std::string> errors(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      try {
        RunStore store(db);
        for (int i = 0; i < kLogsPerThread; ++i) {
          // Half the logs are shared by all threads (same hash), half are this thread's own.
          std::string hash = i % 2 == 0 ? "shared-" + std::to_string(i)
                                        : "own-" + std::to_string(t) + "-" + std::to_string(i);
          store.Ingest(hash + ".log", hash, 10, {MakeRun("m", "ok", 0), MakeRun("m", "ok", 1)});
        }
      } catch (const std::exception& e) {
        errors[t] = e.what();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  RunStore store(db);
  int64_t logs = kLogsPerThread / 2 + kThreads * (kLogsPerThread / 2);
  EXPECT_EQ(store.CountLogs(), logs);
  EXPECT_EQ(store.CountRuns(), 2 * logs);
}

TEST(RunStore, NotADatabaseIsAClearError) {
  TempDir dir;
  std::string path = dir.File("junk.db");
  FILE* f = std::fopen(path.c_str(), "w");
  std::fputs("this is not an sqlite database, just text padding padding padding padding", f);
  std::fclose(f);
  EXPECT_THROW(RunStore store(path), InputError);
}

TEST(RunStore, DefaultPathFollowsXdgDataHome) {
  const char* old = std::getenv("XDG_DATA_HOME");
  std::string saved = old ? old : "";
  ::setenv("XDG_DATA_HOME", "/tmp/xdg-test", 1);
  EXPECT_EQ(RunStore::DefaultPath(), "/tmp/xdg-test/kvplan/runs.db");
  ::unsetenv("XDG_DATA_HOME");
  ::setenv("HOME", std::getenv("HOME") ? std::getenv("HOME") : "/root", 1);
  EXPECT_NE(RunStore::DefaultPath().find("/.local/share/kvplan/runs.db"), std::string::npos);
  if (old) ::setenv("XDG_DATA_HOME", saved.c_str(), 1);
}

}  // namespace
}  // namespace kvplan
