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

TEST(RopeCache, Gemma4BuildsOneTablePerLayerKind) {
  // vLLM gemma4.py: the sliding layers' default rope over head_dim 256, and the full layers'
  // proportional rope, whose table is global_head_dim 512 wide (gemma4_rope.py passes
  // rotary_dim = head_size; partial_rotary_factor 0.25 only zeroes inv_freq): 262144 rows each.
  const int64_t per_row = 256 + 512;
  EXPECT_EQ(
      LoadModel(testing::RealData("configs/google--gemma-4-26B-A4B.json")).rope_cache_elements,
      262144LL * per_row);
  EXPECT_EQ(
      LoadModel(testing::RealData("configs/nvidia--Gemma-4-31B-IT-NVFP4.json")).rope_cache_elements,
      262144LL * per_row);
  // A full-attention rope that is not proportional rotates its partial width only.
  ModelSpec m;
  m.family = "gemma4";
  m.head_dim = 256;
  m.max_position_embeddings = 1000;
  auto cfg = nlohmann::json::parse(
      R"({"global_head_dim":512,"rope_parameters":{"full_attention":{"rope_type":"default",
          "partial_rotary_factor":0.25},"sliding_attention":{"rope_type":"default"}}})");
  EXPECT_EQ(RopeCacheElements(cfg, m, "t"), 1000LL * (256 + 128));
}

TEST(RopeCache, SglangGemma3BuildsFewerTablesThanVllm) {
  // gemma-3-4b: head_dim 256, max_position_embeddings 131072, linear x8 on the global rope.
  const ModelSpec m = LoadModel(testing::RealData("configs/google--gemma-3-4b-it.assembled.json"));
  // vLLM gemma3.py: the linear x8 global table and the unscaled local one.
  EXPECT_EQ(m.rope_cache_elements, (131072LL * 8 + 131072) * 256);
  // SGLang gemma3_causal.py: none before #12590, then two unscaled (rope_type default for every
  // layer), one per base: 2 x 131072 x 256 = 67,108,864 elements, 256 MiB in float32 where
  // vLLM's shapes would be 1,207,959,552 B (1.125 GiB), 0.875 GiB more.
  EXPECT_EQ(SglangRopeCacheElements(m, false), 0);
  EXPECT_EQ(SglangRopeCacheElements(m, true), 2LL * 131072 * 256);
  EXPECT_EQ((m.rope_cache_elements - SglangRopeCacheElements(m, true)) * 4, 939'524'096);
  // Other families keep the vLLM-shaped count.
  const ModelSpec llama = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(SglangRopeCacheElements(llama, true), llama.rope_cache_elements);
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
