// The bounded reader of config integers: one error line naming the key and the range, the same
// from every family's reader (config_parser.cc, per_layer_config.cc, gemma_config.cc).
#include "catalog/json_fields.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "catalog/model.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using config_json::Json;

// A real config.json from tests/data/real/configs/, as JSON to edit.
Json RealConfigJson(const std::string& file) {
  std::ifstream in(testing::RealData("configs/" + file));
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

TEST(BoundedConfigInt, OneLineNamesTheKeyAndTheRange) {
  EXPECT_EQ(config_json::BoundedInt(65536, "hidden_size", "c.json"), 65536);
  EXPECT_EQ(testing::InputErrorOf([] { config_json::BoundedInt(65537, "hidden_size", "c.json"); }),
            "c.json: config key \"hidden_size\" is out of range: 65537 (expected 0 to 65536)");
  EXPECT_EQ(testing::InputErrorOf(
                [] { config_json::BoundedInt(int64_t{1} << 27, "vocab_size", "c.json"); }),
            "c.json: config key \"vocab_size\" is out of range: 134217728 (expected 0 to "
            "67108864)");
  // A key the bounds table does not name takes 2^20.
  EXPECT_EQ(testing::InputErrorOf([] { config_json::BoundedInt(-1, "laurel_rank", "c.json"); }),
            "c.json: config key \"laurel_rank\" is out of range: -1 (expected 0 to 1048576)");
  EXPECT_EQ(testing::InputErrorOf(
                [] { config_json::BoundedInt(int64_t{1} << 40, "head_dim", "c.json"); }),
            "c.json: config key \"head_dim\" is out of range: 1099511627776 (expected 0 to "
            "1048576)");
}

TEST(BoundedConfigInt, OptionalFallsBackAndRequiredKeepsItsPositiveCheck) {
  const Json cfg = Json::parse(R"({"a": 7, "zero": 0, "big": 2000000, "none": null})");
  EXPECT_EQ(config_json::OptBoundedInt(cfg, "a", "c.json", 3), 7);
  EXPECT_EQ(config_json::OptBoundedInt(cfg, "absent", "c.json", 3), 3);
  EXPECT_EQ(config_json::OptBoundedInt(cfg, "none", "c.json", 3), 3);
  EXPECT_EQ(config_json::OptBoundedInt(cfg, "zero", "c.json", 3), 0);
  EXPECT_NE(testing::InputErrorOf([&] {
              config_json::OptBoundedInt(cfg, "big", "c.json", 3);
            }).find("\"big\" is out of range: 2000000 (expected 0 to 1048576)"),
            std::string::npos);
  EXPECT_EQ(config_json::RequireBoundedInt(cfg, "a", "c.json"), 7);
  EXPECT_EQ(testing::InputErrorOf([&] { config_json::RequireBoundedInt(cfg, "zero", "c.json"); }),
            "c.json: config key \"zero\" must be > 0, got 0");
  EXPECT_EQ(testing::InputErrorOf([&] { config_json::RequireBoundedInt(cfg, "absent", "c.json"); }),
            "c.json: config.json is missing the required key \"absent\"");
}

// MiMo-V2-Flash's sliding-window fields (per_layer_config.cc) and Gemma-4's experts
// (gemma_config.cc) are refused in the same words and bounds as every other family's fields.
TEST(BoundedConfigInt, PerLayerAndGemmaReadersSayTheSameLine) {
  Json mimo = RealConfigJson("XiaomiMiMo--MiMo-V2-Flash.json");
  mimo["swa_head_dim"] = 1 << 21;
  EXPECT_NE(testing::InputErrorOf([&] { ParseModelConfig(mimo.dump(), "mimo.json"); })
                .find("mimo.json: config key \"swa_head_dim\" is out of range: 2097152 (expected "
                      "0 to 1048576)"),
            std::string::npos);
  Json gemma = RealConfigJson("google--gemma-4-26B-A4B.json");
  gemma["text_config"]["num_experts"] = 20000;
  EXPECT_NE(testing::InputErrorOf([&] { ParseModelConfig(gemma.dump(), "gemma.json"); })
                .find("gemma.json: config key \"num_experts\" is out of range: 20000 (expected 0 "
                      "to 16384)"),
            std::string::npos);
}

}  // namespace
}  // namespace kvplan
