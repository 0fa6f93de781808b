// `kvplan plan --env NAME=VALUE` and a pasted command's VAR=value: the
// engine's variables reach its parser, which reads those its planner models.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "testing/cli_test_util.h"

namespace kvplan {
namespace {

using testing::CliResult;
using testing::RunKvplan;

// The ALLOW_LONG switch read from --env is the same launch as one pasted
// with it in front (README: vLLM refuses 200000 tokens on Llama-3.1-8B without it).
TEST(PlanEnv, EnvOptionEqualsThePastedAssignment) {
  const std::vector<std::string> serve = {
      "--", "vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "200000"};
  std::vector<std::string> with_env = {
      "plan", "--gpu",  "h100",  "--engine",
      "vllm", "--json", "--env", "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"};
  with_env.insert(with_env.end(), serve.begin(), serve.end());
  std::vector<std::string> pasted = {"plan", "--gpu",  "h100", "--engine",
                                     "vllm", "--json", "--",   "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1"};
  pasted.insert(pasted.end(), serve.begin() + 1, serve.end());
  CliResult a = RunKvplan(with_env);
  CliResult b = RunKvplan(pasted);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const auto ja = nlohmann::json::parse(a.out), jb = nlohmann::json::parse(b.out);
  ASSERT_TRUE(ja["max_total_num_tokens"].is_number()) << a.out;
  EXPECT_EQ(ja["max_total_num_tokens"], jb["max_total_num_tokens"]);
  EXPECT_EQ(ja["status"], jb["status"]);
  std::vector<std::string> without = with_env;
  without.erase(without.begin() + 6, without.begin() + 8);
  CliResult c = RunKvplan(without);
  ASSERT_TRUE(ja["status"].is_string()) << a.out;
  EXPECT_NE(nlohmann::json::parse(c.out)["status"], ja["status"]) << c.out;
}

TEST(PlanEnv, AnUnreadVariableIsAWarningAndAForeignOneIsRefused) {
  CliResult r = RunKvplan({"plan", "--gpu", "h100", "--engine", "vllm", "--model", "Qwen/Qwen3-8B",
                           "--json", "--env", "VLLM_LOGGING_LEVEL=DEBUG"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(nlohmann::json::parse(r.out)["warnings"].dump().find(
                "VLLM_LOGGING_LEVEL=DEBUG: an environment variable the vLLM "
                "planner does not read"),
            std::string::npos)
      << r.out;
  // VLLM_ATTENTION_BACKEND is in vllm/envs.py up to 0.14.1 and gone by 0.20.1 and 0.24.0
  // (data/flags/vllm/0.24.0.json's environment), the nearest parser to kvplan's default 0.28.0:
  // the warning says it was removed.
  CliResult gone =
      RunKvplan({"plan", "--gpu", "h100", "--engine", "vllm", "--model", "Qwen/Qwen3-8B", "--json",
                 "--env", "VLLM_ATTENTION_BACKEND=FLASHINFER"});
  ASSERT_EQ(gone.exit_code, 0) << gone.err;
  EXPECT_NE(
      nlohmann::json::parse(gone.out)["warnings"].dump().find(
          "VLLM_ATTENTION_BACKEND=FLASHINFER: vllm/envs.py defines it up to vLLM 0.14.1's table "
          "but not in 0.24.0's"),
      std::string::npos)
      << gone.out;
  CliResult bad = RunKvplan(
      {"plan", "--gpu", "h100", "--engine", "sglang", "--model", "Qwen/Qwen3-8B", "--env", "X=1"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--env X: the sglang planner reads no such variable (it reads SGLANG_* "
                         "variables)"),
            std::string::npos)
      << bad.err;
}

}  // namespace
}  // namespace kvplan
