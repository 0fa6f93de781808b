// `kvplan simulate` end to end: a pasted launch command is the same launch as kvplan's own
// flags, and the release it runs is read from it or declared as kvplan's choice.
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"

namespace kvplan::cli {
namespace {

constexpr const char* kLoad =
    "simulate --gpu h100 --concurrency 8 --num-requests 64 --input-len 1024 --output-len 64 "
    "--json ";

nlohmann::json Simulated(const std::string& args) {
  testing::ShellRun r = testing::RunKvplanShell(kLoad + args, false);
  EXPECT_EQ(r.status, 0) << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

TEST(SimulateVerb, APastedCommandIsTheSameLaunchAsFlags) {
  // The vLLM docs' docker command, with a release tag and a context limit.
  const nlohmann::json pasted = Simulated(
      "-- docker run --runtime nvidia --gpus all --ipc=host vllm/vllm-openai:v0.11.0 "
      "--model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192");
  const nlohmann::json flags = Simulated(
      "--engine vllm@0.11.0 --model meta-llama/Llama-3.1-8B-Instruct --max-model-len 8192");
  ASSERT_TRUE(pasted.contains("kv_tokens") && flags.contains("kv_tokens")) << pasted.dump();
  EXPECT_EQ(pasted["kv_tokens"], flags["kv_tokens"]);
  EXPECT_EQ(pasted["completed"], 64);
  EXPECT_EQ(pasted["ttft_ms"]["p50"], flags["ttft_ms"]["p50"]);
  EXPECT_FALSE(flags["assumed"].contains("engine")) << flags["assumed"].dump();
  EXPECT_FALSE(pasted["assumed"].contains("engine")) << pasted["assumed"].dump();
}

TEST(SimulateVerb, AReleaseKvplanChoseIsDeclared) {
  const nlohmann::json j = Simulated("--model Qwen/Qwen3-8B");
  ASSERT_TRUE(j.contains("assumed")) << j.dump();
  ASSERT_TRUE(j["assumed"].contains("engine")) << j["assumed"].dump();
  EXPECT_EQ(j["assumed"]["engine"]["value"], "sglang@main");
}

TEST(SimulateVerb, AnotherEnginesCommandIsOneError) {
  testing::ShellRun r =
      testing::RunKvplanShell(std::string(kLoad) + "--engine sglang -- vllm serve Qwen/Qwen3-8B");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_EQ(r.out, "kvplan: error: --engine sglang conflicts with the pasted vllm command\n");
}

}  // namespace
}  // namespace kvplan::cli
