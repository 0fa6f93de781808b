// The run history's record decoder refuses what a damaged or foreign row may
// hold instead of converting it blindly (nlohmann casts 1e300 into an int64,
// undefined behaviour), and keeps every figure of a record it wrote.
#include "logs/run_record_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/log_scanner.h"

namespace kvplan {
namespace {

nlohmann::json StoredRecordOfAShortLog() {
  std::string log =
      "[2025-11-06 12:11:03 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, "
      "avail mem=63.53 GB, mem usage=14.99 GB.\n"
      "[2025-11-06 12:11:04 TP0] KV Cache is allocated. #tokens: 413554, K size: 25.24 GB, "
      "V size: 25.24 GB\n";
  std::vector<RunRecord> runs = ScanLogText(log).runs;
  EXPECT_EQ(runs.size(), 1u);
  return runs.empty() ? nlohmann::json::object() : ToJson(runs.front());
}

TEST(RunRecordJson, RoundTripsAScannedRecord) {
  nlohmann::json j = StoredRecordOfAShortLog();
  RunRecord back = RunRecordFromJson(j);
  EXPECT_EQ(ToJson(back), j);
  EXPECT_EQ(back.Figure("kv_tokens"), 413554);
}

TEST(RunRecordJson, RefusesCountsThatAreNotIntegersInRange) {
  const std::pair<const char*, nlohmann::json> damaged[] = {
      {"gpu_count", 1e300},           {"gpu_count", 4294967296LL},
      {"gpu_capacity_mib", 2.5},      {"launch_index", -1e19},
      {"first_line", "12"},           {"last_line", 18446744073709551615ULL},
      {"cuda_graph_bs", {1, 2, 1e30}}};
  for (const auto& [key, value] : damaged) {
    nlohmann::json j = StoredRecordOfAShortLog();
    j[key] = value;
    EXPECT_THROW(RunRecordFromJson(j), InputError) << key << "=" << value.dump();
  }
  nlohmann::json line = StoredRecordOfAShortLog();
  ASSERT_FALSE(line["timeline"].empty());
  line["timeline"][0]["line"] = 1e300;
  EXPECT_THROW(RunRecordFromJson(line), InputError);
}

}  // namespace
}  // namespace kvplan
