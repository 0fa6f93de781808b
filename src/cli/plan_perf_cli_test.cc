// `kvplan plan` and `kvplan perf`, run as a user runs them, on the same
// launches under `--engine sglang@VERSION`: both must print the same
// speculative steps / top-k / draft tokens and the same cuda_graph_max_bs
// (perf takes the engine's default when the user gives none). The in-process
// counterpart is src/perf/plan_perf_agreement_test.cc.
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"

namespace kvplan::cli {
namespace {

const char* kQwen3Id = "Qwen/Qwen3-8B";
const char* kLlamaId = "meta-llama/Llama-3.1-8B-Instruct";
const char* kEagle3Draft = "sgl-project/SpecForge-llama3-8B-eagle3";

struct Launch {
  std::string engine;  // "sglang" or "sglang@VERSION"
  std::string model, gpu;
  std::string flags;  // the engine flags both verbs take, spelled alike
};

nlohmann::json RunJson(const std::string& args) {
  const testing::ShellRun r = testing::RunKvplanShell(args, false);
  EXPECT_EQ(r.status, 0) << "kvplan " << args << "\n" << r.out;
  return r.status == 0 ? nlohmann::json::parse(r.out) : nlohmann::json::object();
}

// The plan's value of `figure` (its `figures` object).
double PlanFigure(const nlohmann::json& plan, const std::string& figure) {
  const nlohmann::json& f = plan["figures"];
  EXPECT_TRUE(f.contains(figure)) << figure;
  return f.contains(figure) ? f[figure].get<double>() : -1;
}

void ExpectSameSettings(const Launch& l) {
  const std::string common =
      fmt::format("--engine {} --model {} --gpu {} {}", l.engine, l.model, l.gpu, l.flags);
  SCOPED_TRACE(common);
  const nlohmann::json plan = RunJson("plan " + common + " --json");
  const nlohmann::json perf =
      RunJson("perf " + common + " --batch-sizes 1 --prompt-lengths 128 --json");
  if (plan.empty() || perf.empty()) return;  // RunJson has failed the test
  // A launch with speculation must report it, or its settings would go unchecked.
  const bool speculative = l.flags.find("--speculative-algorithm") != std::string::npos;
  EXPECT_EQ(perf.contains("speculative"), speculative) << perf.dump();
  if (speculative && perf.contains("speculative")) {
    EXPECT_EQ(perf["speculative_num_steps"].get<double>(),
              PlanFigure(plan, "speculative_num_steps"));
    EXPECT_EQ(perf["speculative_eagle_topk"].get<double>(),
              PlanFigure(plan, "speculative_eagle_topk"));
    EXPECT_EQ(perf["speculative_num_draft_tokens"].get<double>(),
              PlanFigure(plan, "speculative_num_draft_tokens"));
  }
  EXPECT_EQ(perf["cuda_graph_max_bs"].get<double>(), PlanFigure(plan, "cuda_graph_max_bs"));
}

const std::vector<std::string> kEngines = {"sglang@0.4.6", "sglang@0.5.3", "sglang@0.5.6",
                                           "sglang"};

TEST(PlanPerfCli, Eagle3AutomaticSettings) {
  const std::string flags =
      fmt::format("--speculative-algorithm EAGLE3 --speculative-draft-model-path {}", kEagle3Draft);
  for (const std::string& e : kEngines) {
    ExpectSameSettings({e, kQwen3Id, "h100-sxm", flags});
    ExpectSameSettings({e, kLlamaId, "h200", flags});
  }
}

TEST(PlanPerfCli, Eagle3UserSettings) {
  const std::string draft =
      fmt::format("--speculative-algorithm EAGLE3 --speculative-draft-model-path {}", kEagle3Draft);
  for (const std::string& e : kEngines) {
    ExpectSameSettings({e, kQwen3Id, "h100-sxm",
                        draft + " --speculative-num-steps 3 --speculative-eagle-topk 1 "
                                "--speculative-num-draft-tokens 4"});
    // Steps and top-k without draft tokens: the release's automatic count.
    ExpectSameSettings(
        {e, kLlamaId, "h200", draft + " --speculative-num-steps 4 --speculative-eagle-topk 2"});
    ExpectSameSettings({e, kQwen3Id, "h100-sxm", draft + " --cuda-graph-max-bs 96"});
  }
}

TEST(PlanPerfCli, NoSpeculation) {
  for (const std::string& e : kEngines) {
    ExpectSameSettings({e, kQwen3Id, "l40s", ""});
    ExpectSameSettings({e, kLlamaId, "h100-sxm", "--tp 2"});
  }
}

// The story: Qwen3-8B with an EAGLE-3 draft under SGLang 0.5.6, whose
// server_args.py auto_choose_speculative_params gives (5, 4, 8) to every
// architecture but DeepSeek, GPT-OSS and BailingMoE; both texts say so.
TEST(PlanPerfCli, StoryQwen3Eagle3OnSglang056) {
  const std::string common = fmt::format(
      "--engine sglang@0.5.6 --model {} --gpu h100-sxm --speculative-algorithm EAGLE3 "
      "--speculative-draft-model-path {}",
      kQwen3Id, kEagle3Draft);
  const testing::ShellRun perf =
      testing::RunKvplanShell("perf " + common + " --batch-sizes 1 --prompt-lengths 128");
  ASSERT_EQ(perf.status, 0) << perf.out;
  EXPECT_NE(perf.out.find("EAGLE3 steps 5 topk 4 draft tokens 8"), std::string::npos) << perf.out;
  const nlohmann::json plan = RunJson("plan " + common + " --json");
  EXPECT_EQ(PlanFigure(plan, "speculative_num_steps"), 5);
  EXPECT_EQ(PlanFigure(plan, "speculative_eagle_topk"), 4);
  EXPECT_EQ(PlanFigure(plan, "speculative_num_draft_tokens"), 8);
}

TEST(PlanPerfCli, PerfRefusesAnEngineItDoesNotModel) {
  const testing::ShellRun r = testing::RunKvplanShell(
      fmt::format("perf --engine trtllm --model {} --gpu h100-sxm", kLlamaId));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("kvplan perf models sglang[@VERSION] and vllm[@VERSION]"), std::string::npos)
      << r.out;
}

TEST(PlanPerfCli, TuneTakesTheEngineFlag) {
  const testing::ShellRun r = testing::RunKvplanShell(
      fmt::format("tune --engine vllm --model {} --gpu h100-sxm --gpus 1", kLlamaId));
  EXPECT_NE(r.status, 0);
  EXPECT_NE(r.out.find("kvplan tune searches SGLang launches"), std::string::npos) << r.out;
  const testing::ShellRun old = testing::RunKvplanShell(
      fmt::format("tune --engine-version 0.5.6 --model {} --gpu h100-sxm --gpus 1", kLlamaId));
  EXPECT_NE(old.status, 0) << "--engine-version is gone: --engine sglang@VERSION replaces it";
}

}  // namespace
}  // namespace kvplan::cli
