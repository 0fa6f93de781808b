// DeepSeek-V4 on its real configs (tests/data/real/configs/SOURCES.md): the parse of the
// compressed-attention layout, and the parameter count, hand-computed term by term from the
// model code's shapes (vLLM model_executor/models/deepseek_v4.py, layers/deepseek_v4_attention.py,
// layers/deepseek_compressor.py) and compared with the published totals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// The shapes of one DeepSeek-V4 config, for the hand count.
struct V4Shape {
  const char* file;
  int64_t hidden, layers, heads, q_lora, o_lora, groups, experts, inter, c4, c128, vocab;
  int64_t hand_total;  // the sum below, written out
  double published;
  double tolerance;  // of the published figure: 1 %, or half its last significant digit
};

// Per layer: attention wq_a + wkv (H x (q + 512)), q/kv norms, wq_b (q x heads*512), wo_a
// (heads*512/g x g*o), wo_b (g*o x H), sinks (heads); c4 layers add a compressor
// (H x 2*2*512, ape 4 x 1024, norm 512) and an indexer (wq_b q x 64*128, weights_proj
// H x 64, k_norm 256, its compressor H x 512, ape 4 x 256, norm 128); c128 layers a compressor
// (H x 2*512, ape 128 x 512, norm 512). MoE: 3 x H x I per expert and for the shared one,
// the gate E x H, a float32 e_score bias E (a 129,280 x 6 hash table on the first three
// layers instead); 2 norms; hyper-connections 2 x (24 x 4H + 24 + 3). Once: embedding and
// lm_head V x H, the final norm H, hc_head 4 x 4H + 4 + 1. The MTP layer is not counted.
int64_t HandCount(const V4Shape& s) {
  const int64_t h = s.hidden, q = s.q_lora, d = 512, n = s.heads, g = s.groups, o = s.o_lora;
  const int64_t attention = h * (q + d) + q + d + q * n * d + (n * d / g) * (g * o) + g * o * h + n;
  const int64_t c4 = 2 * 2 * d * h + 4 * 2 * d + d + q * 64 * 128 + h * 64 + 2 * 128 +
                     2 * 2 * 128 * h + 4 * 2 * 128 + 128;
  const int64_t c128 = 2 * d * h + 128 * d + d;
  const int64_t moe = (s.experts + 1) * 3 * h * s.inter + s.experts * h;
  const int64_t routing = 3 * s.vocab * 6 + (s.layers - 3) * s.experts;
  const int64_t hc = 2 * (24 * 4 * h + 24 + 3);
  return s.layers * (attention + moe + 2 * h + hc) + s.c4 * c4 + s.c128 * c128 + routing +
         2 * s.vocab * h + h + (4 * 4 * h + 4 + 1);
}

// Flash: 284B total (model card). Pro: "1.6T", two significant figures, so within 0.05T.
const V4Shape kShapes[] = {
    {"deepseek-ai--DeepSeek-V4-Flash.json", 4096, 43, 64, 1024, 1024, 8, 256, 2048, 21, 20, 129280,
     284334572887, 284e9, 0.01},
    {"deepseek-ai--DeepSeek-V4-Pro.json", 7168, 61, 128, 1536, 1024, 16, 384, 3072, 30, 31, 129280,
     1572999536483, 1.6e12, 0.05 / 1.6},
};

TEST(DeepseekV4, ParameterCountIsTheHandCountAndThePublishedTotal) {
  for (const V4Shape& s : kShapes) {
    const ModelSpec m = kvplan::testing::RealConfig(s.file);
    EXPECT_EQ(HandCount(s), s.hand_total) << s.file;
    const int64_t params = EstimateWeights(m, {}).total_params;
    EXPECT_EQ(params, s.hand_total) << s.file;
    EXPECT_LT(std::fabs(static_cast<double>(params) - s.published) / s.published, s.tolerance)
        << s.file;
  }
}

