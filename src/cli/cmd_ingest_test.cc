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
#include "testing/scratch_dir.h"
#include "testing/test_data.h"

namespace {

using kvplan::testing::KvplanBinary;
using Result = kvplan::testing::ShellRun;

std::string Data(const std::string& name) { return kvplan::testing::SyntheticData(name); }

class LogVerbs : public ::testing::Test {
 protected:
  // Members in this order: the directory exists before its paths are taken.
  const kvplan::testing::ScratchDir scratch_{"kvplan-verbs"};
  const std::filesystem::path dir_ = scratch_.path();
  const std::string db_ = scratch_.File("runs.db");
};

TEST_F(LogVerbs, IngestIsIdempotentAndRunsListsWhatWasStored) {
  std::string logs =
      Data("sglang/story_baseline_auto_mfs.log") + " " + Data("sglang/story_mfs_0.55_failed.log");
  Result first = kvplan::testing::RunKvplanShell("ingest --db " + db_ + " " + logs);
  ASSERT_EQ(first.status, 0) << first.out;
  EXPECT_NE(first.out.find("1 run stored"), std::string::npos) << first.out;
  Result again = kvplan::testing::RunKvplanShell("ingest --db " + db_ + " " +
                                                 Data("sglang/story_baseline_auto_mfs.log"));
  EXPECT_NE(again.out.find("already ingested"), std::string::npos) << again.out;
  Result json = kvplan::testing::RunKvplanShell("runs --json --db " + db_);
  ASSERT_EQ(json.status, 0) << json.out;
  nlohmann::json runs = nlohmann::json::parse(json.out);
  ASSERT_EQ(runs.size(), 2u);
  Result failed = kvplan::testing::RunKvplanShell("runs --failed --json --db " + db_);
  EXPECT_EQ(nlohmann::json::parse(failed.out).size(), 1u);
  Result table = kvplan::testing::RunKvplanShell("runs --model qwen3-235b --db " + db_);
  EXPECT_NE(table.out.find("failed"), std::string::npos) << table.out;
}

TEST_F(LogVerbs, DiffLastGoodFindsTheBaselineInTheHistory) {
  ASSERT_EQ(kvplan::testing::RunKvplanShell("ingest --db " + db_ + " " +
                                            Data("sglang/story_baseline_auto_mfs.log"))
                .status,
            0);
  Result d = kvplan::testing::RunKvplanShell("diff --last-good --db " + db_ + " " +
                                             Data("sglang/story_mfs_0.55_failed.log"));
  ASSERT_EQ(d.status, 0) << d.out;
  EXPECT_NE(d.out.find("mem_fraction_static      0.88 (auto) -> 0.55 (user)"), std::string::npos)
      << d.out;
  Result none = kvplan::testing::RunKvplanShell("diff --last-good --db " + db_ + " " +
                                                Data("vllm/v1_qwen3_8b_h100_ok.log"));
  EXPECT_EQ(none.status, 2) << none.out;
  EXPECT_NE(none.out.find("no successful run"), std::string::npos);
}

TEST_F(LogVerbs, ExplainAnswersWhatIfFromTheMeasuredFigures) {
  Result r = kvplan::testing::RunKvplanShell(
      "explain " + Data("sglang/story_baseline_auto_mfs.log") + " --set mem-fraction-static=0.55");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("rest_memory -20.60 GiB"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("check: matches"), std::string::npos) << r.out;
  Result bad = kvplan::testing::RunKvplanShell(
      "explain " + Data("sglang/story_baseline_auto_mfs.log") + " --set tp=4");
  EXPECT_EQ(bad.status, 2);
  Result missing = kvplan::testing::RunKvplanShell("explain /nonexistent.log");
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
  Result json = kvplan::testing::RunKvplanShell("runs --json --db " + db_);
  ASSERT_EQ(json.status, 0) << json.out;
  EXPECT_EQ(nlohmann::json::parse(json.out).size(), 6u);
}

using kvplan::testing::CliResult;
using kvplan::testing::RunKvplan;

size_t CountOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// Every log is read; each bad one is one line on stderr; the good ones are
// stored; exit 1 says some were not.
TEST_F(LogVerbs, IngestReadsEveryLogAndReportsEachBadOne) {
  CliResult r = RunKvplan({"ingest", "--db", db_, "/nonexistent.log",
                           Data("sglang/story_baseline_auto_mfs.log"), dir_.string(),
                           Data("vllm/v1_qwen3_8b_h100_ok.log")});
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_EQ(r.out.find("created new run store " + db_ + "\n"), 0u) << r.out;
  EXPECT_EQ(CountOf(r.out, "1 run stored"), 2u) << r.out;
  EXPECT_EQ(CountOf(r.err, "\n"), 2u) << r.err;
  EXPECT_NE(r.err.find("/nonexistent.log: not ingested: cannot open log"), std::string::npos);
  // A directory is refused at open (regular files only), never an empty log;
  // read errors past the open are LineReader's tests.
  EXPECT_NE(r.err.find(dir_.string() + ": not ingested: log " + dir_.string() +
                       " is a directory, not a regular file"),
            std::string::npos)
      << r.err;
  CliResult runs = RunKvplan({"runs", "--json", "--db", db_});
  EXPECT_EQ(nlohmann::json::parse(runs.out).size(), 2u);
}

TEST_F(LogVerbs, AnInMemoryOrMistypedStoreIsRefused) {
  std::string log = Data("vllm/v1_qwen3_8b_h100_ok.log");
  CliResult memory = RunKvplan({"ingest", "--db", ":memory:", log});
  EXPECT_EQ(memory.exit_code, 2);
  EXPECT_EQ(CountOf(memory.err, "\n"), 1u) << memory.err;
  EXPECT_NE(memory.err.find("must be a file path"), std::string::npos) << memory.err;
  std::string typo = (dir_ / "typo" / "runs.db").string();
  EXPECT_EQ(RunKvplan({"ingest", "--db", typo, log}).exit_code, 2);
  for (std::vector<std::string> args :
       {std::vector<std::string>{"runs", "--db", db_},
        std::vector<std::string>{"diff", "--last-good", "--db", db_, log}}) {
    CliResult r = RunKvplan(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_NE(r.err.find("no run store at " + db_), std::string::npos) << r.err;
  }
  EXPECT_FALSE(std::filesystem::exists(db_));
  EXPECT_FALSE(std::filesystem::exists(dir_ / "typo"));
}

// A log still being written, ingested again: the same launches, updated.
TEST_F(LogVerbs, AGrowingLogIsTheSameLaunches) {
  std::string log = (dir_ / "live.log").string();
  std::filesystem::copy_file(Data("sglang/story_baseline_auto_mfs.log"), log);
  ASSERT_EQ(RunKvplan({"ingest", "--db", db_, log}).exit_code, 0);
  std::FILE* f = std::fopen(log.c_str(), "a");
  std::fputs("\n", f);
  std::fclose(f);
  CliResult again = RunKvplan({"ingest", "--db", db_, log});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  // The line wraps at 100 columns (fit_columns.h), where depends on the temp path's length:
  // it is read with the wrapping undone.
  std::string unwrapped = again.out;
  for (size_t at; (at = unwrapped.find("\n  ")) != std::string::npos;) {
    unwrapped.replace(at, 3, " ");
  }
  EXPECT_NE(unwrapped.find(log + ": grown since ingested as " + log + ": 1 run updated, 0 stored"),
            std::string::npos)
      << again.out;
  CliResult runs = RunKvplan({"runs", "--json", "--db", db_});
  EXPECT_EQ(nlohmann::json::parse(runs.out).size(), 1u);
}

// Reading verbs open read-only: a store nobody may write to still lists. As
// root, permissions do not apply, so the reader runs as nobody.
TEST_F(LogVerbs, AReadOnlyStoreCanBeListed) {
  ASSERT_EQ(
      RunKvplan({"ingest", "--db", db_, Data("sglang/story_baseline_auto_mfs.log")}).exit_code, 0);
  // nobody may not reach the build tree (a checkout under a 0700 directory such as
  // mktemp -d's): the binary (its data is embedded) and the log run from the test's
  // own directory instead.
  const std::string bin = (dir_ / "kvplan").string(), log = (dir_ / "failed.log").string();
  std::filesystem::copy_file(KvplanBinary(), bin);
  std::filesystem::copy_file(Data("sglang/story_mfs_0.55_failed.log"), log);
  std::filesystem::permissions(db_, std::filesystem::perms(0444));
  std::filesystem::permissions(dir_, std::filesystem::perms(0555));
  std::string out_path = (std::filesystem::temp_directory_path() /
                          ("kvplan-ro-" + std::to_string(::getpid()) + ".out"))
                             .string();
  for (const char* verb : {"runs", "diff"}) {
    pid_t pid = ::fork();
    if (pid == 0) {
      int fd = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0666);
      ::dup2(fd, 1);
      ::dup2(fd, 2);
      if (::geteuid() == 0 && ::setuid(65534) != 0) ::_exit(126);
      const std::string db = db_;
      if (std::string(verb) == "runs") {
        ::execl(bin.c_str(), bin.c_str(), "runs", "--db", db.c_str(), nullptr);
      } else {
        ::execl(bin.c_str(), bin.c_str(), "diff", "--last-good", "--db", db.c_str(), log.c_str(),
                nullptr);
      }
      ::_exit(127);
    }
    int st = 0;
    ::waitpid(pid, &st, 0);
    std::FILE* f = std::fopen(out_path.c_str(), "r");
    std::string out;
    for (int c; f != nullptr && (c = std::fgetc(f)) != EOF;) out.push_back(static_cast<char>(c));
    if (f != nullptr) std::fclose(f);
    EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << verb << ": " << out;
    EXPECT_NE(out.find("story_baseline_auto_mfs.log"), std::string::npos) << out;
  }
  std::filesystem::remove(out_path);
  std::filesystem::permissions(dir_, std::filesystem::perms(0755));
}

}  // namespace
