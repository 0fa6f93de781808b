// Runs the kvplan binary: `kvplan models` and `kvplan models show`.
#include <sys/wait.h>

#include <cstdio>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"
#include "testing/test_data.h"

#include "catalog/model.h"
#include "catalog/weights.h"

namespace kvplan::cli {
namespace {

using CliRun = testing::ShellRun;

TEST(ModelsVerb, TableHasOneRowPerCatalogModel) {
  CliRun r = testing::RunKvplanShell("models");
  ASSERT_EQ(r.status, 0) << r.out;
  // An ID wider than its column stands alone, its figures on the next line.
  for (const std::string& id : CatalogModelIds()) {
    bool row = r.out.find("\n" + id + " ") != std::string::npos ||
               r.out.find("\n" + id + "\n") != std::string::npos;
    EXPECT_TRUE(row) << id;
  }
  // DeepSeek-V3: MLA 512+64, 256 routed experts top-8 plus 1 shared, fp8 blocks.
  EXPECT_NE(r.out.find("MLA 512+64 256/8+1s  fp8 128x128"), std::string::npos) << r.out;
  // Grouped by architecture, each heading naming the layer kinds its models use.
  EXPECT_NE(r.out.find("\nQwen3NextForCausalLM (full + linear layers)\n"), std::string::npos);
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line)) EXPECT_LE(line.size(), 100u) << line;
}

TEST(ModelsVerb, JsonListsEveryModel) {
  CliRun r = testing::RunKvplanShell("models --json");
  ASSERT_EQ(r.status, 0);
  nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc.size(), CatalogModelIds().size());
  for (const nlohmann::json& m : doc) {
    if (m["id"] == "meta-llama/Llama-3.1-8B-Instruct") {
      EXPECT_EQ(m["total_params"].get<int64_t>(), 8'030'261'248);
      EXPECT_EQ(m["num_kv_heads"], 8);
    }
  }
}

TEST(ModelsVerb, ShowJsonMatchesTheLibrary) {
  CliRun r = testing::RunKvplanShell("models show qwen/qwen3-32b --tp 4 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  nlohmann::json doc = nlohmann::json::parse(r.out);
  Parallelism p;
  p.tp = 4;
  WeightEstimate w = EstimateWeights(LoadModel("Qwen/Qwen3-32B"), p);
  EXPECT_EQ(doc["weights"]["bytes_per_rank"].get<int64_t>(), w.bytes_per_rank);
  EXPECT_EQ(doc["parallelism"]["tp"], 4);
  EXPECT_EQ(doc["id"], "Qwen/Qwen3-32B");
}

TEST(ModelsVerb, ShowTableListsParts) {
  CliRun r = testing::RunKvplanShell(
      "models show Qwen/Qwen3-30B-A3B --tp 4 --dp 4 --ep 4 --enable-dp-attention");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("dp-attention (attention tp 1)"), std::string::npos) << r.out;
  // The embedding is whole on every rank under DP attention.
  EXPECT_NE(r.out.find("0.580        0.580  replicated"), std::string::npos) << r.out;
  // 128 experts x 3 x 2048 x 768 x 48 layers x 2 bytes / 4 ranks = 13.500 GiB.
  EXPECT_NE(r.out.find("13.500  ep"), std::string::npos) << r.out;
}

TEST(ModelsVerb, BadInputExitsTwoWithOneLine) {
  for (const char* args : {"models show no-such/model", "models show Qwen/Qwen3-8B --tp 0",
                           "models show", "models show Qwen/Qwen3-8B --pp 99"}) {
    CliRun r = testing::RunKvplanShell(args);
    EXPECT_EQ(r.status, 2) << args << ": " << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << args << ": " << r.out;
  }
}

TEST(ModelsVerb, ShowSaysWhenTheEngineRefusesTheSharding) {
  CliRun r = testing::RunKvplanShell("models show Qwen/Qwen3-235B-A22B-FP8 --tp 8");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("engine refuses this sharding: The output_size of gate's and up's weight = "
                       "192 is not divisible by weight quantization block_n = 128."),
            std::string::npos)
      << r.out;
}

// Kimi-K2.5's MoonViT: its config names the fields vt_* (27 x 1152).
TEST(ModelsVerb, ShowPrintsTheKimiK25Tower) {
  CliRun r = testing::RunKvplanShell("models show moonshotai/Kimi-K2.5");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\nvision        27 layers, hidden 1152\n"), std::string::npos) << r.out;
}

// state-spaces/mamba-130m-hf (real config): no attention layers, no MLP, no context length;
// the geometry says so instead of "1 heads", "intermediate 0" and "max context 0".
TEST(ModelsVerb, ShowOfAPureStateSpaceModelSaysItHasNoAttention) {
  CliRun r = testing::RunKvplanShell("models show " +
                                     testing::RealData("configs/state-spaces--mamba-130m-hf.json"));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\nattention     none (state layers only)\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nmlp           none\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("max context not set (plans need --max-model-len)"), std::string::npos)
      << r.out;
}

}  // namespace
}  // namespace kvplan::cli