TEST(DeepseekV4, ParsesTheCompressedLayout) {
  const ModelSpec m = kvplan::testing::RealConfig("deepseek-ai--DeepSeek-V4-Flash.json");
  EXPECT_EQ(m.family, "deepseek_v4");
  EXPECT_EQ(m.attention, AttentionKind::kMla);
  // The config lists 44 ratios: 43 layers and the MTP layer's trailing 0.
  ASSERT_EQ(m.compress_ratios.size(), 43u);
  EXPECT_EQ(m.compress_ratios[0], 0);
  EXPECT_EQ(m.compress_ratios[2], 4);
  EXPECT_EQ(m.compress_ratios[3], 128);
  EXPECT_EQ(m.compress_ratios[42], 4);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 2);  // the window alone
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.kv_lora_rank + m.qk_rope_head_dim, 512);  // one 512-wide latent, 64 rotary
  EXPECT_EQ(m.qk_nope_head_dim, 448);
  EXPECT_EQ(m.qk_rope_head_dim, 64);
  EXPECT_EQ(m.o_groups, 8);
  EXPECT_EQ(m.hc_mult, 4);
  EXPECT_EQ(m.num_hash_layers, 3);
  EXPECT_EQ(m.expert_dtype, "fp4");
  EXPECT_EQ(m.index_head_dim, 128);
  EXPECT_EQ(m.num_experts, 256);
  EXPECT_EQ(m.num_shared_experts, 1);
  EXPECT_EQ(m.NumMoeLayers(), 43);  // no dense prefix
  EXPECT_EQ(m.num_nextn_predict_layers, 1);
}

// The routed experts are MXFP4 (expert_dtype "fp4"): half a byte per weight and a one-byte
// scale per 32; Flash: 43 x 256 x 3 x 4096 x 2048 = 277,025,390,592 weights.
TEST(DeepseekV4, ExpertsAreStoredAsMxfp4) {
  const ModelSpec m = kvplan::testing::RealConfig("deepseek-ai--DeepSeek-V4-Flash.json");
  const WeightEstimate w = EstimateWeights(m, {});
  const int64_t weights = int64_t{43} * 256 * 3 * 4096 * 2048;
  int expert_parts = 0;
  for (const WeightPart& p : w.parts) {
    if (p.name != "experts") continue;
    ++expert_parts;
    EXPECT_EQ(p.params, weights);
    EXPECT_EQ(p.bytes, weights / 2 + weights / 32);
  }
  EXPECT_EQ(expert_parts, 1);  // the figures above were checked, not skipped
}

// Synthetic configs (cut from the Flash one): a ratio the kernels do not take, a list of the
// wrong length.
TEST(DeepseekV4, RefusesRatiosItCannotPlace) {
  const std::string base =
      R"({"architectures":["DeepseekV4ForCausalLM"],"hidden_size":4096,"num_hidden_layers":2,
      "num_attention_heads":64,"num_key_value_heads":1,"head_dim":512,"vocab_size":129280,
      "n_routed_experts":256,"num_experts_per_tok":6,"moe_intermediate_size":2048,
      "n_shared_experts":1,"q_lora_rank":1024,"o_lora_rank":1024,"o_groups":8,
      "qk_rope_head_dim":64,"hc_mult":4,"sliding_window":128,"index_head_dim":128,
      "index_n_heads":64,"num_hash_layers":1,)";
  EXPECT_EQ(testing::ModelConfigError(base + R"("compress_ratios":[0,4]})"), "");
  EXPECT_NE(testing::ModelConfigError(base + R"("compress_ratios":[0,8]})").find("not 0, 4 or 128"),
            std::string::npos);
  EXPECT_NE(
      testing::ModelConfigError(base + R"("compress_ratios":[0,4,4,4]})").find("has 4 entries"),
      std::string::npos);
  EXPECT_NE(testing::ModelConfigError(base + R"("expert_dtype":"int4","compress_ratios":[0,4]})")
                .find("int4"),
            std::string::npos);
}

}  // namespace
}  // namespace kvplan
