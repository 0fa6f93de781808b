// The story of issue #4: a baseline launched without --mem-fraction-static
// (SGLang chose 0.88) against a launch with 0.55 that failed. The diff must
// lead with mem_fraction_static 0.88 (auto) -> 0.55 (user) as the cause, with
// rest_memory 10.42 -> -20.60 GiB.
#include "logs/run_diff.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "logs/log_scanner.h"

namespace kvplan {
namespace {

RunRecord Load(const std::string& name) {
  std::vector<RunRecord> runs =
      ScanLogFile(std::string(KVPLAN_SOURCE_DIR) + "/tests/data/sglang/" + name).runs;
  EXPECT_EQ(runs.size(), 1u);
  return runs.at(0);
}

TEST(RunDiff, StoryLeadsWithTheAutoFractionAsTheCauseOfTheFailure) {
  RunRecord a = Load("story_baseline_auto_mfs.log");
  RunRecord b = Load("story_mfs_0.55_failed.log");
  RunDiff d = DiffRuns(a, b);
  ASSERT_FALSE(d.changes.empty());
  const SettingChange& first = d.changes[0];
  EXPECT_EQ(first.key, "mem_fraction_static");
  EXPECT_EQ(first.a, "0.88");
  EXPECT_EQ(first.a_prov, "auto");
  EXPECT_EQ(first.b, "0.55");
  EXPECT_EQ(first.b_prov, "user");
  EXPECT_TRUE(first.replanned);
  EXPECT_TRUE(first.explains_failure);
  // Hand arithmetic on the printed figures: 21.70 - 94.00 x 0.12 = 10.42;
  // 21.70 - 94.00 x 0.45 = -20.60.
  EXPECT_NEAR(first.rest_a_gib, 10.42, 1e-9);
  EXPECT_NEAR(first.rest_b_gib, -20.60, 1e-9);
  EXPECT_FALSE(first.ok_after);
  EXPECT_EQ(first.error_after, "Not enough memory. Please try to increase --mem-fraction-static.");
  // The CUDA-graph change is listed, but as no cause.
  bool graph_listed = false;
  for (const SettingChange& c : d.changes) {
    if (c.key == "cuda_graph_max_bs") {
      graph_listed = true;
      EXPECT_FALSE(c.explains_failure);
      EXPECT_EQ(c.b_prov, "user");
    }
  }
  EXPECT_TRUE(graph_listed);
  std::string text = DiffText(d, a, "A.log", b, "B.log");
  size_t settings = text.find("Effective settings that differ");
  size_t first_line = text.find("mem_fraction_static      0.88 (auto) -> 0.55 (user)");
  ASSERT_NE(first_line, std::string::npos) << text;
  EXPECT_LT(settings, first_line);
  EXPECT_LT(first_line, text.find("cuda_graph_max_bs"));
  EXPECT_NE(text.find("rest_memory 10.42 -> -20.60 GiB"), std::string::npos);
  EXPECT_LT(text.find("Effective settings"), text.find("Memory timeline side by side"));
  EXPECT_LT(text.find("Memory timeline side by side"), text.find("Other differences"));
  EXPECT_NE(text.find("random_seed"), std::string::npos);
}

TEST(RunDiff, IdenticalRunsHaveNoDifferences) {
  RunRecord a = Load("story_baseline_auto_mfs.log");
  RunDiff d = DiffRuns(a, a);
  EXPECT_TRUE(d.changes.empty());
  EXPECT_NE(DiffText(d, a, "A", a, "A").find("none that shape memory"), std::string::npos);
}

TEST(RunDiff, ReversedStoryShowsTheFixWithoutClaimingACause) {
  RunDiff d = DiffRuns(Load("story_mfs_0.55_failed.log"), Load("story_baseline_auto_mfs.log"));
  ASSERT_FALSE(d.changes.empty());
  EXPECT_EQ(d.changes[0].key, "mem_fraction_static");
  EXPECT_TRUE(d.changes[0].ok_after);
  EXPECT_FALSE(d.changes[0].explains_failure);
  EXPECT_NEAR(d.changes[0].rest_b_gib, 10.42, 1e-9);
}

}  // namespace
}  // namespace kvplan
