// SGLang's DeepSeek DSA/NSA overrides by release (engines/sglang/dsa_overrides.h), against
// server_args.py's rows (each test cites the release) and the public logs of sgl-project/sglang
// PR #11309 (tests/data/real/sglang/pr11309_*.log, cases sglang-b200-dsv32-nsa-dpattn-pr11309-*).
#include "engines/sglang/dsa_overrides.h"

#include <gtest/gtest.h>

#include <string>

#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "testing/input_error.h"
#include "testing/sglang_test_models.h"

namespace kvplan {
namespace {

using namespace kvplan::testing;

bool DsaWarned(const PlanResult& r, const std::string& part) {
  for (const std::string& w : r.warnings) {
    if (w.find(part) != std::string::npos) return true;
  }
  return false;
}

const Setting* DsaSetting(const PlanResult& r, const std::string& flag) {
  for (const Setting& s : r.settings) {
    if (s.flag == flag) return &s;
  }
  return nullptr;
}

// server_args.py @v0.5.3 _handle_model_specific_adjustments, DeepseekV32ForCausalLM on CUDA:
// enable_dp_attention = True, dp_size = tp_size, mem_fraction_static = 0.8, fp8_e4m3 on SM100.
TEST(SglangDsaRows, V0_5_3ForcesDpEqualsTpTheFractionAndFp8) {
  const SglangDsaRow* row = SglangDsaRowFor(SglangVersionKey(0, 5, 3));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->dp, SglangDsaDp::kForcedTpSize);
  EXPECT_DOUBLE_EQ(row->mem_fraction_static, 0.8);
  EXPECT_EQ(row->kv, SglangDsaKv::kFp8OnSm100);
  EXPECT_FALSE(row->indexer_in_cell);
}

// server_args.py @v0.5.3.post1 (after #11309): no forced fraction, the indexer in the cell.
TEST(SglangDsaRows, V0_5_3Post1DropsTheFractionAndCountsTheIndexer) {
  const SglangDsaRow* row = SglangDsaRowFor(SglangVersionKey(0, 5, 3, 1));
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->dp, SglangDsaDp::kForcedTpSize);
  EXPECT_DOUBLE_EQ(row->mem_fraction_static, 0);
  EXPECT_EQ(row->kv, SglangDsaKv::kFp8OnSm100);
  EXPECT_TRUE(row->indexer_in_cell);
}

// server_args.py @v0.5.4.post2 .. v0.5.5: `if self.kv_cache_dtype == "auto"` guards the dtype.
TEST(SglangDsaRows, V0_5_4Post2To0_5_5ChangeTheKvDtypeOnlyWhenAuto) {
  for (int64_t key : {SglangVersionKey(0, 5, 4, 2), SglangVersionKey(0, 5, 5)}) {
    const SglangDsaRow* row = SglangDsaRowFor(key);
    ASSERT_NE(row, nullptr);
    EXPECT_EQ(row->dp, SglangDsaDp::kForcedTpSize);
    EXPECT_EQ(row->kv, SglangDsaKv::kByCapabilityIfAuto);
  }
}

// server_args.py @v0.5.6 .. v0.5.7: DP attention on, dp_size as typed; @v0.5.8: none.
TEST(SglangDsaRows, DpAsTypedFrom0_5_6AndNothingFrom0_5_8) {
  EXPECT_EQ(SglangDsaRowFor(SglangVersionKey(0, 5, 6))->dp, SglangDsaDp::kForcedAsTyped);
  EXPECT_EQ(SglangDsaRowFor(SglangVersionKey(0, 5, 7))->dp, SglangDsaDp::kForcedAsTyped);
  EXPECT_EQ(SglangDsaRowFor(SglangVersionKey(0, 5, 8))->dp, SglangDsaDp::kNone);
  EXPECT_EQ(SglangDsaRowFor(SglangVersionKey(0, 5, 999))->dp, SglangDsaDp::kNone);
  // Before 0.5.3 no release serves the model (catalog/engine_support.cc).
  EXPECT_EQ(SglangDsaRowFor(SglangVersionKey(0, 5, 2)), nullptr);
}

