// The fitted CUDA-graph memory against the two public measurements it was
// fitted to and hand arithmetic of the formula.
#include "engines/common/cuda_graph_memory.h"

#include <gtest/gtest.h>

#include "base/units.h"
#include "testing/sglang_test_models.h"

namespace kvplan {
namespace {

// Qwen/Qwen2.5-7B-Instruct config.json: 28 layers, hidden 3584, 28 heads, 4 KV heads.
ModelSpec Qwen25_7B() { return LoadModel("Qwen/Qwen2.5-7B-Instruct"); }

// Case sglang-b200-28layer-gqa-graphmem-pr11830: 52 decode graphs to bs 512
// logged "mem usage=1.44 GB". By hand: 512 x 28 x 3584 x 2 B x 15.05 =
// 1,546,544,742 B = 1.4403 GiB.
TEST(CudaGraphMemory, Qwen25_7B_Bs512_pr11830) {
  const int64_t bytes = FittedCudaGraphBytes(GraphShapeOf(Qwen25_7B(), 1), 512);
  EXPECT_NEAR(static_cast<double>(bytes), 1546544742.0, 1.0);
  EXPECT_NEAR(ToGiB(bytes), 1.44, 1.44 * 0.03);
}

// sglang PR #5893: DeepSeek-V3 on H200 TP8, graphs to bs 256 hold 6.22-6.27
// GB per rank. By hand: 256 x 61 x 7168 x 2 B x (15.05 + 1.86 x 8) =
// 6,700,458,311 B = 6.240 GiB. The fit has no TP term: the logged figure
// is already per rank at TP8.
TEST(CudaGraphMemory, DeepSeekV3Tp8Bs256_pr5893) {
  const int64_t bytes = FittedCudaGraphBytes(GraphShapeOf(testing::DeepSeekV3(), 1), 256);
  EXPECT_NEAR(static_cast<double>(bytes), 6700458311.0, 1.0);
  EXPECT_GE(ToGiB(bytes), 6.22 * 0.97);
  EXPECT_LE(ToGiB(bytes), 6.27 * 1.03);
}

// PP splits the layers: DeepSeek-V3's 61 layers over 2 stages put
// ceil(61 / 2) = 31 on the busiest rank.
TEST(CudaGraphMemory, PipelineStagesSplitLayers) {
  EXPECT_EQ(LayersPerPipelineRank(61, 2), 31);
  EXPECT_EQ(LayersPerPipelineRank(61, 1), 61);
  EXPECT_EQ(LayersPerPipelineRank(61, 0), 61);  // an unset pp is one stage
  const GraphMemoryShape s = GraphShapeOf(testing::DeepSeekV3(), 2);
  EXPECT_EQ(s.layers_per_rank, 31);
  EXPECT_DOUBLE_EQ(s.hidden, 7168);
  EXPECT_DOUBLE_EQ(s.top_k, 8);
}

// A dense model has no expert term even when a config carries a stray top-k.
TEST(CudaGraphMemory, DenseModelHasNoExpertTerm) {
  ModelSpec m = Qwen25_7B();
  m.experts_per_token = 8;  // num_experts stays 0: not MoE
  EXPECT_DOUBLE_EQ(GraphShapeOf(m, 1).top_k, 0);
}

// Disabled graphs hold nothing; more tokens never hold less (property).
TEST(CudaGraphMemory, ZeroTokensAndMonotonic) {
  const GraphMemoryShape s = GraphShapeOf(testing::Qwen3_30B_A3B(), 1);
  EXPECT_EQ(FittedCudaGraphBytes(s, 0), 0);
  EXPECT_EQ(FittedCudaGraphBytes(s, -4), 0);
  int64_t prev = 0;
  for (double tokens : {1.0, 8.0, 48.0, 160.0, 512.0, 2048.0}) {
    const int64_t b = FittedCudaGraphBytes(s, tokens);
    EXPECT_GT(b, prev) << tokens;
    prev = b;
  }
}

}  // namespace
}  // namespace kvplan
