// vLLM's CUDA-graph capture sizes from first principles (the pattern and
// flags of vllm/config/vllm.py _set_cudagraph_sizes and config/compilation.py),
// and a decode batch timed as the padded graph it replays.
#include "simulate/vllm_graphs.h"

#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "simulate/batch_step_time.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

std::vector<int> SizesOf(const std::vector<std::string>& args, int64_t seqs = 256,
                         int64_t tokens = 8192, bool eager = false) {
  return VllmLaunchCaptureSizes(VllmGraphSizingOf(args, seqs, tokens, eager));
}

TEST(VllmGraphsTest, TheDefaultPatternStopsAtTwiceMaxNumSeqsAnd512AndTheTokenBudget) {
  // [1, 2, 4] + range(8, 256, 8) (31) + range(256, 513, 16) (17) = 51 sizes.
  const std::vector<int> all = SizesOf({});
  EXPECT_EQ(all.size(), 51u);
  EXPECT_EQ(all.back(), 512);
  EXPECT_EQ(all[3], 8);
  EXPECT_EQ(SizesOf({}, 128).back(), 256);
  EXPECT_EQ(SizesOf({}, 8).back(), 16);
  // max_num_batched_tokens 100 caps it: 1, 2, 4, 8, ..., 96.
  EXPECT_EQ(SizesOf({}, 256, 100).back(), 96);
  EXPECT_TRUE(SizesOf({}, 256, 8192, true).empty());
}

TEST(VllmGraphsTest, EachReleasesFlagsSetTheSizes) {
  // 0.10-0.11 --cuda-graph-sizes: one value is the largest size, several the list.
  EXPECT_EQ(SizesOf({"--cuda-graph-sizes", "64"}).size(), 3u + 8u);
  EXPECT_EQ(SizesOf({"--cuda-graph-sizes", "1", "2", "128", "--max-num-seqs", "64"}),
            (std::vector<int>{1, 2, 128}));
  // 0.14+: the list deduplicated and sorted; the largest size.
  EXPECT_EQ(SizesOf({"--cudagraph-capture-sizes", "16,8,8", "4"}), (std::vector<int>{4, 8, 16}));
  EXPECT_EQ(SizesOf({"--max-cudagraph-capture-size=40"}).back(), 40);
  // --compilation-config: sizes past max_num_batched_tokens are not captured.
  EXPECT_EQ(
      SizesOf({"--compilation-config", R"({"cudagraph_capture_sizes": [1, 2, 300]})"}, 256, 256),
      (std::vector<int>{1, 2}));
  EXPECT_EQ(SizesOf({"--compilation-config", R"({"max_cudagraph_capture_size": 24})"}),
            (std::vector<int>{1, 2, 4, 8, 16, 24}));
  EXPECT_EQ(SizesOf({"--compilation-config", "3"}).back(), 512);  // -O3 spelled as a config
  EXPECT_TRUE(SizesOf({"--compilation-config", R"({"cudagraph_mode": "NONE"})"}).empty());
}

TEST(VllmGraphsTest, BadSizesAreOneLineErrors) {
  EXPECT_NE(testing::InputErrorOf([] {
              SizesOf({"--max-cudagraph-capture-size", "0"});
            }).find("--max-cudagraph-capture-size takes whole numbers from 1"),
            std::string::npos);
  EXPECT_NE(testing::InputErrorOf([] {
              SizesOf({"--cudagraph-capture-sizes", "8", "x"});
            }).find("got \"x\""),
            std::string::npos);
  EXPECT_NE(testing::InputErrorOf([] {
              SizesOf({"--compilation-config", "[1]"});
            }).find("expected a JSON object"),
            std::string::npos);
}

TEST(VllmGraphsTest, ADecodeBatchIsTimedAsTheNextCaptureSizesGraph) {
  PerfRequest req;
  req.model = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  req.gpu = FindGpu("h100");
  req.cuda_graph_max_bs = 256;
  BatchStepTimer t(req);
  t.UseCaptureSizes({1, 2, 4, 8, 16});
  EXPECT_EQ(t.largest_graphed_batch(), 16);
  const ModelGeometry geometry = MakeGeometry(req.model);  // the context points into it
  const StepContext ctx = MakeStepContext(geometry, req);
  // 13 requests of 1,032 tokens replay the graph of 16: 16 rows over the same KV.
  EXPECT_DOUBLE_EQ(t.StepUs({13, 13 * 1032, 0, 0, 0}),
                   ForwardTime(ctx, {16, 1, 1032.0 * 13 / 16, 16, true}).total_us);
  EXPECT_DOUBLE_EQ(t.StepUs({16, 16 * 1032, 0, 0, 0}),
                   ForwardTime(ctx, {16, 1, 1032, 16, true}).total_us);
  // 17 is past the largest graph: eager, unpadded.
  EXPECT_DOUBLE_EQ(t.StepUs({17, 17 * 1032, 0, 0, 0}),
                   ForwardTime(ctx, {17, 1, 1032, 17, false}).total_us);
  t.UseCaptureSizes({});
  EXPECT_DOUBLE_EQ(t.StepUs({4, 4 * 1032, 0, 0, 0}),
                   ForwardTime(ctx, {4, 1, 1032, 4, false}).total_us);
}

}  // namespace
}  // namespace kvplan
