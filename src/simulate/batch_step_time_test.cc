// The step time of a batch from the performance model: one kind of work is
// perf's own ForwardTime; a mixed step reads the weights once, so it costs
// more than either part alone and less than the two run one after the other.
#include "simulate/batch_step_time.h"

#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan {
namespace {

PerfRequest Request() {
  PerfRequest r;
  r.model = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  r.gpu = FindGpu("h100");
  r.cuda_graph_max_bs = 256;
  return r;
}

TEST(BatchStepTimeTest, ADecodeBatchIsPerfsForwardTime) {
  const PerfRequest req = Request();
  BatchStepTimer t(req);
  const ModelGeometry g = MakeGeometry(req.model);
  const StepContext ctx = MakeStepContext(g, req);
  // 16 requests at 1,032 tokens of context: the bucket 1,025-1,040 is timed at 1,032.
  const double perf = ForwardTime(ctx, {16, 1, 1032, 16, true}).total_us;
  EXPECT_DOUBLE_EQ(t.StepUs({16, 16 * 1032, 0, 0, 0}), perf);
  EXPECT_GE(t.largest_graphed_batch(), 16);
}

TEST(BatchStepTimeTest, AMixedStepCostsLessThanItsPartsInSeries) {
  BatchStepTimer t(Request());
  const BatchShape decode{32, 32 * 2000, 0, 0, 0};
  const BatchShape prefill{0, 0, 1, 2048, 0};
  const BatchShape mixed{32, 32 * 2000, 1, 2048, 0};
  const double d = t.StepUs(decode), p = t.StepUs(prefill), m = t.StepUs(mixed);
  EXPECT_GT(m, std::max(d, p));
  EXPECT_LT(m, d + p);
}

TEST(BatchStepTimeTest, LongerContextsAndMoreTokensTakeLonger) {
  BatchStepTimer t(Request());
  EXPECT_LT(t.StepUs({8, 8 * 512, 0, 0, 0}), t.StepUs({8, 8 * 8192, 0, 0, 0}));
  EXPECT_LT(t.StepUs({0, 0, 1, 1024, 0}), t.StepUs({0, 0, 1, 4096, 0}));
  // A chunk over a long cached prefix reads that prefix's KV.
  EXPECT_LT(t.StepUs({0, 0, 1, 2048, 0}), t.StepUs({0, 0, 1, 2048, 30000}));
}

}  // namespace
}  // namespace kvplan
