// SGLang's cell size on models whose layers have their own KV geometry, each
// on its real config (tests/data/real/configs/SOURCES.md), against hand
// arithmetic in the comments.
#include "engines/sglang/cell.h"

#include <gtest/gtest.h>

#include <string>

#include "base/units.h"
#include "engines/sglang/sglang.h"
#include "testing/input_error.h"
#include "testing/sglang_cell_table.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// Each row on its real config against the hand arithmetic above it.
TEST(SglangCell, EachModelsCellAgainstTheHandArithmetic) {
  const ModelSpec nemotron =
      kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  const ModelSpec mimo = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  const testing::SglangCellRow rows[] = {
      // memory_pool.py MHATokenToKVPool: SGLang allocates K and V for every one of
      // the 80 layers, DeciLM's 31 no_op attention layers included, with the one
      // KV head count (8; 2 a rank at TP 4): 80 x 2 x (128 + 128) x 2 bytes.
      {.name = "NemotronSuperCountsEveryLayer",
       .model = nemotron,
       .tp = 4,
       .era = &SglangEraV0_5_3(),
       .version_key = SglangVersionKey(0, 5, 3),
       .layers = 80,
       .kv_heads_per_rank = 2,
       .bytes = 80 * 2 * 256 * 2},
      // pool_configurator.py HybridSWAPoolConfigurator (#18039): at TP 4 a full layer
      // holds 1 KV head x (192 + 128) x 2 = 640 B a token, a sliding layer 2 heads =
      // 1280 B; divisor = 640 x 9 + 0.8 x 1280 x 39 = 45,696.
      {.name = "MimoV2FlashSizesEachKindWithItsOwnHeads",
       .model = mimo,
       .tp = 4,
       .era = &SglangEra2026Mid(),
       .version_key = SglangVersionKey(0, 5, 15),
       .hybrid_mode = 2,
       .n_full = 9,
       .n_swa = 39,
       .per_layer_bytes = 640,
       .swa_layer_bytes = 1280,
       .hybrid_divisor = 640.0 * 9 + 0.8 * 1280 * 39},
  };
  for (const testing::SglangCellRow& row : rows) testing::ExpectSglangCell(row);
}

// model_config.py get_total_num_kv_heads: attention blocks with different KV
// head counts are refused in SGLang's words.
TEST(SglangCell, NemotronWithVariableKvHeadsIsRefusedInSglangsWords) {
  ModelSpec m = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  m.layer_geometry[0].kv_heads = 16;  // block 0 with n_heads_in_group 4
  SglangArgs a;
  const std::string what = testing::InputErrorOf(
      [&] { SglangCellSize(SglangEraV0_5_3(), SglangVersionKey(0, 5, 3), m, a, nullptr); });
  EXPECT_NE(what.find("Variable GQA (VGQA) is not yet supported"), std::string::npos) << what;
}

// MiMo-V2-Flash planned on main with the whole of an H200 free before and after loading (the
// logged token counts fix the pools, not the memory).
PlanResult PlanMimoOnAWholeH200(const SglangArgs& a) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  const GpuSpec gpu = testing::H200();
  const double free_gib = ToGiB(gpu.total_bytes);
  return PlanSglang("main", m, gpu, a, testing::Measured(free_gib, free_gib));
}

// The plan's "KV cache" memory slice (0 when it has none).
int64_t KvCacheBytes(const PlanResult& r) {
  int64_t kv = 0;
  for (const MemorySlice& s : r.memory) kv = s.label == "KV cache" ? s.bytes : kv;
  return kv;
}

// The pool of tests/data/real/sglang/pr18039_mimo_v2_flash_tp4_swa_pool.log (TP 4,
// main of 2026-01-31): full_layer_tokens=375360, swa_layer_tokens=300288, the
// sliding pool's "K size: 8.38 GB" = (300288 + 1) x 39 layers x 2 heads x 192 x 2 B
// / 2^30 = 8.376. Held at the log's token count, the pool is (375360 + 1) x 640 x 9
// + (300288 + 1) x 1280 x 39 = 17,152,506,240 B, each kind with its own heads.
TEST(SglangCell, MimoV2FlashPoolAtTheLoggedTokens) {
  SglangArgs a;
  a.tp = 4;
  a.max_total_tokens = 375360;
  const PlanResult r = PlanMimoOnAWholeH200(a);
  ASSERT_TRUE(r.ok) << r.error_message;
  const Figure* swa = r.FindFigure("swa_layer_tokens");
  ASSERT_NE(swa, nullptr);
  EXPECT_EQ(swa->value, 300288);
  EXPECT_NEAR(300289.0 * 39 * 2 * 192 * 2 / (1 << 30), 8.38, 0.005);
  EXPECT_EQ(KvCacheBytes(r), int64_t{375361} * 640 * 9 + int64_t{300289} * 1280 * 39);
}

// tests/data/real/sglang/pr15464_mimo_v2_flash_tp4_swa_pool.log (TP 4, 2025-12-19):
// both pools hold 1,496,958 tokens; "SWAKVPool mem usage: 77.63 GB" = (1496958 + 1) x
// (9 x 640 + 39 x 1280) / 2^30 = 77.627; the full pool's "K size: 4.82 GB" =
// 1496959 x 9 x 1 x 192 x 2 / 2^30, the sliding pool's "K size: 41.76 GB" = 1496959 x 39
// x 2 x 192 x 2 / 2^30. Planned at the log's tokens with --swa-full-tokens-ratio 1.
TEST(SglangCell, MimoV2FlashPoolMatchesTheLoggedSwaPoolUsage) {
  SglangArgs a;
  a.tp = 4;
  a.max_total_tokens = 1496958;
  a.swa_full_tokens_ratio = 1.0;
  const PlanResult r = PlanMimoOnAWholeH200(a);
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_NEAR(static_cast<double>(KvCacheBytes(r)) / (1 << 30), 77.63, 0.005);
  const Figure* k = r.FindFigure("k_size_gib");  // the full pool's line
  ASSERT_NE(k, nullptr);
  EXPECT_NEAR(k->value, 4.82, 0.005);
}

}  // namespace
}  // namespace kvplan