// Every row cites server_args.py at its own release, and the rows are in release order.
TEST(SglangDsaRows, EachRowCitesServerArgsInOrder) {
  int64_t last = 0;
  for (const SglangDsaRow& row : SglangDsaRows()) {
    EXPECT_NE(std::string(row.source).find("server_args.py @v"), std::string::npos);
    EXPECT_GT(row.first_key, last);
    last = row.first_key;
  }
}

// --dp 3 at 0.5.3: SGLang replaces it by tp_size 8 (it does not refuse); the plan has 8
// DP-attention ranks and says why. The same launch at 0.5.6 keeps dp 3 and hits
// _handle_data_parallelism's assert tp_size % dp_size == 0.
TEST(SglangDsaLaunch, ImpossibleDpIsOverriddenAt0_5_3AndRefusedAt0_5_6) {
  SglangArgs a;
  a.tp = 8;
  a.dp = 3;
  const PlanResult r = PlanSglang("0.5.3", DeepSeekV32(), B200(), a, Measured(176.0, 100.0));
  EXPECT_TRUE(r.dp_attention);
  EXPECT_EQ(r.kv_scope.pools, 8);
  EXPECT_TRUE(DsaWarned(r, "forces DP attention with --dp-size = --tp-size (typed 3)"));
  const std::string err =
      InputErrorOf([&] { PlanSglang("0.5.6", DeepSeekV32(), B200(), a, Measured(176.0, 100.0)); });
  EXPECT_NE(err.find("got tp 8 and dp 3"), std::string::npos) << err;
}

// 0.5.3 on B200: a typed --kv-cache-dtype fp8_e5m2 (0.5.3's parser offers auto, fp8_e5m2 and
// fp8_e4m3) and --mem-fraction-static 0.9 are replaced (fp8 NSA layout: 61 * 656 B, no indexer);
// at 0.5.6 a typed bfloat16 and 0.9 stay (bf16 latent 576 * 2 B plus the indexer's
// 128 + 128/128*4 B, per layer).
TEST(SglangDsaLaunch, TypedKvAndFractionForcedOnlyAt0_5_3) {
  SglangArgs a;
  a.tp = 8;
  a.kv_cache_dtype = "fp8_e5m2";
  a.mem_fraction_static = 0.9;
  const PlanResult old = PlanSglang("0.5.3", DeepSeekV32(), B200(), a, Measured(176.0, 100.0));
  EXPECT_EQ(old.cell_size_bytes, 61 * 656);
  EXPECT_DOUBLE_EQ(old.fraction, 0.8);
  EXPECT_FALSE(old.fraction_user);
  EXPECT_TRUE(DsaWarned(old, "forces --kv-cache-dtype fp8_e4m3 on SM100 (typed fp8_e5m2)"));
  const Setting* mfs = DsaSetting(old, "--mem-fraction-static");
  ASSERT_NE(mfs, nullptr);
  EXPECT_NE(mfs->rule.find("DeepSeek DSA/NSA forces 0.8"), std::string::npos) << mfs->rule;
  a.kv_cache_dtype = "bfloat16";
  const PlanResult later = PlanSglang("0.5.6", DeepSeekV32(), B200(), a, Measured(176.0, 100.0));
  EXPECT_EQ(later.cell_size_bytes, 61 * (576 * 2 + 132));
  EXPECT_DOUBLE_EQ(later.fraction, 0.9);
}

// 0.5.6 turns DP attention on with the typed dp; dp 1 (the default) is turned off again by
// _handle_data_parallelism; from 0.5.8 the typed layout stands.
TEST(SglangDsaLaunch, DpAttentionAsTypedFrom0_5_6) {
  SglangArgs a;
  a.tp = 8;
  a.dp = 4;
  const PlanResult r = PlanSglang("0.5.6", DeepSeekV32(), H200(), a, Measured(139.0, 60.0));
  EXPECT_TRUE(r.dp_attention);
  EXPECT_EQ(r.kv_scope.pools, 4);
  a.dp = 1;
  EXPECT_FALSE(PlanSglang("0.5.6", DeepSeekV32(), H200(), a, Measured(139.0, 60.0)).dp_attention);
  a.dp = 4;
  EXPECT_FALSE(PlanSglang("0.5.8", DeepSeekV32(), H200(), a, Measured(139.0, 60.0)).dp_attention);
}

}  // namespace
}  // namespace kvplan
