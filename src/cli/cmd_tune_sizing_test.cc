// Runs the kvplan binary: `kvplan tune` under a load and an SLA (sizing).
#include <set>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"

namespace kvplan::cli {
namespace {

const std::vector<std::string> kSizing = {"tune",
                                          "--model",
                                          "meta-llama/Llama-3.1-8B-Instruct",
                                          "--gpu",
                                          "h100",
                                          "--gpus",
                                          "2",
                                          "--rate",
                                          "5",
                                          "--num-requests",
                                          "100",
                                          "--ttft-p90-ms",
                                          "500",
                                          "--tpot-p90-ms",
                                          "20"};

TEST(TuneSizingVerb, JsonHasTheWinnersTheirCommandsAndTheMemoryTable) {
  std::vector<std::string> args = kSizing;
  args.push_back("--json");
  const testing::CliResult r = testing::RunKvplan(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["gpus"], 1);  // 5 req/s fits one H100
  ASSERT_FALSE(j["winners"].empty());
  for (const nlohmann::json& w : j["winners"]) {
    EXPECT_TRUE(w["meets_sla"].get<bool>());
    EXPECT_LE(w["ttft_p90_ms"].get<double>(), 500);
    EXPECT_LE(w["tpot_p90_ms"].get<double>(), 20);
    EXPECT_NE(w["command"].get<std::string>().find("sglang.launch_server"), std::string::npos);
  }
  int own = 0;
  std::set<std::string> settings;
  for (const nlohmann::json& v : j["memory_settings"]) {
    own += v["winner"].get<bool>() ? 1 : 0;
    settings.insert(v["setting"].get<std::string>());
  }
  EXPECT_EQ(own, 3);  // the winner's own value of each setting
  EXPECT_EQ(settings,
            (std::set<std::string>{"cuda_graph_max_bs", "mem_fraction_static", "kv_cache_dtype"}));
}

// Llama-3.1-8B has no MTP layers and no --draft-model is given: nothing to
// compare speculation with, and the text says which flag supplies it.
TEST(TuneSizingVerb, TextSaysWhySpeculationIsNotCompared) {
  const testing::CliResult r = testing::RunKvplan(kSizing);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("not compared: no speculative setting to compare: pass --draft-model"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("MEMORY SETTINGS UNDER THIS LOAD"), std::string::npos);
}

TEST(TuneSizingVerb, AnSlaWithoutALoadAndTheSearchsLimitsWithALoadAreRefused) {
  testing::CliResult r = testing::RunKvplan({"tune", "--model", "meta-llama/Llama-3.1-8B-Instruct",
                                             "--gpu", "h100", "--ttft-p90-ms", "1"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("add --rate R or --trace FILE"), std::string::npos) << r.err;
  std::vector<std::string> args = kSizing;
  args.insert(args.end(), {"--tpot-ms", "20"});
  r = testing::RunKvplan(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not --ttft-ms, --tpot-ms or --concurrency"), std::string::npos) << r.err;
}

// The simulator's calibration flags reach sizing: 100 ms more from sending a
// request to the scheduler is 100 ms more on every TTFT, so on the p90 too.
TEST(TuneSizingVerb, CalibrationFlagsReachTheSimulationAndNeedALoad) {
  std::vector<std::string> args = kSizing;
  args.insert(args.end(), {"--json", "--calib-admission-us"});
  args.push_back("0");
  const testing::CliResult base = testing::RunKvplan(args);
  ASSERT_EQ(base.exit_code, 0) << base.err;
  args.back() = "100000";
  const testing::CliResult late = testing::RunKvplan(args);
  ASSERT_EQ(late.exit_code, 0) << late.err;
  const nlohmann::json b = nlohmann::json::parse(base.out), l = nlohmann::json::parse(late.out);
  ASSERT_FALSE(b["winners"].empty());
  ASSERT_FALSE(l["winners"].empty());
  EXPECT_GT(l["winners"][0]["ttft_p90_ms"].get<double>(),
            b["winners"][0]["ttft_p90_ms"].get<double>() + 90);
  const testing::CliResult r =
      testing::RunKvplan({"tune", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu", "h100",
                          "--calib-step-us", "500"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("factors for sizing under a load"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace kvplan::cli
