// `kvplan runs` shows the measured decode throughput only when a listed run has
// decode reports: histories of start-up logs list as they always did.
#include <unistd.h>

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "testing/cli_test_util.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using kvplan::testing::RunKvplan;

std::string Data(const std::string& name) { return kvplan::testing::SyntheticData(name); }

TEST(RunsVerb, DecodeColumnOnlyWithDecodeReports) {
  std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("kvplan-runs-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string db = (dir / "runs.db").string();
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
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace kvplan
