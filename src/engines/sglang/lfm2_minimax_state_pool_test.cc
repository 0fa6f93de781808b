// SGLang's state pool for LFM2's short convolutions (configs/lfm2.py mamba2_cache_params,
// #16890: a Mamba2StateShape with state_size 0, so a conv window only), and the releases that
// serve LFM2 and MiniMax (none for MiniMax). Expected values are hand arithmetic.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "engines/sglang/sglang.h"
#include "testing/plan_figures.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using kvplan::testing::Measured;

const ModelSpec& Lfm2() {
  static const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/LiquidAI--LFM2-1.2B.json"));
  return m;
}

SglangArgs Fraction08() {
  SglangArgs a;
  a.mem_fraction_static = 0.8;
  return a;
}

// LFM2-1.2B on one H100 under 0.5.9, measured 78 / 75 GiB, fraction 0.8: rest_memory =
// 75 - 78 x 0.2 = 59.4 GiB. One request's state: 10 conv layers x 2048 x 2 x 2 B (bf16) =
// 81,920 B; the pool takes 0.9 / 1.9 of rest_memory: int(59.4 x 0.9 / 1.9 x 2^30 // 81,920) =
// 368,795 slots (30,211,686,400 B). The cell: 6 full layers x 8 KV heads x (64 + 64) x 2 B =
// 12,288 B, so the KV cache gets int((59.4 - 30,211,686,400 / 2^30) x 2^30) // 12,288 =
// 2,731,817 tokens.
TEST(SglangLfm2Minimax, Lfm2ConvStatePool) {
  PlanResult r = PlanSglang("0.5.9", Lfm2(), FindGpu("h100"), Fraction08(), Measured(78, 75));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 81920);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 368795);
  EXPECT_EQ(r.cell_size_bytes, 12288);
  EXPECT_EQ(r.max_total_num_tokens, 2731817);
}

// models/lfm2.py arrived with #16890 (2026-01-22): 0.5.6.post2 refuses it in the registry's
// words; no release has a MiniMax-Text-01 / M1 model file.
TEST(SglangLfm2Minimax, RegistryRefusals) {
  PlanResult early =
      PlanSglang("0.5.6.post2", Lfm2(), FindGpu("h100"), Fraction08(), Measured(78, 75));
  EXPECT_FALSE(early.ok);
  EXPECT_NE(early.error_message.find("['Lfm2ForCausalLM'] are not supported for now. (kvplan: "
                                     "SGLang 0.5.6.post2 does not serve it; it was added in 0.5.8"),
            std::string::npos)
      << early.error_message;
  const ModelSpec m1 =
      LoadModel(kvplan::testing::RealData("configs/MiniMaxAI--MiniMax-M1.github.json"));
  SglangArgs a = Fraction08();
  a.tp = 8;
  PlanResult none = PlanSglang("main", m1, FindGpu("h200"), a, Measured(139, 30));
  EXPECT_FALSE(none.ok);
  EXPECT_NE(none.error_message.find("['MiniMaxM1ForCausalLM'] are not supported for now. "
                                    "(kvplan: SGLang main does not serve it, nor does any release"),
            std::string::npos)
      << none.error_message;
}

}  // namespace
}  // namespace kvplan
