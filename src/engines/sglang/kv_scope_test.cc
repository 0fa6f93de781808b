// What SGLang's max_total_num_tokens counts (issue 11 item 4): model_runner.py @v0.4.6
// profile_max_num_token sizes each rank's pool from its attention-TP share of the KV heads,
// the free memory taken as the minimum over ranks, so every rank of a TP x PP group holds
// the same count of tokens and the group serves that count once. With DP attention each
// attention-DP rank (tp / dp GPUs) has its own pool; without it each --dp replica does.
#include <gtest/gtest.h>

#include "engines/sglang/sglang.h"
#include "testing/kv_scope_expect.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

KvScope SglangScopeOf(std::vector<std::string> flags) {
  return PlanSglang("0.5.5", testing::Qwen3_30B_A3B(), testing::H200(), ParseSglangArgs(flags), {})
      .kv_scope;
}

TEST(SglangKvScope, OneGpuHoldsThePool) {
  EXPECT_TRUE(testing::ScopeIs(SglangScopeOf({}), KvScope::Kind::kGpu, 1, 1));
}

TEST(SglangKvScope, TensorAndPipelineRanksShareOnePool) {
  EXPECT_TRUE(testing::ScopeIs(SglangScopeOf({"--tp", "4", "--pp-size", "2"}),
                               KvScope::Kind::kReplica, 8, 1));
}

TEST(SglangKvScope, EachDataParallelReplicaHasItsOwnPool) {
  EXPECT_TRUE(
      testing::ScopeIs(SglangScopeOf({"--tp", "2", "--dp", "3"}), KvScope::Kind::kReplica, 2, 3));
}

TEST(SglangKvScope, EachAttentionDpRankHasItsOwnPool) {
  // two GPUs per rank: attention TP 8 / 4 ranks
  EXPECT_TRUE(testing::ScopeIs(SglangScopeOf({"--tp", "8", "--dp", "4", "--enable-dp-attention"}),
                               KvScope::Kind::kDpRank, 2, 4));
  EXPECT_TRUE(testing::ScopeIs(SglangScopeOf({"--tp", "4", "--dp", "4", "--enable-dp-attention"}),
                               KvScope::Kind::kGpu, 1, 4));
}

TEST(SglangKvScope, DpAttentionWithOneRankIsOneReplica) {
  // server_args.py turns DP attention off with dp_size 1: the TP group shares one pool.
  EXPECT_TRUE(testing::ScopeIs(SglangScopeOf({"--tp", "2", "--enable-dp-attention"}),
                               KvScope::Kind::kReplica, 2, 1));
}

}  // namespace
}  // namespace kvplan
