// The target "no launch that the engine refuses at start-up is called OK", on every
// public failed log the team has: tests/data/real/failed_launches.tsv lists each log under
// tests/data/real/ whose launch failed, with the engine's cause. For each, `kvplan explain`
// must report the failure with that cause and no re-plan that starts; a launch the engine
// itself refuses is planned from scratch, and kvplan's verdict must fail in the engine's words.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "engines/engine.h"
#include "explain/explain.h"
#include "kvplan/error.h"
#include "kvplan/explain.h"
#include "logs/log_scanner.h"
#include "testing/corpus_plan.h"
#include "testing/test_data.h"
#include "testing/tsv.h"

namespace kvplan {
namespace {

struct FailedLaunchRow {
  std::string log, cause, kind, engine, model, gpu, measured, plan_cause, why;
  std::vector<std::string> args;
};

std::vector<FailedLaunchRow> ReadFailedLaunches() {
  std::vector<FailedLaunchRow> rows;
  for (const std::vector<std::string>& c : testing::RealTsvRows("failed_launches.tsv", 10)) {
    FailedLaunchRow r{c[0], c[1], c[2], c[3], c[4], c[5], c[7], c[8], c[9], {}};
    if (c[6] != "-") r.args = testing::SplitFields(c[6], ' ');
    rows.push_back(r);
  }
  return rows;
}

// What explain says of the log: the engine's failure with its cause, and no re-plan that
// starts (a re-plan, where the log holds its inputs, must fail too; a "gap" row's still does).
void ExpectExplainReportsFailure(const FailedLaunchRow& row) {
  ExplainRequest request;
  request.log_path = testing::RealData(row.log);
  ExplainResult e = ExplainLog(request);
  EXPECT_EQ(e.run.outcome, "failed") << row.log;
  EXPECT_NE(e.run.error.find(row.cause), std::string::npos)
      << row.log << ": the failure read is \"" << e.run.error << "\"";
  std::optional<bool> starts;
  if (e.sglang && e.sglang->unavailable.empty()) {
    EXPECT_NE(e.sglang->check.kind, SglangLogCheck::kModelFitsButFailed) << row.log;
    starts = e.sglang->verdict.ok;
  }
  if (e.vllm && e.vllm->unavailable.empty() && !e.vllm->kv_only) starts = e.vllm->verdict.ok;
  if (starts) {
    EXPECT_EQ(*starts, row.kind == "gap") << row.log << ": does the re-plan start?";
  }
}

// The verdict of the launch planned from scratch (with the log's measured figures, if any),
// or the refusal's message when kvplan refuses the input as the engine's parser does.
struct Verdict {
  bool ok = false;
  std::string message;
};

Verdict PlanFromScratch(const FailedLaunchRow& row) {
  PlanRequest req;
  std::tie(req.engine, req.version) = SplitEngineSpec(row.engine);
  req.args = row.args;
  req.model = testing::CorpusModel(row.model);
  req.gpu = row.gpu;
  if (row.measured != "-") {
    for (const std::string& m : testing::SplitFields(row.measured, ' ')) {
      size_t eq = m.find('=');
      req.measured_gib[m.substr(0, eq)] = std::stod(m.substr(eq + 1));
    }
  }
  try {
    PlanResult plan = PlanLaunch(req);
    return {plan.ok, plan.error_message};
  } catch (const InputError& e) {
    return {false, e.what()};
  }
}

TEST(FailedLaunches, NoneIsCalledOkAndEachNamesTheEnginesCause) {
  size_t planned = 0, gaps = 0;
  for (const FailedLaunchRow& row : ReadFailedLaunches()) {
    ExpectExplainReportsFailure(row);
    if (row.engine == "-") {
      EXPECT_TRUE(row.kind == "log-only" || row.kind == "environment") << row.log;
      continue;
    }
    Verdict v = PlanFromScratch(row);
    if (row.kind == "gap") {
      // Still called OK: when kvplan models this failure, make the row a "launch" one.
      EXPECT_TRUE(v.ok) << row.log << " now fails (" << v.message << "): move it to launch";
      ++gaps;
      continue;
    }
    ++planned;
    EXPECT_FALSE(v.ok) << row.log << ": kvplan calls a launch the engine refused OK";
    EXPECT_NE(v.message.find(row.plan_cause), std::string::npos)
        << row.log << ": kvplan's verdict \"" << v.message << "\" should name \"" << row.plan_cause
        << "\" (" << row.why << ")";
  }
  std::cout << fmt::format("failed launches: {} planned from scratch and refused, {} still OK\n",
                           planned, gaps);
}

// Every .log under tests/data/real/ whose last launch failed has a row: a failed log added
// to the data without one fails here.
TEST(FailedLaunches, EveryFailedRealLogHasARow) {
  std::set<std::string> listed;
  for (const FailedLaunchRow& row : ReadFailedLaunches()) listed.insert(row.log);
  std::filesystem::path root = testing::RealData("");
  size_t failed = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
    if (!entry.is_regular_file() || entry.path().extension() != ".log") continue;
    std::string rel = std::filesystem::relative(entry.path(), root).generic_string();
    std::vector<RunRecord> runs;
    try {
      runs = ReadRunsOrThrow(entry.path().string(), ScanLogFile(entry.path().string()));
    } catch (const InputError&) {
      continue;  // no start-up line at all: no launch to call OK
    }
    if (runs.empty() || runs.back().outcome != "failed") continue;
    ++failed;
    EXPECT_TRUE(listed.count(rel)) << rel << " failed: add it to failed_launches.tsv";
  }
  EXPECT_EQ(failed, listed.size()) << "a row of failed_launches.tsv names a log that does not fail";
}

}  // namespace
}  // namespace kvplan
