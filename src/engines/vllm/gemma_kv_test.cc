// vLLM's KV-cache spec for Gemma-4 and Gemma-3n (vllm/model_executor/models/gemma4.py
// @v0.19.0, gemma3n.py @v0.9.2): full layers with their own head size and KV heads, the
// KV-sharing last layers without a cache of their own (kv_sharing_target_layer_name),
// against hand arithmetic in the comments.
#include <gtest/gtest.h>

#include <string>

#include "engines/vllm/kv_spec.h"
#include "testing/gemma_models.h"
#include "testing/test_data.h"
#include "testing/test_models.h"
#include "testing/vllm_kv_spec_table.h"

namespace kvplan {
namespace {

// Each row against the hand arithmetic above it.
TEST(VllmGemma, EachModelsSpecAgainstTheHandArithmetic) {
  const testing::VllmKvSpecRow rows[] = {
      // gemma-4-26B-A4B at TP 1: 25 sliding layers of 8 KV heads x (256 + 256) x 2 = 8,192 B a
      // token, 5 full layers of 2 global KV heads x (512 + 512) x 2 = 4,096 B.
      // unify_kv_cache_spec_page_size: 16 x 8,192 = 131,072 B pages, so the full layers get
      // 32-token blocks (32 x 4,096). 5 full and 25 sliding layers group by 5: 1 full group,
      // 5 sliding groups, no padding.
      {.name = "Gemma4FullLayersTakeLargerBlocksToMatchTheSlidingPages",
       .model = kvplan::testing::RealConfig("google--gemma-4-26B-A4B.json"),
       .layers = 30,
       .hybrid = true,
       .bytes_per_token_all_layers = 25 * 8192 + 5 * 4096,
       .page_bytes = 131072,
       // layer 5 is the first full one
       .layer_specs = {{.index = 5, .bytes_per_token = 4096, .block_size = 32}},
       .group_size = 5,
       .num_groups = 6,
       .padding_layers = 0},
      // gemma-4-E4B (the W4A16 fine-tune's config, gemma-4-E4B's geometry): the last 18 of 42
      // layers read the KV of layers 22 (sliding) and 23 (full) and get no spec. Layers 0-23:
      // 20 sliding of 2 x (256 + 256) x 2 = 2,048 B, 4 full of 2 x (512 + 512) x 2 = 4,096 B;
      // pages 16 x 4,096 = 65,536 B, the sliding layers in 32-token blocks.
      {.name = "Gemma4KvSharingLayersHaveNoCacheOfTheirOwn",
       .model = testing::WithoutQuantization("Jackrong--Gemopus-4-E4B-it-W4A16.json"),
       .layers = 24,
       .bytes_per_token_all_layers = 20 * 2048 + 4 * 4096,
       .page_bytes = 65536,
       .layer_specs = {{.index = 0, .block_size = 32}},
       .group_size = 4,
       .num_groups = 6},
  };
  for (const testing::VllmKvSpecRow& row : rows) testing::ExpectVllmKvSpec(row);
}

}  // namespace
}  // namespace kvplan
