// Runs the kvplan binary: `kvplan gpus` and `kvplan gpus --json`.
#include <cstdio>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include "testing/cli_test_util.h"

#include "catalog/gpu.h"

namespace kvplan::cli {
namespace {

std::string RunKvplan(const std::string& args) { return testing::RunKvplanShell(args).out; }

TEST(GpusVerb, TableHasOneRowPerGpu) {
  std::string out = RunKvplan("gpus");
  for (const GpuSpec& gpu : GpuCatalog()) {
    EXPECT_NE(out.find("\n" + gpu.id + " "), std::string::npos) << gpu.id;
  }
  // 97250 MiB / 1024 = 94.97 GiB; nvidia-smi 97887 MiB.
  EXPECT_NE(out.find("94.97     97887"), std::string::npos) << out;
}

TEST(GpusVerb, TableListsEachGpusAliasesAndTheAmbiguousNames) {
  std::string out = RunKvplan("gpus");
  const size_t aliases = out.find("\nALIASES\n");
  ASSERT_NE(aliases, std::string::npos) << out;
  auto line_of = [&](const std::string& id) {
    const size_t at = out.find("\n" + id + " ", aliases);
    return at == std::string::npos ? "" : out.substr(at + 1, out.find('\n', at + 1) - at - 1);
  };
  EXPECT_NE(line_of("h100-sxm").find(" h100, h100-80gb, h100-sxm5"), std::string::npos) << out;
  EXPECT_NE(line_of("a100").find(" ambiguous: one of a100-40gb, a100-80gb"), std::string::npos)
      << out;
}

TEST(GpusVerb, JsonListsEachGpusAliases) {
  nlohmann::json doc = nlohmann::json::parse(RunKvplan("gpus --json"));
  EXPECT_EQ(doc[0]["aliases"][0], "h100");
  for (const nlohmann::json& gpu : doc) {
    ASSERT_TRUE(gpu["aliases"].is_array()) << gpu["id"];
    if (gpu["id"] == "a100-80gb") {
      EXPECT_EQ(gpu["ambiguous_aliases"][0], "a100");
    }
  }
}

TEST(GpusVerb, JsonListsEveryGpuInBaseUnits) {
  nlohmann::json doc = nlohmann::json::parse(RunKvplan("gpus --json"));
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), GpuCatalog().size());
  const nlohmann::json& h100 = doc[0];
  EXPECT_EQ(h100["id"], "h100-sxm");
  EXPECT_EQ(h100["total_bytes"].get<int64_t>(), int64_t{81090} << 20);
  EXPECT_EQ(h100["capacity_mib"], 81559);
  EXPECT_EQ(h100["link"], "nvlink");
  EXPECT_DOUBLE_EQ(h100["nvlink_bandwidth_bytes_per_s"].get<double>(), 450e9);
}

// --gpu FILE.json reaches every verb through FindGpu: the example the README shows.
const std::string kMyGpu = std::string(KVPLAN_SOURCE_DIR) + "/docs/examples/my-gpu.json";

TEST(GpuOption, EveryVerbTakesAGpuFileAndNamesIt) {
  const std::string name = "NVIDIA RTX 6000 Ada Generation";
  EXPECT_NE(RunKvplan("plan --model Qwen/Qwen3-8B --gpu " + kMyGpu).find("on 1x " + name),
            std::string::npos);
  EXPECT_NE(RunKvplan("compare --model Qwen/Qwen3-8B --gpu " + kMyGpu).find("on 1x " + name),
            std::string::npos);
  EXPECT_NE(RunKvplan("perf --model meta-llama/Llama-3.1-8B-Instruct --batch-sizes 1 "
                      "--prompt-lengths 512 --context 512 --gpu " +
                      kMyGpu)
                .find("on nvidia-rtx-6000-ada-generation x1"),
            std::string::npos);
  EXPECT_NE(RunKvplan("tune --model meta-llama/Llama-3.1-8B-Instruct --gpus 1 --context 512 "
                      "--top 1 --gpu " +
                      kMyGpu)
                .find("nvidia-rtx-6000-ada-generation"),
            std::string::npos);
}

TEST(GpuOption, AGpuFileMissingAFieldIsOneLineAndExitTwo) {
  const std::string path = ::testing::TempDir() + "kvplan-no-bw-gpu.json";
  std::ofstream(path) << R"({"name": "X", "capacity_mib": 1000, "bf16_tflops": 1, "link": "pcie",
                             "pcie_gb_s": 32})";
  // A memory plan does not need the bandwidth; step times do, and say which field is missing.
  const testing::CliResult r =
      testing::RunKvplan({"perf", "--model", "Qwen/Qwen3-8B", "--gpu", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("kvplan perf needs 'hbm_tb_s' (memory bandwidth in TB/s) for step times"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
  std::ofstream(path) << R"({"name": "X", "link": "pcie", "pcie_gb_s": 32})";
  const testing::CliResult plan =
      testing::RunKvplan({"plan", "--model", "Qwen/Qwen3-8B", "--gpu", path});
  EXPECT_EQ(plan.exit_code, 2);
  EXPECT_NE(plan.err.find("missing field 'capacity_mib' (nvidia-smi memory.total in MiB)"),
            std::string::npos)
      << plan.err;
  EXPECT_EQ(plan.err.find('\n'), plan.err.size() - 1) << plan.err;
  std::remove(path.c_str());
}

TEST(GpuOption, AnAmbiguousNameIsRefusedUnlessTheCapacityPicksOne) {
  const testing::CliResult r =
      testing::RunKvplan({"plan", "--model", "Qwen/Qwen3-8B", "--gpu", "a100"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "kvplan: error: GPU 'a100' is ambiguous: use one of a100-40gb, a100-80gb (or give "
            "--gpu-capacity-mib)\n");
  EXPECT_NE(RunKvplan("plan --model Qwen/Qwen3-8B --gpu a100 --gpu-capacity-mib 40960")
                .find("on 1x a100-40gb"),
            std::string::npos);
}

// A card the catalog does not size (here a 96 GB part run as "h100"): the
// measured free memory is the user's, and --gpu-capacity-mib says so.
TEST(GpuOption, CapacityLiftsTheCatalogBoundOnMeasuredFreeMemory) {
  const std::string base =
      "plan --engine sglang@0.5.6 --model Qwen/Qwen3-8B --gpu h100 --pre-load-free-gib 93 "
      "--post-load-free-gib 77";
  EXPECT_NE(RunKvplan(base).find("--pre-load-free-gib 93.000 is more than the h100-sxm holds"),
            std::string::npos);
  EXPECT_EQ(RunKvplan(base + " --gpu-capacity-mib 97871").find("is more than"), std::string::npos);
}

}  // namespace
}  // namespace kvplan::cli
