// SGLang's cell size on models whose layers have their own KV geometry, each
// on its real config (tests/data/real/configs/SOURCES.md), against hand
// arithmetic in the comments.
#include "engines/sglang/cell.h"

#include <gtest/gtest.h>

#include <string>

#include "base/units.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// memory_pool.py MHATokenToKVPool: SGLang allocates K and V for every one of
// the 80 layers, DeciLM's 31 no_op attention layers included, with the one
// KV head count (8; 2 a rank at TP 4): 80 x 2 x (128 + 128) x 2 bytes.
TEST(SglangCell, NemotronSuperCountsEveryLayer) {
  const ModelSpec m = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  SglangArgs a;
  a.tp = 4;
  const SglangCell c = SglangCellSize(SglangEraV0_5_3(), SglangVersionKey(0, 5, 3), m, a, nullptr);
  EXPECT_EQ(c.layers, 80);
  EXPECT_EQ(c.kv_heads_per_rank, 2);
  EXPECT_EQ(c.bytes, 80 * 2 * 256 * 2);
}

// model_config.py get_total_num_kv_heads: attention blocks with different KV
// head counts are refused in SGLang's words.
TEST(SglangCell, NemotronWithVariableKvHeadsIsRefusedInSglangsWords) {
  ModelSpec m = kvplan::testing::RealConfig("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
  m.layer_geometry[0].kv_heads = 16;  // block 0 with n_heads_in_group 4
  SglangArgs a;
  try {
    SglangCellSize(SglangEraV0_5_3(), SglangVersionKey(0, 5, 3), m, a, nullptr);
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Variable GQA (VGQA) is not yet supported"),
              std::string::npos)
        << e.what();
  }
}

// pool_configurator.py HybridSWAPoolConfigurator (#18039): at TP 4 a full layer
// holds 1 KV head x (192 + 128) x 2 = 640 B a token, a sliding layer 2 heads =
// 1280 B; divisor = 640 x 9 + 0.8 x 1280 x 39 = 45,696.
TEST(SglangCell, MimoV2FlashSizesEachKindWithItsOwnHeads) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  SglangArgs a;
  a.tp = 4;
  const SglangCell c =
      SglangCellSize(SglangEra2026Mid(), SglangVersionKey(0, 5, 15), m, a, nullptr);
  EXPECT_EQ(c.hybrid_mode, 2);
  EXPECT_EQ(c.per_layer_bytes, 640);
  EXPECT_EQ(c.swa_layer_bytes, 1280);
  EXPECT_EQ(c.n_full, 9);
  EXPECT_EQ(c.n_swa, 39);
  EXPECT_DOUBLE_EQ(c.hybrid_divisor, 640.0 * 9 + 0.8 * 1280 * 39);
}

// The pool of tests/data/real/sglang/pr18039_mimo_v2_flash_tp4_swa_pool.log (TP 4,
// main of 2026-01-31): full_layer_tokens=375360, swa_layer_tokens=300288, the
// sliding pool's "K size: 8.38 GB" = (300288 + 1) x 39 layers x 2 heads x 192 x 2 B
// / 2^30 = 8.376. Held at the log's token count, the pool is (375360 + 1) x 640 x 9
// + (300288 + 1) x 1280 x 39 = 17,152,506,240 B, each kind with its own heads.
TEST(SglangCell, MimoV2FlashPoolAtTheLoggedTokens) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  SglangArgs a;
  a.tp = 4;
  a.max_total_tokens = 375360;
  const GpuSpec gpu = testing::H200();
  const double free_gib = ToGiB(gpu.total_bytes);
  const PlanResult r = PlanSglang("main", m, gpu, a, testing::Measured(free_gib, free_gib));
  ASSERT_TRUE(r.ok) << r.error_message;
  const Figure* swa = r.FindFigure("swa_layer_tokens");
  ASSERT_NE(swa, nullptr);
  EXPECT_EQ(swa->value, 300288);
  EXPECT_NEAR(300289.0 * 39 * 2 * 192 * 2 / (1 << 30), 8.38, 0.005);
  int64_t kv = 0;
  for (const MemorySlice& s : r.memory) kv = s.label == "KV cache" ? s.bytes : kv;
  EXPECT_EQ(kv, int64_t{375361} * 640 * 9 + int64_t{300289} * 1280 * 39);
}

// tests/data/real/sglang/pr15464_mimo_v2_flash_tp4_swa_pool.log (TP 4, 2025-12-19):
// both pools hold 1,496,958 tokens; "SWAKVPool mem usage: 77.63 GB" = (1496958 + 1) x
// (9 x 640 + 39 x 1280) / 2^30 = 77.627; the full pool's "K size: 4.82 GB" =
// 1496959 x 9 x 1 x 192 x 2 / 2^30, the sliding pool's "K size: 41.76 GB" = 1496959 x 39
// x 2 x 192 x 2 / 2^30. Planned at the log's tokens with --swa-full-tokens-ratio 1.
TEST(SglangCell, MimoV2FlashPoolMatchesTheLoggedSwaPoolUsage) {
  const ModelSpec m = kvplan::testing::RealConfig("XiaomiMiMo--MiMo-V2-Flash.json");
  SglangArgs a;
  a.tp = 4;
  a.max_total_tokens = 1496958;
  a.swa_full_tokens_ratio = 1.0;
  const GpuSpec gpu = testing::H200();
  const double free_gib = ToGiB(gpu.total_bytes);
  const PlanResult r = PlanSglang("main", m, gpu, a, testing::Measured(free_gib, free_gib));
  ASSERT_TRUE(r.ok) << r.error_message;
  int64_t kv = 0;
  for (const MemorySlice& s : r.memory) kv = s.label == "KV cache" ? s.bytes : kv;
  EXPECT_NEAR(static_cast<double>(kv) / (1 << 30), 77.63, 0.005);
  const Figure* k = r.FindFigure("k_size_gib");  // the full pool's line
  ASSERT_NE(k, nullptr);
  EXPECT_NEAR(k->value, 4.82, 0.005);
}

}  // namespace
}  // namespace kvplan
