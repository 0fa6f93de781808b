// `kvplan runs` shows the measured decode throughput only when a listed run has
// decode reports: histories of start-up logs list as they always did.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "kvplan/history.h"
#include "logs/run_record_json.h"
#include "testing/cli_test_util.h"
#include "testing/scratch_dir.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using kvplan::testing::RunKvplan;

std::string Data(const std::string& name) { return kvplan::testing::SyntheticData(name); }

TEST(RunsVerb, DecodeColumnOnlyWithDecodeReports) {
  const kvplan::testing::ScratchDir dir("kvplan-runs");
  std::string db = dir.File("runs.db");
  ASSERT_EQ(RunKvplan({"ingest", "--db", db, Data("sglang/story_baseline_auto_mfs.log")}).exit_code,
            0);
  auto before = RunKvplan({"runs", "--db", db});
  ASSERT_EQ(before.exit_code, 0) << before.err;
  EXPECT_EQ(before.out.find("decode tok/s"), std::string::npos) << before.out;
  ASSERT_EQ(RunKvplan({"ingest", "--db", db, Data("sglang/decode_llama8b_no_spec.log")}).exit_code,
            0);
  auto after = RunKvplan({"runs", "--db", db});
  ASSERT_EQ(after.exit_code, 0) << after.err;
  EXPECT_NE(after.out.find("decode tok/s"), std::string::npos) << after.out;
  // The median of TP0's 9 busy reports at 1 request is 81.57 (explain/decode_report_test.cc).
  EXPECT_NE(after.out.find("81.6@1"), std::string::npos) << after.out;
}

// `runs --json` prints run by run; the text must be exactly the indented array
// nlohmann writes for the whole listing, for none, one and several runs.
TEST(RunsVerb, StreamedJsonIsTheWholeArray) {
  const kvplan::testing::ScratchDir dir("kvplan-runs-json");
  std::string db = dir.File("runs.db");
  const char* logs[] = {"sglang/story_baseline_auto_mfs.log", "sglang/decode_llama8b_no_spec.log"};
  ASSERT_EQ(RunKvplan({"ingest", "--db", db, Data(logs[0])}).exit_code, 0);
  for (int round = 0; round < 2; ++round) {
    HistoryListing listing = ListHistory(db, RunFilter{});
    nlohmann::json whole = nlohmann::json::array();
    for (const StoredRun& s : listing.runs) {
      whole.push_back({{"id", s.id},
                       {"log", s.log_path},
                       {"log_hash", s.log_hash},
                       {"ingested_at", s.ingested_at},
                       {"tp", s.record.LoggedTp() ? nlohmann::json(*s.record.LoggedTp())
                                                  : nlohmann::json(nullptr)},
                       {"run", ToJson(s.record)}});
    }
    auto printed = RunKvplan({"runs", "--db", db, "--json"});
    ASSERT_EQ(printed.exit_code, 0) << printed.err;
    EXPECT_EQ(printed.out, DumpJson(whole, 2) + "\n");
    ASSERT_EQ(RunKvplan({"ingest", "--db", db, Data(logs[1])}).exit_code, 0);
  }
  auto none = RunKvplan({"runs", "--db", db, "--json", "--model", "no-such-model"});
  ASSERT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "[]\n");
}

// A log with no rank information at all (aibrix#1154: a version line and a cut args Namespace)
// is listed with tp "?" and a footer saying why, and null in JSON, never TP 1; a log whose launch
// command names its TP (vllm#7716: --tensor-parallel-size 3) is listed with it.
TEST(RunsVerb, UnknownTpIsShownUnknown) {
  const kvplan::testing::ScratchDir dir("kvplan-runs-tp");
  std::string db = dir.File("runs.db");
  const std::string unknown =
      kvplan::testing::RealData("vllm/aibrix1154_quoted_kubectl_records_on_one_line.log");
  const std::string tp3 =
      kvplan::testing::RealData("vllm/pr7716_v054_tp3_version_and_cut_namespace.log");
  ASSERT_EQ(RunKvplan({"ingest", "--db", db, unknown}).exit_code, 0);
  auto text = RunKvplan({"runs", "--db", db});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("  ?  "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("tp ?: the log names no TP"), std::string::npos) << text.out;
  ASSERT_EQ(RunKvplan({"ingest", "--db", db, tp3}).exit_code, 0);
  auto json = RunKvplan({"runs", "--db", db, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  nlohmann::json runs = nlohmann::json::parse(json.out);
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_TRUE(runs[0].at("tp").is_null()) << runs[0].at("tp");
  EXPECT_EQ(runs[1].at("tp"), 3);
  auto both = RunKvplan({"runs", "--db", db});
  EXPECT_NE(both.out.find("    3  "), std::string::npos) << both.out;
}

}  // namespace
}  // namespace kvplan
