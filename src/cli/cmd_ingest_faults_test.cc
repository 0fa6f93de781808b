// The crash-and-fault test of `kvplan ingest`: ingest processes run 8 at a
// time into one store; some are SIGKILLed at random moments, others run out of
// file size (RLIMIT_FSIZE, so their writes fail with EFBIG as on a full disk).
// Afterwards every log is stored whole or not at all, never twice, and a
// clean ingest completes the store exactly.
//
// Faults come from the operating system, not from a hook in kvplan:
// RLIMIT_FSIZE makes the kernel fail SQLite's real write() calls (the WAL, the
// shared memory, the database at checkpoint) at a chosen size, unprivileged and
// with no code in the store that only tests run.
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>
#include <sqlite3.h>

#include "logs/content_hash.h"
#include "testing/cli_test_util.h"
#include "testing/scratch_dir.h"
#include "testing/sqlite_rows.h"
#include "testing/test_data.h"

namespace {

namespace fs = std::filesystem;

// Rows of `sql`, "|"-joined.
std::vector<std::string> Query(const std::string& db_path, const std::string& sql) {
  return kvplan::testing::QueryRows(db_path, sql);
}

struct Fault {
  int kill_after_ms = -1;      // SIGKILL after this long; -1 = never
  rlim_t file_size_limit = 0;  // 0 = none
};

pid_t StartIngest(const std::string& db, const std::vector<std::string>& logs, const Fault& f) {
  pid_t pid = ::fork();
  if (pid != 0) return pid;
  if (f.file_size_limit > 0) {
    ::signal(SIGXFSZ, SIG_IGN);  // kept across exec: writes fail with EFBIG instead
    rlimit lim{f.file_size_limit, f.file_size_limit};
    ::setrlimit(RLIMIT_FSIZE, &lim);
  }
  std::vector<std::string> args = {kvplan::testing::KvplanBinary(), "ingest", "--db", db};
  args.insert(args.end(), logs.begin(), logs.end());
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int devnull = ::open("/dev/null", O_WRONLY);
  ::dup2(devnull, 1);
  ::dup2(devnull, 2);
  ::execv(argv[0], argv.data());
  ::_exit(127);
}

// The store's invariant at any moment: each log's hash is the SHA-256 of one
// of the files, stored at most once, with all its launches.
void ExpectNothingPartialOrDoubled(const std::string& db, const std::map<std::string, int>& sha,
                                   int launches) {
  EXPECT_EQ(Query(db, "PRAGMA quick_check"), std::vector<std::string>{"ok"});
  for (const std::string& row : Query(db,
                                      "SELECT hash, runs, (SELECT count(*) FROM runs WHERE "
                                      "log_hash = logs.hash) FROM logs")) {
    std::string hash = row.substr(0, row.find('|'));
    EXPECT_TRUE(sha.count(hash)) << "a log no file has: " << row;
    std::string want = fmt::format("|{0}|{0}", launches);
    EXPECT_EQ(row.substr(hash.size()), want) << row;
  }
  EXPECT_EQ(Query(db,
                  "SELECT count(*) FROM (SELECT log_hash, launch_index FROM runs GROUP BY 1, "
                  "2 HAVING count(*) > 1)"),
            std::vector<std::string>{"0"});
}

TEST(IngestFaults, KilledAndFailingIngestsLoseMergeAndDuplicateNothing) {
  const kvplan::testing::ScratchDir dir("kvplan-faults");
  std::string db = dir.File("runs.db");
  std::string data = kvplan::testing::SyntheticData("sglang/");
  // Two launches per log (an ok one, then a failed one), each log distinct.
  std::string two = kvplan::testing::FileBytes(data + "story_baseline_auto_mfs.log") +
                    kvplan::testing::FileBytes(data + "story_mfs_0.55_failed.log");
  std::vector<std::string> logs;
  std::map<std::string, int> sha;
  std::map<std::string, std::string> sha_of_path;
  for (int i = 0; i < 12; ++i) {
    std::string text = fmt::format("[2025-07-20 00:00:00] log {}\n{}", i, two);
    logs.push_back(dir.File("log" + std::to_string(i) + ".log"));
    std::ofstream(logs.back(), std::ios::binary) << text;
    sha[kvplan::Sha256Hex(text)] = i;
    sha_of_path[logs.back()] = kvplan::Sha256Hex(text);
  }
  std::mt19937 rng(20250721);
  auto start = std::chrono::steady_clock::now();
  std::set<std::string> acknowledged;  // logs of ingests that exited 0: each said "stored"
  for (int round = 0; round < 4; ++round) {
    std::vector<std::pair<pid_t, Fault>> kids;
    std::vector<std::vector<std::string>> kid_logs;
    for (int k = 0; k < 8; ++k) {
      std::vector<std::string> mine = logs;
      std::shuffle(mine.begin(), mine.end(), rng);
      mine.resize(4 + rng() % 8);
      Fault f;
      if (k % 3 == 0) f.kill_after_ms = static_cast<int>(rng() % 60);
      if (k % 3 == 1) f.file_size_limit = 1 + rng() % (192 * 1024);
      kids.emplace_back(StartIngest(db, mine, f), f);
      kid_logs.push_back(mine);
    }
    for (int ms = 0; ms <= 60; ++ms) {
      for (auto& [pid, f] : kids) {
        if (f.kill_after_ms == ms) ::kill(pid, SIGKILL);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    for (size_t k = 0; k < kids.size(); ++k) {
      const auto& [pid, f] = kids[k];
      int st = 0;
      ::waitpid(pid, &st, 0);
      // Killed, or exited: 0 (all stored), 1 (some logs not), 2 (store not opened).
      bool ok = (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL && f.kill_after_ms >= 0) ||
                (WIFEXITED(st) && WEXITSTATUS(st) <= 2);
      EXPECT_TRUE(ok) << "status " << st;
      if (f.kill_after_ms < 0 && f.file_size_limit == 0) {
        EXPECT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "status " << st;
      }
      if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
        for (const std::string& l : kid_logs[k]) acknowledged.insert(sha_of_path[l]);
      }
    }
    if (fs::exists(db)) ExpectNothingPartialOrDoubled(db, sha, 2);
    // Nothing an ingest acknowledged is lost: later kills and faults do not undo it.
    for (const std::string& hash : acknowledged) {
      EXPECT_EQ(Query(db, "SELECT count(*) FROM logs WHERE hash = '" + hash + "'"),
                std::vector<std::string>{"1"})
          << "round " << round;
    }
  }
  // A clean ingest afterwards stores exactly what is missing.
  kvplan::testing::CliResult clean = kvplan::testing::RunKvplan([&] {
    std::vector<std::string> a = {"ingest", "--db", db};
    a.insert(a.end(), logs.begin(), logs.end());
    return a;
  }());
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  ExpectNothingPartialOrDoubled(db, sha, 2);
  EXPECT_EQ(Query(db, "SELECT count(*), (SELECT count(*) FROM runs) FROM logs"),
            std::vector<std::string>{"12|24"});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
}

// `env VARS... kvplan args...`, with the read-fault shim preloaded: reads of
// `log` fail with EIO from byte `after` on.
kvplan::testing::CliResult RunWithReadFault(const std::string& log, int64_t after,
                                            const std::vector<std::string>& args) {
  const char* asan = std::getenv("ASAN_OPTIONS");
  std::vector<std::string> argv = {
      "env", std::string("LD_PRELOAD=") + KVPLAN_READ_FAULT_LIB, "KVPLAN_READ_FAULT_PATH=" + log,
      "KVPLAN_READ_FAULT_AFTER=" + std::to_string(after),
      // The shim comes before a sanitizer's runtime in the list of libraries.
      std::string("ASAN_OPTIONS=") + (asan != nullptr ? asan : "") + ":verify_asan_link_order=0",
      kvplan::testing::KvplanBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return kvplan::testing::RunProgram(std::move(argv), /*stdin_from_null=*/true);
}

// Issue 13: a read error in the middle of a log was taken as its end (21 of 60
// launches stored, exit 0, no note; a clean re-ingest then added all 60 again).
// A read fails at a third of the file: nothing is stored, the ingest says why
// and exits 1, and the clean ingest afterwards stores each launch once.
TEST(IngestFaults, AReadErrorMidLogStoresNothingAndSaysSo) {
  const kvplan::testing::ScratchDir dir("kvplan-readfault");
  const std::string one = kvplan::testing::FileBytes(
      kvplan::testing::SyntheticData("sglang/decode_llama8b_no_spec.log"));
  std::string text;
  for (int i = 0; i < 60; ++i) text += one;
  const std::string log = dir.File("sixty.log"), db = dir.File("runs.db");
  std::ofstream(log, std::ios::binary) << text;
  const int64_t after = static_cast<int64_t>(text.size() / 3);
  const std::string said = fmt::format("read error after {} bytes: Input/output error", after);

  kvplan::testing::CliResult cut = RunWithReadFault(log, after, {"ingest", "--db", db, log});
  EXPECT_EQ(cut.exit_code, 1) << cut.out << cut.err;
  EXPECT_NE(cut.err.find(said + "; nothing stored from it"), std::string::npos) << cut.err;
  EXPECT_EQ(std::count(cut.err.begin(), cut.err.end(), '\n'), 1) << cut.err;
  EXPECT_EQ(Query(db, "SELECT count(*) FROM runs"), std::vector<std::string>{"0"});

  kvplan::testing::CliResult explain = RunWithReadFault(log, after, {"explain", log});
  EXPECT_EQ(explain.exit_code, 2) << explain.out << explain.err;
  EXPECT_NE(explain.err.find(said), std::string::npos) << explain.err;
  EXPECT_EQ(std::count(explain.err.begin(), explain.err.end(), '\n'), 1) << explain.err;

  kvplan::testing::CliResult clean = kvplan::testing::RunKvplan({"ingest", "--db", db, log});
  EXPECT_EQ(clean.exit_code, 0) << clean.out << clean.err;
  // A failing read of a log already stored changes nothing either.
  EXPECT_EQ(RunWithReadFault(log, after, {"ingest", "--db", db, log}).exit_code, 1);
  EXPECT_EQ(Query(db,
                  "SELECT count(*), count(DISTINCT launch_index), (SELECT count(*) FROM logs) "
                  "FROM runs"),
            std::vector<std::string>{"60|60|1"});
}

}  // namespace
