// Runs the kvplan binary: `kvplan compare` and `kvplan plan --engine vllm|trtllm`
// end to end, with the real model catalog and GPU catalog.
#include <sys/wait.h>

#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"

#include "kvplan/plan.h"

namespace kvplan::cli {
namespace {

const nlohmann::json* Engine(const nlohmann::json& doc, const std::string& name) {
  for (const nlohmann::json& e : doc["engines"]) {
    if (e["engine"] == name) return &e;
  }
  return nullptr;
}

// vllm issue 21348: Qwen3-235B-A22B-FP8 on 4x H100, 48,128 KV bytes per token
// per GPU in both engines; the budgets differ, not the cache.
TEST(CompareVerb, Qwen3_235BFp8On4xH100Issue21348) {
  testing::ShellRun r = testing::RunKvplanShell(
      "compare --model Qwen/Qwen3-235B-A22B-FP8 --gpu h100 --tp 4 --json", false);
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["context_length"], 40960);
  const nlohmann::json* vllm = Engine(doc, "vllm");
  const nlohmann::json* sglang = Engine(doc, "sglang");
  const nlohmann::json* trt = Engine(doc, "trtllm");
  ASSERT_TRUE(vllm && sglang && trt);
  ASSERT_TRUE((*vllm)["planned"].get<bool>()) << r.out;
  ASSERT_TRUE((*sglang)["planned"].get<bool>()) << r.out;
  ASSERT_TRUE((*trt)["planned"].get<bool>()) << r.out;
  EXPECT_EQ((*vllm)["cell_size_bytes"], 48128);
  EXPECT_EQ((*sglang)["cell_size_bytes"], 48128);
  EXPECT_EQ((*trt)["cell_size_bytes"], 48128);  // 128 * 4 // 4 = one head's worth
  // Tokens = budget / bytes per token, per engine (vLLM rounds to 16-token blocks).
  int64_t v_tokens = (*vllm)["max_total_num_tokens"];
  int64_t v_budget = (*vllm)["rest_memory_bytes"];
  EXPECT_EQ(v_tokens, v_budget / (16 * 48128) * 16);
  EXPECT_NE(doc["difference"].get<std::string>().find(
                "Same 48,128 B of KV per token per GPU in every engine"),
            std::string::npos)
      << doc["difference"];
}

// The same case through PlanLaunch with the issue's own flags: SGLang with
// --mem-fraction-static 0.93 logged 367,404 tokens; vLLM (~0.10, default 0.9)
// logged "Available KV cache memory: 8.11 GiB" on rank 0 and 178,880 tokens.
TEST(CompareVerb, Issue21348BothEnginesThroughPlanLaunch) {
  PlanRequest sglang;
  sglang.engine = "sglang";
  sglang.gpu = "h100";
  sglang.args = {"--model", "Qwen/Qwen3-235B-A22B-FP8", "--tp",
                 "4",       "--mem-fraction-static",    "0.93"};
  PlanResult s = PlanLaunch(sglang);
  EXPECT_EQ(s.cell_size_bytes, 48128);
  EXPECT_NEAR(static_cast<double>(s.max_total_num_tokens), 367404, 0.05 * 367404);
  PlanRequest vllm;
  vllm.engine = "vllm";
  vllm.version = "0.10.0";
  vllm.gpu = "h100";
  vllm.args = {"--model", "Qwen/Qwen3-235B-A22B-FP8", "--tensor-parallel-size", "4"};
  vllm.measured_gib = {{"kv_cache", 8.11}};
  PlanResult v = PlanLaunch(vllm);
  EXPECT_EQ(v.cell_size_bytes, 48128);
  // Rank 0's 8.11 GiB vs the minimum over workers behind 178,880 tokens.
  EXPECT_NEAR(static_cast<double>(v.max_total_num_tokens), 178880, 0.02 * 178880);
  EXPECT_LT(v.max_total_num_tokens, s.max_total_num_tokens);
}

// compare --json writes each launch under the plan schema: the same keys and
// values as `kvplan plan --json` for the same launch.
TEST(CompareVerb, EachEngineIsThePlanSchema) {
  testing::ShellRun c = testing::RunKvplanShell(
      "compare --model meta-llama/Llama-3.1-8B-Instruct --gpu h100 --context-length 32768 --json",
      false);
  testing::ShellRun p = testing::RunKvplanShell(
      "plan --model meta-llama/Llama-3.1-8B-Instruct --gpu h100 --tp 1 --context-length 32768 "
      "--json",
      false);
  ASSERT_EQ(c.status, 0) << c.out;
  ASSERT_EQ(p.status, 0) << p.out;
  const nlohmann::json compare = nlohmann::json::parse(c.out);
  const nlohmann::json plan = nlohmann::json::parse(p.out);
  const nlohmann::json* sglang = Engine(compare, "sglang");
  ASSERT_NE(sglang, nullptr);
  for (const auto& [key, value] : plan.items()) {
    if (key == "settings" || key == "fixes") continue;  // the flags typed differ
    EXPECT_EQ((*sglang)[key], value) << key;
  }
  EXPECT_EQ((*sglang)["status"], "ok");
  EXPECT_TRUE((*sglang)["planned"].get<bool>());
  EXPECT_GT((*sglang)["max_concurrency"].get<double>(), 0);
  const nlohmann::json* vllm = Engine(compare, "vllm");
  ASSERT_NE(vllm, nullptr);
  EXPECT_TRUE(vllm->contains("gpu_memory_utilization")) << *vllm;
}

TEST(CompareVerb, TextNamesEveryEngineAndTheDifference) {
  testing::ShellRun r = testing::RunKvplanShell(
      "compare --model meta-llama/Llama-3.1-8B-Instruct --gpu h100 --context-length 32768");
  ASSERT_EQ(r.status, 0) << r.out;
  for (const char* s :
       {"SGLang", "vLLM", "TRT-LLM", "KV TOKENS", "holds", "context 32,768 tokens"}) {
    EXPECT_NE(r.out.find(s), std::string::npos) << s << "\n" << r.out;
  }
}

TEST(CompareVerb, BadInputIsOneLineAndExitTwo) {
  for (const char* args : {"compare --model meta-llama/Llama-3.1-8B-Instruct --gpu h1000",
                           "compare --model no/such-model --gpu h100",
                           "compare --model meta-llama/Llama-3.1-8B-Instruct --gpu h100 --tp 0"}) {
    testing::ShellRun r = testing::RunKvplanShell(args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  }
}

TEST(PlanVerbEngines, VllmPastedCommandEndToEnd) {
  testing::ShellRun r = testing::RunKvplanShell(
      "plan --engine vllm@0.10.1 --gpu h100 --json -- vllm serve meta-llama/Llama-3.1-8B-Instruct "
      "--max-model-len 32768 --gpu-memory-utilization 0.9",
      false);
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  EXPECT_NE(r.out.find("gpu_memory_utilization"), std::string::npos);
  EXPECT_NE(r.out.find("num_gpu_blocks"), std::string::npos);
  EXPECT_NE(r.out.find("131072"), std::string::npos);  // KV bytes per token
}

// vllm-v0-rtx3090-llama31-8b-len20000-issue10517 from scratch (catalog model,
// catalog RTX 3090, estimated weights, activations and non-torch memory): KV
// tokens within 5% of the logged 1952 blocks x 16.
TEST(PlanVerbEngines, VllmV0Rtx3090Issue10517FromScratch) {
  PlanRequest req;
  req.engine = "vllm";
  req.version = "0.6.3";
  req.gpu = "rtx-3090";
  req.args = {"--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "20000"};
  PlanResult r = PlanLaunch(req);
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 1952.0 * 16, 0.05 * 1952 * 16);
  const Figure* act = r.FindFigure("activation_peak_gib");
  ASSERT_NE(act, nullptr);
  EXPECT_NEAR(act->value, 17.06 - 14.9888, 0.1 * 2.07);
}

TEST(PlanVerbEngines, TrtllmEndToEnd) {
  testing::ShellRun r = testing::RunKvplanShell(
      "plan --engine trtllm@1.0.0 --gpu h100 --model meta-llama/Llama-3.1-8B-Instruct "
      "--tp_size 1 --max_seq_len 8192");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("free_gpu_memory_fraction"), std::string::npos) << r.out;
}

// --engine picks one engine's release; its row is what `plan` gives for that release, and
// the releases kvplan chose for the others are said in a line.
TEST(CompareVerb, EngineFlagPicksARelease) {
  testing::ShellRun c = testing::RunKvplanShell(
      "compare --model Qwen/Qwen3-8B --gpu h100 --engine vllm@0.11.0 --json", false);
  ASSERT_EQ(c.status, 0) << c.out;
  const nlohmann::json doc = nlohmann::json::parse(c.out);
  const nlohmann::json* vllm = Engine(doc, "vllm");
  ASSERT_TRUE(vllm != nullptr);
  testing::ShellRun p = testing::RunKvplanShell(
      "plan --engine vllm@0.11.0 --gpu h100 --model Qwen/Qwen3-8B --json", false);
  ASSERT_EQ(p.status, 0) << p.out;
  const nlohmann::json plan = nlohmann::json::parse(p.out);
  EXPECT_EQ((*vllm)["engine_version"], "0.11.0");
  EXPECT_EQ((*vllm)["max_total_num_tokens"], plan["max_total_num_tokens"]);
  testing::ShellRun text = testing::RunKvplanShell(
      "compare --model Qwen/Qwen3-8B --gpu h100 --engine vllm@0.11.0 --engine trtllm@1.0.0");
  ASSERT_EQ(text.status, 0) << text.out;
  EXPECT_NE(text.out.find("vLLM 0.11.0"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("Releases: SGLang main are the newest kvplan models"), std::string::npos)
      << text.out;
  for (const char* bad : {"--engine vllm", "--engine foo@1.0",
                          "--engine vllm@0.11.0 --engine "
                          "vllm@0.10.1"}) {
    testing::ShellRun r =
        testing::RunKvplanShell(std::string("compare --model Qwen/Qwen3-8B --gpu h100 ") + bad);
    EXPECT_EQ(r.status, 2) << bad << ": " << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
  }
}

TEST(PlanVerbEngines, UnknownVllmVersionIsOneLine) {
  testing::ShellRun r = testing::RunKvplanShell(
      "plan --engine vllm@0.4.0 --gpu h100 --model meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("outside the modelled releases"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << r.out;
}

}  // namespace
}  // namespace kvplan::cli
