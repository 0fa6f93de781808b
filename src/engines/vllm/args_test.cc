#include <gtest/gtest.h>

#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

TEST(VllmArgs, PastedServeCommand) {
  VllmArgs a = ParseVllmArgs({"vllm", "serve", "Qwen/Qwen3-8B", "-tp", "2", "--max-model-len",
                              "32k", "--gpu-memory-utilization=0.85", "--kv-cache-dtype", "fp8",
                              "--enforce-eager", "--port", "8000"});
  EXPECT_EQ(a.model, "Qwen/Qwen3-8B");
  EXPECT_EQ(a.tp, 2);
  EXPECT_EQ(*a.max_model_len, 32000);
  EXPECT_DOUBLE_EQ(*a.gpu_memory_utilization, 0.85);
  EXPECT_EQ(a.kv_cache_dtype, "fp8");
  EXPECT_TRUE(a.enforce_eager);
}

TEST(VllmArgs, ModelFlagFirstAsTheSplitterHandsIt) {
  VllmArgs a = ParseVllmArgs({"--model", "m", "--data-parallel-size", "8",
                              "--enable-expert-parallel", "--kv-cache-memory", "8589934592"});
  EXPECT_EQ(a.model, "m");
  EXPECT_EQ(a.dp, 8);
  EXPECT_TRUE(a.enable_expert_parallel);
  EXPECT_EQ(*a.kv_cache_memory_bytes, 8589934592);
}

TEST(VllmArgs, UtilizationOutOfRange) {
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "0"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "-0.5"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "1.2"}), InputError);
  EXPECT_NO_THROW(ParseVllmArgs({"--gpu-memory-utilization", "1"}));
}

TEST(VllmArgs, SpeculativeConfig) {
  VllmArgs a = ParseVllmArgs(
      {"--speculative-config", R"({"method":"eagle3","model":"x/y","num_speculative_tokens":3})"});
  ASSERT_TRUE(a.speculative);
  EXPECT_EQ(a.speculative->method, "eagle3");
  EXPECT_EQ(a.speculative->num_speculative_tokens, 3);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", "{method: eagle"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", "[1,2]"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", R"({"method":"warp"})"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", R"({"method":"eagle"})"}), InputError);
  EXPECT_THROW(
      ParseVllmArgs({"--speculative-config", R"({"method":"mtp","num_speculative_tokens":0})"}),
      InputError);
}

TEST(VllmArgs, BadValues) {
  EXPECT_THROW(ParseVllmArgs({"--kv-cache-dtype", "int3"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--tensor-parallel-size", "0"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--max-model-len", "lots"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilisation", "0.9"}), InputError);  // typo
  EXPECT_THROW(ParseVllmArgs({"a", "--model", "b"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--max-model-len", "999999999999M"}), InputError);  // overflow guard
  EXPECT_THROW(ParseVllmArgs({"--max-num-batched-tokens", "9000000000000"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--swap-space", "1e300"}), InputError);
}

TEST(VllmRelease, ParsesAndPicksEras) {
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.6.3"), std::nullopt), VllmEra::kV0Legacy);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.7.0"), std::nullopt), VllmEra::kV0);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.7.0"), true), VllmEra::kV1Early);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.9.1"), std::nullopt), VllmEra::kV1Early);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("v0.9.2"), std::nullopt), VllmEra::kV1);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.15.2rc1.dev93+g11a4c9d30"), std::nullopt), VllmEra::kV1);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.21.0"), std::nullopt), VllmEra::kV1GraphEstimate);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease(""), std::nullopt), VllmEra::kV1GraphEstimate);
}

TEST(VllmRelease, UnknownVersions) {
  EXPECT_THROW(ParseVllmRelease("banana"), InputError);
  EXPECT_THROW(ParseVllmRelease("0.5.4"), InputError);
  EXPECT_THROW(ParseVllmRelease("0.40.0"), InputError);
  EXPECT_THROW(ParseVllmRelease("1"), InputError);
  EXPECT_THROW(VllmEraFor(ParseVllmRelease("0.11.0"), false), InputError);  // V0 removed
  EXPECT_THROW(VllmEraFor(ParseVllmRelease("0.6.3"), true), InputError);    // no V1 yet
}

}  // namespace
}  // namespace kvplan
