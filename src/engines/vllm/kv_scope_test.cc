// What vLLM's "GPU KV cache size" counts (issue 11 item 4): v1/core/kv_cache_utils.py
// @v0.11.0 get_kv_cache_configs keeps one block table for all workers of an engine (the
// page of each worker's own KV heads, every worker's num_blocks set to the minimum), so
// the count is the TP x PP replica's, and each --data-parallel-size rank has its own.
#include <gtest/gtest.h>

#include "engines/vllm/vllm.h"
#include "testing/kv_scope_expect.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

KvScope VllmScopeOf(std::vector<std::string> flags) {
  return PlanVllm("0.11.0", testing::Qwen3_30B_A3B(), testing::H200(), ParseVllmArgs(flags), {})
      .kv_scope;
}

TEST(VllmKvScope, OneGpuHoldsThePool) {
  EXPECT_TRUE(testing::ScopeIs(VllmScopeOf({}), KvScope::Kind::kGpu, 1, 1));
}

TEST(VllmKvScope, TheReplicasWorkersShareOneCount) {
  EXPECT_TRUE(testing::ScopeIs(
      VllmScopeOf({"--tensor-parallel-size", "2", "--pipeline-parallel-size", "2"}),
      KvScope::Kind::kReplica, 4, 1));
}

TEST(VllmKvScope, EachDataParallelRankHasItsOwnCache) {
  EXPECT_TRUE(
      testing::ScopeIs(VllmScopeOf({"--tensor-parallel-size", "2", "--data-parallel-size", "4"}),
                       KvScope::Kind::kReplica, 2, 4));
}

TEST(VllmKvScope, ARefusedLaunchStillSaysWhoseCountItWas) {
  // Qwen3-30B-A3B has 4 KV heads and 32 query heads: TP 3 does not divide them.
  PlanResult r = PlanVllm("0.11.0", testing::Qwen3_30B_A3B(), testing::H200(),
                          ParseVllmArgs({"--tensor-parallel-size", "3"}), {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.kv_scope.kind, KvScope::Kind::kReplica);
  EXPECT_EQ(r.kv_scope.gpus, 3);
}

}  // namespace
}  // namespace kvplan
