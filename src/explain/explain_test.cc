#include "explain/explain.h"
#include "kvplan/explain.h"

#include <string>

#include <gtest/gtest.h>

#include "base/text.h"
#include "kvplan/error.h"
#include "logs/log_scanner.h"
#include "testing/explain_text.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using testing::ExplainText;

RunRecord LoadSynthetic(const std::string& name) {
  return ScanLogFile(kvplan::testing::SyntheticData(name)).runs.at(0);
}

TEST(ExplainReport, VllmV0WhatIfUtilizationAnswersTheMaxModelLenQuestion) {
  // 23.58 x 0.95 - 17.98 - 0.35 = 4.07 GiB; at 2.89 GiB / 23,648 tokens per token,
  // about 33,300 tokens >= the 29,000 the launch needed.
  ExplainOptions o;
  o.sets.push_back({"--gpu-memory-utilization", "0.95"});
  std::string text =
      ExplainText(LoadSynthetic("vllm/v0_llama31_8b_rtx3090_len29000_failed.log"), "x", 1, o);
  EXPECT_NE(text.find("kv = 4.07 GiB"), std::string::npos) << text;
  EXPECT_NE(text.find("enough for max_model_len 29,000"), std::string::npos) << text;
  EXPECT_NE(text.find("check: matches"), std::string::npos) << text;
}

TEST(ExplainReport, SglangStoryShowsProvenanceAndTheCheck) {
  std::string text = ExplainText(LoadSynthetic("sglang/story_baseline_auto_mfs.log"), "x", 1, {});
  EXPECT_NE(text.find("mem_fraction_static        0.88       auto"), std::string::npos) << text;
  EXPECT_NE(text.find("= 10.42 GiB"), std::string::npos);
  EXPECT_NE(text.find("check: matches"), std::string::npos);
}

TEST(ExplainReport, FailedStoryRunReplannedWithTheAutoFractionUsesTheCatalogGeometry) {
  // The failed run has no KV line: the cell comes from Qwen3-235B's config (1 KV head per
  // rank at TP 8 x 128 x 94 layers x 2 x 2 B = 48,128 B); 21.70 - 94.00 x 0.12 = 10.42 GiB;
  // int(10.42 x 2^30) // 48128 = 11188389806 // 48128 = 232,471 tokens.
  ExplainOptions o;
  o.sets.push_back({"mem_fraction_static", "0.88"});
  std::string text = ExplainText(LoadSynthetic("sglang/story_mfs_0.55_failed.log"), "x", 1, o);
  EXPECT_NE(text.find("48,128 B per token"), std::string::npos) << text;
  EXPECT_NE(text.find("starts: rest_memory 10.42 GiB, 232,471 KV tokens"), std::string::npos)
      << text;
}

TEST(ExplainReport, BadSetIsAnInputError) {
  EXPECT_THROW(ParseSet("mem-fraction-static"), InputError);
  ExplainOptions o;
  o.sets.push_back({"--tp", "4"});
  EXPECT_THROW(ExplainText(LoadSynthetic("sglang/story_baseline_auto_mfs.log"), "x", 1, o),
               InputError);
}

TEST(ExplainReport, Thousands) {
  EXPECT_EQ(WithThousands(0), "0");
  EXPECT_EQ(WithThousands(232407), "232,407");
  EXPECT_EQ(WithThousands(-1234567), "-1,234,567");
}

}  // namespace
}  // namespace kvplan
