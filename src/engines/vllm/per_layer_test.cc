// vLLM's KV-cache spec on models whose layers have their own KV geometry, each
// on its real config (tests/data/real/configs/SOURCES.md), against hand
// arithmetic in the comments.
#include <gtest/gtest.h>

#include <string>

#include "engines/vllm/kv_spec.h"
#include "testing/test_data.h"
#include "testing/test_models.h"
#include "testing/vllm_kv_spec_table.h"

namespace kvplan {
namespace {

// Each row on its real config against the hand arithmetic above it.
TEST(VllmPerLayer, EachModelsSpecAgainstTheHandArithmetic) {
  const testing::VllmKvSpecRow rows[] = {
      // nemotron_nas.py builds no Attention for a no_op block, so only the 49
      // attention layers have a spec: 8 KV heads (2 a rank at TP 4) x (128 + 128) x 2.
      {.name = "NemotronSuperSpecHoldsTheAttentionLayersOnly",
       .model = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json"),
       .tp = 4,
       .layers = 49,
       .hybrid = false,
       .bytes_per_token_all_layers = 49 * 2 * 256 * 2,
       .page_bytes = 16 * 2 * 256 * 2},
      // mimo_v2_flash.py: full layers 1 KV head a rank at TP 4 (640 B a token), sliding
      // layers 2 (1280 B). unify_kv_cache_spec_page_size gives the full layers 32-token
      // blocks (32 x 640 = 16 x 1280 = 20,480 B pages); 9 full and 39 sliding layers
      // group by 9 (39 >= 1.5 x 9): 1 full group, ceil(39 / 9) = 5 sliding groups with
      // 6 padding slots.
      {.name = "MimoV2FlashUnifiesThePagesOfItsTwoKinds",
       .model = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json"),
       .tp = 4,
       .layers = 48,
       .hybrid = true,
       .bytes_per_token_all_layers = 9 * 640 + 39 * 1280,
       .page_bytes = 20480,
       .layer_specs = {{.index = 0, .bytes_per_token = 640, .block_size = 32},
                       {.index = 1, .block_size = 0}},  // layer 1: the spec's 16
       .group_size = 9,
       .num_groups = 6,
       .padding_layers = 6,
       // A full layer at max_model_len 1000: cdiv(1000, 32) = 32 blocks of 20,480 B.
       .layer_max_memory = testing::VllmLayerMaxMemoryExpect{.index = 0,
                                                             .max_model_len = 1000,
                                                             .max_num_batched_tokens = 8192,
                                                             .bytes = 32 * 20480}},
  };
  for (const testing::VllmKvSpecRow& row : rows) testing::ExpectVllmKvSpec(row);
}

}  // namespace
}  // namespace kvplan
