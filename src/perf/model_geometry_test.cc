#include "perf/model_geometry.h"

#include <cmath>

#include <gtest/gtest.h>

#include "perf/reference_hardware.h"

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
  EXPECT_EQ(g.weight_bytes_per_param, 1.0);  // FP8 checkpoint
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
