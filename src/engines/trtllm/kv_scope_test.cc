// What TensorRT-LLM's KV token count covers (issue 11 item 4): the KV cache manager of each
// rank holds its tp share of the heads of the same tokens, so a TP x PP group shares one
// count; with attention DP (_torch/pyexecutor/_util.py @d8ae02ca KvCacheCreator, attention
// TP 1) each TP rank holds whole heads for requests of its own.
#include <gtest/gtest.h>

#include "engines/trtllm/trtllm.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

KvScope TrtllmScopeOf(TrtllmArgs a) {
  TrtllmMeasured m = TrtllmMeasuredFromGiB({{"weights", 55}});
  return PlanTrtllm("1.0.0", testing::Qwen3_235B_FP8(), testing::H100(), a, m).kv_scope;
}

TEST(TrtllmKvScope, TheTensorParallelGroupSharesOneCount) {
  KvScope s = TrtllmScopeOf(ParseTrtllmArgs({"m", "--tp_size", "4"}));
  EXPECT_EQ(s.kind, KvScope::Kind::kReplica);
  EXPECT_EQ(s.gpus, 4);
  EXPECT_EQ(s.pools, 1);
}

TEST(TrtllmKvScope, AttentionDpGivesEveryRankItsOwnPool) {
  TrtllmArgs a = ParseTrtllmArgs({"m", "--tp_size", "4"});
  a.enable_attention_dp = true;
  KvScope s = TrtllmScopeOf(a);
  EXPECT_EQ(s.kind, KvScope::Kind::kGpu);
  EXPECT_EQ(s.gpus, 1);
  EXPECT_EQ(s.pools, 4);
}

}  // namespace
}  // namespace kvplan
