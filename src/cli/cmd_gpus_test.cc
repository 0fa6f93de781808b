// Runs the kvplan binary: `kvplan gpus` and `kvplan gpus --json`.
#include <cstdio>
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

}  // namespace
}  // namespace kvplan::cli
