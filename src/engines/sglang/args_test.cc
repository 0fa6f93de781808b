#include <gtest/gtest.h>

#include "engines/sglang/sglang.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

TEST(SglangArgsTest, ParsesTheStoryCommand) {
  SglangArgs a = ParseSglangArgs({"--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8",
                                  "--mem-fraction-static", "0.55", "--cuda-graph-max-bs", "128",
                                  "--trust-remote-code", "--port", "30000"});
  EXPECT_EQ(a.model_path, "deepseek-ai/DeepSeek-V3");
  EXPECT_EQ(a.tp, 8);
  EXPECT_DOUBLE_EQ(*a.mem_fraction_static, 0.55);
  EXPECT_EQ(a.cuda_graph_max_bs, 128);
  EXPECT_EQ(a.kv_cache_dtype, "auto");
}

TEST(SglangArgsTest, AliasesAndSpeculative) {
  SglangArgs a = ParseSglangArgs(
      {"--model", "m", "--tensor-parallel-size=4", "--dp-size", "2", "--enable-dp-attention",
       "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "d",
       "--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
       "--speculative-num-draft-tokens", "4", "--kv-cache-dtype", "fp8_e4m3"});
  EXPECT_EQ(a.tp, 4);
  EXPECT_EQ(a.dp, 2);
  EXPECT_TRUE(a.enable_dp_attention);
  EXPECT_EQ(a.speculative_algorithm, "EAGLE3");
  EXPECT_EQ(a.speculative_draft_model_path, "d");
  EXPECT_EQ(a.speculative_num_draft_tokens, 4);
  EXPECT_EQ(a.kv_cache_dtype, "fp8_e4m3");
}

TEST(SglangArgsTest, ConflictsAndBadValuesAreErrors) {
  EXPECT_THROW(ParseSglangArgs({"--tp", "0"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--tp", "eight"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--disable-cuda-graph", "--cuda-graph-max-bs", "8"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--enable-piecewise-cuda-graph", "--disable-piecewise-cuda-graph"}),
               InputError);
  EXPECT_THROW(ParseSglangArgs({"--mem-fraction-statc", "0.5"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--mem-fraction-static"}), InputError);
}

}  // namespace
}  // namespace kvplan
