#include "perf/model_geometry.h"

#include <cmath>

#include <gtest/gtest.h>

#include "catalog/model_loader.h"
#include "perf/reference_hardware.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

TEST(ExpectedExperts, HandArithmetic) {
  // One token touches exactly top-k experts.
  EXPECT_NEAR(ExpectedExpertsTouched(256, 8, 1), 8.0, 1e-9);
  // 4 tokens, 256 experts, top-8: 256 (1 - (31/32)^4) = 30.53.
  EXPECT_NEAR(ExpectedExpertsTouched(256, 8, 4), 256 * (1 - std::pow(31.0 / 32, 4)), 1e-9);
  EXPECT_NEAR(ExpectedExpertsTouched(256, 8, 4), 30.53, 0.01);
  EXPECT_EQ(ExpectedExpertsTouched(0, 0, 100), 0);
}

TEST(ExpectedExperts, MonotoneAndBounded) {
  double prev = 0;
  for (double t = 1; t < 5000; t *= 1.5) {
    const double e = ExpectedExpertsTouched(128, 8, t);
    EXPECT_GE(e, prev);
    EXPECT_LE(e, 128);
    prev = e;
  }
  EXPECT_NEAR(prev, 128, 1e-6);
}

// DeepSeek-V3 reports 37B activated parameters per token (arXiv 2412.19437);
// kvplan's count of what each token reads, plus the embedding and LM head.
TEST(ModelGeometry, DeepSeekV3ActiveParameters) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("deepseek-v3"));
  EXPECT_EQ(g.layers, 61);
  EXPECT_EQ(g.moe_layers, 58);
  EXPECT_TRUE(g.mla);
  EXPECT_EQ(g.kv_elems_per_token, 576);  // kv_lora_rank 512 + rope 64
  const double active = g.ActiveParamsPerToken() + 2 * g.embed_params;
  EXPECT_NEAR(active / 1e9, 37.0, 37.0 * 0.05);
  // FP8 weights plus one float32 scale per 128x128 block, in every linear part.
  const double fp8_block = 1.0 + 4.0 / (128 * 128);
  EXPECT_DOUBLE_EQ(g.weight_bytes_per_param, fp8_block);
  EXPECT_DOUBLE_EQ(g.attn_bytes_per_param, fp8_block);
  EXPECT_DOUBLE_EQ(g.shared_bytes_per_param, fp8_block);
  EXPECT_EQ(g.attn_qk_dim, 576);
}

// The trap of reading one dtype for every layer: gpt-oss stores only its
// experts in MXFP4 (4-bit values + one 8-bit scale per 32) and keeps
// attention in bf16 (data/models/openai--gpt-oss-120b.json).
TEST(ModelGeometry, GptOssKeepsAttentionInBf16) {
  const ModelGeometry g = MakeGeometry(LoadModel("openai/gpt-oss-120b"));
  EXPECT_DOUBLE_EQ(g.attn_bytes_per_param, 2.0);
  EXPECT_NEAR(g.expert_bytes_per_param, 0.5 + 1.0 / 32, 1e-3);
  EXPECT_TRUE(g.fp4_compute);
}

// Llama-3.1-8B has 8.03B parameters (model card).
TEST(ModelGeometry, Llama8BParameters) {
  const ModelGeometry g = MakeGeometry(ReferenceModel("llama-3.1-8b"));
  const double total = g.ActiveParamsPerToken() + 2 * g.embed_params;
  EXPECT_NEAR(total / 1e9, 8.03, 0.05);
  EXPECT_EQ(g.kv_elems_per_token, 2 * 8 * 128);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

// Nemotron-3-Nano's hybrid_override_pattern (its real config.json) has 23 Mamba2 blocks (M),
// 6 attention blocks (*) and 23 expert blocks (E), each E folded into the mixer before it:
// 29 layers of which 23 carry an MLP, so 6 have neither an MLP's GEMMs nor its all-reduce.
TEST(ModelGeometry, LayersWithoutAnMlpAreCountedFromTheConfig) {
  const ModelGeometry nano = MakeGeometry(
      LoadModel(testing::RealData("configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json")));
  EXPECT_EQ(nano.layers, 29);
  EXPECT_EQ(nano.layers - nano.mlp_less_layers, 23);
  // Falcon-H1 (synthetic): each decoder layer is an attention half with the MLP and a
  // Mamba2 half without one.
  const ModelGeometry falcon =
      MakeGeometry(LoadModel(testing::SyntheticData("hybrid/falcon-h1-7b-synthetic.json")));
  EXPECT_EQ(falcon.layers, 2 * falcon.mlp_less_layers);
  EXPECT_GT(falcon.mlp_less_layers, 0);
}

}  // namespace
}  // namespace kvplan
