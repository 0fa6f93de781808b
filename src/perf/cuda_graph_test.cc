#include "perf/cuda_graph.h"

#include <cmath>

#include <gtest/gtest.h>

#include "base/units.h"
#include "perf/reference_hardware.h"

namespace kvplan {
namespace {

// Case sglang-l40s-llama31-8b-default-mfs-pr13023 logged cuda_graph_bs
// [1, 2, 4, 8, 12, 16, 24, 32] for cuda_graph_max_bs 32.
TEST(CudaGraph, SglangCaptureListL40sCase) {
  EXPECT_EQ(SglangCaptureBatchSizes(32, false), (std::vector<int>{1, 2, 4, 8, 12, 16, 24, 32}));
}

// Case sglang-b200-28layer-gqa-graphmem-pr11830 captured 52 graphs to bs 512.
TEST(CudaGraph, SglangCaptureListB200Case) {
  const std::vector<int> bs = SglangCaptureBatchSizes(512, false);
  EXPECT_EQ(bs.size(), 52u);
  EXPECT_EQ(bs.back(), 512);
}

TEST(CudaGraph, SpeculativeAndVllmLists) {
  const std::vector<int> spec = SglangCaptureBatchSizes(48, true);
  EXPECT_EQ(spec, (std::vector<int>{1,  2,  3,  4,  5,  6,  7,  8,  10, 12, 14, 16,
                                    18, 20, 22, 24, 26, 28, 30, 32, 40, 44, 48}));
  EXPECT_EQ(VllmCaptureSizes(16), (std::vector<int>{1, 2, 4, 8, 16, 24, 32}));
  // max_num_seqs 256 -> 512: 3 + 31 (8..248) + 17 (256..512 step 16).
  EXPECT_EQ(VllmCaptureSizes(256).size(), 51u);
  EXPECT_EQ(VllmCaptureSizes(256).back(), 512);
  EXPECT_TRUE(SglangCaptureBatchSizes(0, false).empty());
}

double GraphGiB(const char* model, int tp, double max_bs) {
  Parallelism par;
  par.tp = tp;
  return ToGiB(CudaGraphMemoryBytes(MakeGeometry(ReferenceModel(model)), par, max_bs));
}

// The fitted coefficients reproduce the two logs they came from and predict
// the third data point (sglang-memory.md section 5).
TEST(CudaGraph, MemoryAgainstLoggedCases) {
  EXPECT_NEAR(GraphGiB("qwen2.5-7b", 1, 512), 1.44, 1.44 * 0.05);     // PR #11830
  EXPECT_NEAR(GraphGiB("deepseek-v3", 8, 256), 6.245, 6.245 * 0.05);  // PR #5893
  // PR #5893: the bs <= 160 list uses "about 3 GB" less than bs <= 256.
  EXPECT_NEAR(GraphGiB("deepseek-v3", 8, 160), 6.245 - 3.0, 3.245 * 0.25);
}

TEST(CudaGraph, MemoryGrowsWithCaptureSize) {
  double prev = -1;
  for (int bs : {0, 8, 32, 128, 512}) {
    const double g = GraphGiB("llama-3.1-8b", 1, bs);
    EXPECT_GT(g, prev);
    prev = g;
  }
}

}  // namespace
}  // namespace kvplan
