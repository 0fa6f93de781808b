// RopeCacheElements on the catalog's and the corpus's real configs, against the table shapes
// of vLLM's rotary_embedding classes worked out by hand.
#include "catalog/rope_cache.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "catalog/model.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t Elements(const std::string& id) { return LoadModel(id).rope_cache_elements; }

TEST(RopeCache, PlainAndLlama3TablesHaveMaxPositionRows) {
  // max_position_embeddings x head_dim: 131072 x 128 (llama3 scaling keeps the rows).
  EXPECT_EQ(Elements("meta-llama/Llama-3.1-8B-Instruct"), 131072LL * 128);
  EXPECT_EQ(Elements("Qwen/Qwen2.5-7B-Instruct"), 32768LL * 128);
  // Llama-4-Scout: a 10M-position llama3 table, 2.5 GiB in bf16 on every rank.
  EXPECT_EQ(
      LoadModel(testing::RealData("configs/meta-llama--Llama-4-Scout-17B-16E-Instruct.aic.json"))
          .rope_cache_elements,
      10485760LL * 128);
}

TEST(RopeCache, ScaledTables) {
  // Gemma-3: a linear x8 global table (131072 x 8 rows) and the unscaled local one.
  EXPECT_EQ(Elements("google/gemma-3-27b-it"), (131072LL * 8 + 131072) * 128);
  // gpt-oss: YaRN over original_max_position_embeddings 4096 x factor 32, head_dim 64.
  EXPECT_EQ(Elements("openai/gpt-oss-20b"), 4096LL * 32 * 64);
  // DeepSeek-V3 (MLA): YaRN 4096 x 40 rows of qk_rope_head_dim 64.
  EXPECT_EQ(Elements("deepseek-ai/DeepSeek-V3"), 4096LL * 40 * 64);
}

TEST(RopeCache, PartialRotaryAndNoRope) {
  // Phi-2 rotates 0.4 of its 80-wide heads: 32 columns over 2048 positions.
  EXPECT_EQ(LoadModel(testing::RealData("configs/microsoft--phi-2.json")).rope_cache_elements,
            2048LL * 32);
  EXPECT_EQ(LoadModel(testing::RealData("configs/openai-community--gpt2.json")).rope_cache_elements,
            0);  // learned absolute positions
}

TEST(RopeCache, BadScalingIsInputError) {
  ModelSpec m;
  m.head_dim = 128;
  m.max_position_embeddings = 4096;
  auto cfg = nlohmann::json::parse(R"({"rope_scaling":{"rope_type":"linear","factor":"x"}})");
  EXPECT_THROW(RopeCacheElements(cfg, m, "bad"), InputError);
  cfg = nlohmann::json::parse(R"({"rope_scaling":{"rope_type":"linear","factor":1e300}})");
  EXPECT_THROW(RopeCacheElements(cfg, m, "bad"), InputError);
}

}  // namespace
}  // namespace kvplan
