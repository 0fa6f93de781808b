// SGLang's cell size on models whose layers have their own KV geometry, each
// on its real config (tests/data/real/configs/SOURCES.md), against hand
// arithmetic in the comments.
#include "engines/sglang/cell.h"

#include <gtest/gtest.h>

#include <string>

#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ModelSpec Real(const std::string& file) { return LoadModel(testing::RealData("configs/" + file)); }

// memory_pool.py MHATokenToKVPool: SGLang allocates K and V for every one of
// the 80 layers, DeciLM's 31 no_op attention layers included, with the one
// KV head count (8; 2 a rank at TP 4): 80 x 2 x (128 + 128) x 2 bytes.
TEST(SglangCell, NemotronSuperCountsEveryLayer) {
  const ModelSpec m = Real("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
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
  ModelSpec m = Real("nvidia--Llama-3_3-Nemotron-Super-49B-v1.json");
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
  const ModelSpec m = Real("XiaomiMiMo--MiMo-V2-Flash.json");
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

}  // namespace
}  // namespace kvplan
