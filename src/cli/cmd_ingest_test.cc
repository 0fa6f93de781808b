// The log verbs as a whole process: ingest, runs, diff --last-good, explain,
// and several ingest processes writing one database at once.
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "testing/cli_test_util.h"

namespace {

using kvplan::testing::KvplanBinary;
using Result = kvplan::testing::ShellRun;

std::string Data(const std::string& name) {
  return std::string(KVPLAN_SOURCE_DIR) + "/tests/data/synthetic/" + name;
}

// kvplan ARGS through the shell, stderr joined to stdout.
Result Kvplan(const std::string& args) { return kvplan::testing::RunKvplanShell(args); }

class LogVerbs : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("kvplan-verbs-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    db_ = (dir_ / "runs.db").string();
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::filesystem::path dir_;
  std::string db_;
};

TEST_F(LogVerbs, IngestIsIdempotentAndRunsListsWhatWasStored) {
  std::string logs =
      Data("sglang/story_baseline_auto_mfs.log") + " " + Data("sglang/story_mfs_0.55_failed.log");
  Result first = Kvplan("ingest --db " + db_ + " " + logs);
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("1 run stored"), std::string::npos) << first.out;
  Result again = Kvplan("ingest --db " + db_ + " " + Data("sglang/story_baseline_auto_mfs.log"));
  EXPECT_NE(again.out.find("already ingested"), std::string::npos) << again.out;
  Result json = Kvplan("runs --json --db " + db_);
  ASSERT_EQ(json.status, 0) << json.out;
  nlohmann::json runs = nlohmann::json::parse(json.out);
  ASSERT_EQ(runs.size(), 2u);
  Result failed = Kvplan("runs --failed --json --db " + db_);
  EXPECT_EQ(nlohmann::json::parse(failed.out).size(), 1u);
  Result table = Kvplan("runs --model qwen3-235b --db " + db_);
  EXPECT_NE(table.out.find("failed"), std::string::npos) << table.out;
}

TEST_F(LogVerbs, DiffLastGoodFindsTheBaselineInTheHistory) {
  ASSERT_EQ(Kvplan("ingest --db " + db_ + " " + Data("sglang/story_baseline_auto_mfs.log")).status,
            0);
  Result d =
      Kvplan("diff --last-good --db " + db_ + " " + Data("sglang/story_mfs_0.55_failed.log"));
  ASSERT_EQ(d.status, 0) << d.out;
  EXPECT_NE(d.out.find("mem_fraction_static      0.88 (auto) -> 0.55 (user)"), std::string::npos)
      << d.out;
  Result none = Kvplan("diff --last-good --db " + db_ + " " + Data("vllm/v1_qwen3_8b_h100_ok.log"));
  EXPECT_EQ(none.status, 2) << none.out;
  EXPECT_NE(none.out.find("no successful run"), std::string::npos);
}

TEST_F(LogVerbs, ExplainAnswersWhatIfFromTheMeasuredFigures) {
  Result r = Kvplan("explain " + Data("sglang/story_baseline_auto_mfs.log") +
                    " --set mem-fraction-static=0.55");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("rest_memory -20.60 GiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check: matches"), std::string::npos) << r.out;
  Result bad = Kvplan("explain " + Data("sglang/story_baseline_auto_mfs.log") + " --set tp=4");
  EXPECT_EQ(bad.status, 2);
  Result missing = Kvplan("explain /nonexistent.log");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.out.find("cannot open log"), std::string::npos);
}

// Several processes ingest overlapping sets of logs into one database at once:
// every distinct log is stored once with all its runs, none lost or doubled.
TEST_F(LogVerbs, ConcurrentIngestProcessesLoseNothing) {
  std::vector<std::string> logs;
  for (int i = 0; i < 6; ++i) {
    std::string path = (dir_ / ("copy" + std::to_string(i) + ".log")).string();
    std::filesystem::copy_file(Data("sglang/story_baseline_auto_mfs.log"), path);
    FILE* f = std::fopen(path.c_str(), "a");
    std::fprintf(f, "[2025-07-21 09:00:0%d] trailer %d makes the content distinct\n", i, i);
    std::fclose(f);
    logs.push_back(path);
  }
  std::vector<pid_t> kids;
  for (int p = 0; p < 4; ++p) {
    pid_t pid = ::fork();
    if (pid == 0) {
      std::vector<std::string> args = {KvplanBinary(), "ingest", "--db", db_};
      for (int i = 0; i < 6; ++i) args.push_back(logs[static_cast<size_t>((i + p) % 6)]);
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      int devnull = ::open("/dev/null", 1);
      ::dup2(devnull, 1);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    kids.push_back(pid);
  }
  for (pid_t pid : kids) {
    int st = 0;
    ::waitpid(pid, &st, 0);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  }
  Result json = Kvplan("runs --json --db " + db_);
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), 6u);
}

}  // namespace
