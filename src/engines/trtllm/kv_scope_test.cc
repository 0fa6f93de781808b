// What TensorRT-LLM's KV token count covers (issue 11 item 4): the KV cache manager of each
// rank holds its tp share of the heads of the same tokens, so a TP x PP group shares one
// count; with attention DP (_torch/pyexecutor/_util.py @d8ae02ca KvCacheCreator, attention
// TP 1) each TP rank holds whole heads for requests of its own.
#include <gtest/gtest.h>

#include "engines/trtllm/trtllm.h"
#include "testing/kv_scope_expect.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

KvScope TrtllmScopeOf(TrtllmArgs a) {
  TrtllmMeasured m = TrtllmMeasuredFromGiB({{"weights", 55}});
  return PlanTrtllm("1.0.0", testing::Qwen3_235B_FP8(), testing::H100(), a, m).kv_scope;
}

TEST(TrtllmKvScope, TheTensorParallelGroupSharesOneCount) {
  EXPECT_TRUE(testing::ScopeIs(TrtllmScopeOf(ParseTrtllmArgs({"m", "--tp_size", "4"})),
                               KvScope::Kind::kReplica, 4, 1));
}

TEST(TrtllmKvScope, AttentionDpGivesEveryRankItsOwnPool) {
  TrtllmArgs a = ParseTrtllmArgs({"m", "--tp_size", "4"});
  a.enable_attention_dp = true;
  EXPECT_TRUE(testing::ScopeIs(TrtllmScopeOf(a), KvScope::Kind::kGpu, 1, 4));
}

}  // namespace
}  // namespace kvplan
