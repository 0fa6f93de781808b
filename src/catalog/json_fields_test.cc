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

// LFM2's fields (lfm2_minimax_config.cc), a DeciLM layer's MLP width (per_layer_config.cc) and
// a vision tower's (vision_towers.cc) go through the same reader: the same line, with the lower
// bound each rule needs (a conv window keeps conv_L_cache - 1 tokens, so 2; a width 1).
TEST(BoundedConfigInt, Lfm2DeciLmAndVisionTowerReadersSayTheSameLine) {
  const auto refusal = [](const Json& config) {
    return testing::InputErrorOf([&] { ParseModelConfig(config.dump(), "c.json"); });
  };
  const auto says = [](const std::string& what, const std::string& line) {
    EXPECT_NE(what.find("c.json: config key " + line), std::string::npos) << what;
  };
  const Json lfm2 = RealConfigJson("LiquidAI--LFM2-1.2B.json");
  Json bad = lfm2;
  bad["conv_L_cache"] = 1;
  says(refusal(bad), "\"conv_L_cache\" is out of range: 1 (expected 2 to 1024)");
  bad = lfm2;
  bad["block_ff_dim"] = int64_t{1} << 32;
  says(refusal(bad), "\"block_ff_dim\" is out of range: 4294967296 (expected 1 to 1048576)");
  bad = lfm2;
  bad["block_multiple_of"] = 0;
  says(refusal(bad), "\"block_multiple_of\" is out of range: 0 (expected 1 to 1048576)");
  const Json vl = RealConfigJson("Qwen--Qwen2.5-VL-3B-Instruct.json");
  bad = vl;
  bad["vision_config"]["patch_size"] = 0;
  says(refusal(bad), "\"vision_config.patch_size\" is out of range: 0 (expected 1 to 1048576)");
  bad = vl;
  bad["vision_config"]["spatial_merge_size"] = 1 << 21;
  says(refusal(bad),
       "\"vision_config.spatial_merge_size\" is out of range: 2097152 (expected 1 to 1048576)");
  Json deci = RealConfigJson("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  deci["block_configs"][0]["ffn"] = {{"no_op", false}, {"intermediate_size", int64_t{1} << 40}};
  EXPECT_NE(
      refusal(deci).find("c.json: block_configs[0].ffn: config key \"intermediate_size\" is out "
                         "of range: 1099511627776 (expected 1 to 1048576)"),
      std::string::npos)
      << refusal(deci);
  Json kimi = RealConfigJson("moonshotai--Kimi-K2.5.json");
  kimi["vision_config"]["merge_kernel_size"] = {0, 2};
  says(refusal(kimi),
       "\"vision_config.merge_kernel_size\" is out of range: 0 (expected 1 to 1048576)");
}

}  // namespace
}  // namespace kvplan
