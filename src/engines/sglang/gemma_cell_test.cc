// SGLang's cell size for Gemma-4 (python/sglang/srt/models/gemma4_causal.py, SGLang
// #21952; model_config.py hybrid_swa_archs lists Gemma4ForConditionalGeneration, so its
// sliding layers take the SWA pool) and Gemma-3n (one geometry, every layer counted),
// against hand arithmetic in the comments.
#include <gtest/gtest.h>

#include <string>

#include "engines/sglang/cell.h"
#include "testing/gemma_models.h"
#include "testing/sglang_cell_table.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

// Each row against the hand arithmetic above it.
TEST(SglangGemmaCell, EachModelsCellAgainstTheHandArithmetic) {
  const testing::SglangCellRow rows[] = {
      // gemma-4-26B-A4B at TP 2: a full layer holds 2 global KV heads / 2 = 1 x (512 + 512) x 2
      // = 2,048 B a token, a sliding layer 8 / 2 = 4 heads x (256 + 256) x 2 = 4,096 B;
      // pool_configurator.py HybridSWAPoolConfigurator: 2,048 x 5 + 0.8 x 4,096 x 25 = 92,160.
      {.name = "Gemma4SizesItsFullAndSlidingPoolsWithTheirOwnHeads",
       .model = LoadModel(testing::RealData("configs/google--gemma-4-26B-A4B.json")),
       .tp = 2,
       .era = &SglangEra2026Mid(),
       .version_key = SglangVersionKey(0, 5, 15),
       .hybrid_mode = 2,
       .n_full = 5,
       .n_swa = 25,
       .per_layer_bytes = 2048,
       .swa_layer_bytes = 4096},
      // gemma-3n-E4B (synthetic, Gemma3nTextConfig's defaults): not a hybrid-SWA architecture
      // in SGLang, one pool of 2 KV heads x (256 + 256) x 2 = 2,048 B a layer; the pool keeps
      // every one of the 35 layers (memory_pool.py allocates per layer id; the 15 KV-sharing
      // layers read layers 18 and 19 but still count): 35 x 2,048.
      {.name = "Gemma3nCountsEveryLayerInOnePool",
       .model = ParseModelConfig(testing::kGemma3nE4bSynthetic, "gemma-3n-E4B.json"),
       .era = &SglangEra2026Mid(),
       .version_key = SglangVersionKey(0, 5, 15),
       .hybrid_mode = 0,
       .layers = 35,
       .bytes = 35 * 2048},
  };
  for (const testing::SglangCellRow& row : rows) testing::ExpectSglangCell(row);
}

// gemma-4-E2B (synthetic): 35 layers, every fifth full, the last 20 reading earlier layers'
// KV. SGLang's pools still take all 35 (model_config.py get_hybrid_layer_ids splits every
// layer_types entry): 7 full layers of 1 KV head x (512 + 512) x 2 = 2,048 B and 28 sliding
// ones of 1 x (256 + 256) x 2 = 1,024 B; 2,048 x 7 + 0.8 x 1,024 x 28 = 37,273.6.
TEST(SglangGemmaCell, Gemma4KvSharingLayersKeepTheirPoolBuffers) {
  const ModelSpec m = ParseModelConfig(testing::kGemma4E2bSynthetic, "gemma-4-E2B.json");
  const SglangCell c =
      SglangCellSize(SglangEra2026Mid(), SglangVersionKey(0, 5, 15), m, SglangArgs{}, nullptr);
  EXPECT_EQ(c.hybrid_mode, 2);
  EXPECT_EQ(c.n_full, 7);
  EXPECT_EQ(c.n_swa, 28);
  EXPECT_EQ(c.per_layer_bytes, 2048);
  EXPECT_EQ(c.swa_layer_bytes, 1024);
  EXPECT_DOUBLE_EQ(c.hybrid_divisor, 2048.0 * 7 + 0.8 * 1024 * 28);
}

}  // namespace
}  // namespace kvplan
