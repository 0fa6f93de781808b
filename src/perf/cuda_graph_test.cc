#include "perf/cuda_graph.h"

#include <cmath>

#include <gtest/gtest.h>

#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "perf/perf_report.h"
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

// python/sglang/srt/model_executor/cuda_graph_runner.py can_run (SGLang v0.5): under DP
// attention the batch matched against the captured graphs is max(global_num_tokens), the
// largest DP rank's, not the TP group's. DeepSeek-V3 at TP 8 with DP 8, graphs to 32: a group
// of 64 (8 per rank) replays a graph, a group of 264 (33 on the largest rank) runs eagerly;
// without DP attention the 64 requests are one batch, above 32.
TEST(CudaGraph, DpAttentionMatchesTheLargestRanksBatch) {
  Parallelism dp8;
  dp8.tp = 8;
  dp8.dp = 8;
  dp8.dp_attention = true;
  EXPECT_TRUE(DecodeReplaysGraph(64, 32, dp8));
  EXPECT_TRUE(DecodeReplaysGraph(256, 32, dp8));
  EXPECT_FALSE(DecodeReplaysGraph(257, 32, dp8));  // round robin: one rank holds 33
  EXPECT_FALSE(DecodeReplaysGraph(1, 0, dp8));     // nothing captured
  Parallelism tp8;
  tp8.tp = 8;
  EXPECT_FALSE(DecodeReplaysGraph(64, 32, tp8));
  EXPECT_TRUE(DecodeReplaysGraph(32, 32, tp8));
}

// `kvplan perf`'s decode rows take the same rule: its batch is the TP group's.
TEST(CudaGraph, PerfRowsUnderDpAttentionAreGraphedByTheRanksBatch) {
  PerfRequest r;
  r.model = LoadModel("deepseek-ai/DeepSeek-V3");
  r.gpu = FindGpu("h200");
  r.par.tp = 8;
  r.par.dp = 8;
  r.par.dp_attention = true;
  r.cuda_graph_max_bs = 32;
  r.batch_sizes = {64, 264};
  r.prompt_lengths = {128};
  const PerfReport dp = RunPerf(r);
  ASSERT_EQ(dp.largest_graphed_batch, 32);
  ASSERT_EQ(dp.decode.size(), 2u);
  EXPECT_TRUE(dp.decode[0].cuda_graph);
  EXPECT_FALSE(dp.decode[1].cuda_graph);
  r.par.dp = 1;
  r.par.dp_attention = false;
  const PerfReport tp = RunPerf(r);
  EXPECT_FALSE(tp.decode[0].cuda_graph);
}

}  // namespace
}  // namespace kvplan
