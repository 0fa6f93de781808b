// The story of issue #4: a baseline launched without --mem-fraction-static
// (SGLang chose 0.88) against a launch with 0.55 that failed. The diff must
// lead with mem_fraction_static 0.88 (auto) -> 0.55 (user) as the cause, with
// rest_memory 10.42 -> -20.60 GiB.
#include "explain/run_diff.h"

#include <cmath>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kvplan/diff.h"

#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

RunRecord LoadSglangLog(const std::string& name) {
  std::vector<RunRecord> runs = ScanLogFile(kvplan::testing::SyntheticData("sglang/" + name)).runs;
  EXPECT_EQ(runs.size(), 1u);
  return runs.at(0);
}

TEST(RunDiff, StoryLeadsWithTheAutoFractionAsTheCauseOfTheFailure) {
  RunRecord a = LoadSglangLog("story_baseline_auto_mfs.log");
  RunRecord b = LoadSglangLog("story_mfs_0.55_failed.log");
  DiffResult d = DiffRuns(a, "A.log", b, "B.log");
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
  std::string text = RenderDiffText(d);
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

TEST(RunDiff, JsonNamesTheChangeThatReproducesTheFailure) {
  DiffResult d = DiffRuns(LoadSglangLog("story_baseline_auto_mfs.log"), "A",
                          LoadSglangLog("story_mfs_0.55_failed.log"), "B");
  nlohmann::json j = nlohmann::json::parse(RenderDiffJson(d));
  const nlohmann::json& first = j.at("changes").at(0);
  EXPECT_EQ(first.at("key"), "mem_fraction_static");
  EXPECT_TRUE(first.at("explains_failure").get<bool>());
  EXPECT_NEAR(first.at("replan").at("rest_memory_b_gib").get<double>(), -20.60, 1e-6);
  EXPECT_FALSE(first.at("replan").at("ok_after").get<bool>());
  EXPECT_EQ(j.at("a").at("name"), "A");
}

TEST(RunDiff, IdenticalRunsHaveNoDifferences) {
  RunRecord a = LoadSglangLog("story_baseline_auto_mfs.log");
  DiffResult d = DiffRuns(a, "A", a, "A");
  EXPECT_TRUE(d.changes.empty());
  EXPECT_NE(RenderDiffText(d).find("none that shape memory"), std::string::npos);
}

TEST(RunDiff, ReversedStoryShowsTheFixWithoutClaimingACause) {
  DiffResult d = DiffRuns(LoadSglangLog("story_mfs_0.55_failed.log"), "A",
                          LoadSglangLog("story_baseline_auto_mfs.log"), "B");
  ASSERT_FALSE(d.changes.empty());
  EXPECT_EQ(d.changes[0].key, "mem_fraction_static");
  EXPECT_TRUE(d.changes[0].ok_after);
  EXPECT_FALSE(d.changes[0].explains_failure);
  EXPECT_NEAR(d.changes[0].rest_b_gib, 10.42, 1e-9);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

TEST(RunDiff, VllmUtilizationChangeIsReplannedOnAsProfile) {
  // vllm-v0-h100-llama32-11b-vision-pr12126 figures: 79.22 x 0.90 - 19.86 - 0.16 - 36.63
  // = 14.648 GiB (logged 14.65); with 0.70: 79.22 x 0.70 - 56.65 = -1.196 GiB -> no KV memory.
  std::string a_log =
      "INFO 01-16 09:39:00 api_server.py:1] non-default args: {'model': 'm', "
      "'max_model_len': 65536}\n"
      "INFO 01-16 09:40:00 worker.py:238] the current vLLM instance can use total_gpu_memory "
      "(79.22GiB) x gpu_memory_utilization (0.90) = 71.29GiB\n"
      "INFO 01-16 09:40:00 worker.py:238] model weights take 19.86GiB; non_torch_memory takes "
      "0.16GiB; PyTorch activation peak memory takes 36.63GiB; the rest of the memory reserved "
      "for KV Cache is 14.65GiB.\n"
      "INFO 01-16 09:40:00 executor_base.py:95] # CUDA blocks: 6001, # CPU blocks: 1638\n";
  std::string b_log =
      "INFO 01-16 10:39:00 api_server.py:1] non-default args: {'model': 'm', "
      "'max_model_len': 65536, 'gpu_memory_utilization': 0.7}\n"
      "ERROR 01-16 10:40:00 engine.py:1] ValueError: No available memory for the cache blocks. "
      "Try increasing `gpu_memory_utilization` when initializing the engine.\n";
  RunRecord a = ScanLogText(a_log).runs.at(0), b = ScanLogText(b_log).runs.at(0);
  ASSERT_EQ(a.outcome, "ok");
  ASSERT_EQ(b.outcome, "failed");
  DiffResult d = DiffRuns(a, "A.log", b, "B.log");
  ASSERT_FALSE(d.changes.empty());
  const SettingChange& c = d.changes[0];
  EXPECT_EQ(c.key, "gpu_memory_utilization");
  EXPECT_EQ(c.a, "0.9");
  EXPECT_EQ(c.a_prov, "auto");
  EXPECT_EQ(c.b_prov, "user");
  EXPECT_NEAR(c.rest_a_gib, 14.648, 1e-9);  // logged: 14.65
  // The planner works in whole bytes as vLLM does: the four GiB terms, each rounded to a
  // byte, and the floor of the budget leave up to 3 bytes (2.8e-9 GiB) from the GiB sum.
  EXPECT_NEAR(c.rest_b_gib, 79.22 * 0.7 - 19.86 - 0.16 - 36.63, 3.0 / (1 << 30));
  EXPECT_TRUE(c.explains_failure);
}

TEST(RunDiff, RealPairNamesTheMaxModelLenEachLogPrints_issue25350) {
  // A: "Maximum concurrency for 100,000 tokens per request" (ok); B: the error's "max seq len
  // (221000)" (failed). Neither log prints args: the difference comes from those lines.
  auto only = [](const std::string& name) {
    return ScanLogFile(kvplan::testing::RealData("vllm/" + name)).runs.at(0);
  };
  RunRecord a = only("issue25350_fp8_kv_len100000.log");
  RunRecord b = only("issue25350_fp8_kv_len221000_too_small.log");
  DiffResult d = DiffRuns(a, "A.log", b, "B.log");
  ASSERT_EQ(d.changes.size(), 1u);
  EXPECT_EQ(d.changes[0].key, "max_model_len");
  EXPECT_EQ(d.changes[0].a, "100000");
  EXPECT_EQ(d.changes[0].b, "221000");
}

}  // namespace
}  // namespace kvplan
