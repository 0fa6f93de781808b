// What SGLang's max_total_num_tokens counts (issue 11 item 4): model_runner.py @v0.4.6
// profile_max_num_token sizes each rank's pool from its attention-TP share of the KV heads,
// the free memory taken as the minimum over ranks, so every rank of a TP x PP group holds
// the same count of tokens and the group serves that count once. With DP attention each
// attention-DP rank (tp / dp GPUs) has its own pool; without it each --dp replica does.
#include <gtest/gtest.h>

#include "engines/sglang/sglang.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

KvScope SglangScopeOf(std::vector<std::string> flags) {
  return PlanSglang("0.5.5", testing::Qwen3_30B_A3B(), testing::H200(), ParseSglangArgs(flags), {})
      .kv_scope;
}

TEST(SglangKvScope, OneGpuHoldsThePool) {
  KvScope s = SglangScopeOf({});
  EXPECT_EQ(s.kind, KvScope::Kind::kGpu);
  EXPECT_EQ(s.gpus, 1);
  EXPECT_EQ(s.pools, 1);
}

TEST(SglangKvScope, TensorAndPipelineRanksShareOnePool) {
  KvScope s = SglangScopeOf({"--tp", "4", "--pp", "2"});
  EXPECT_EQ(s.kind, KvScope::Kind::kReplica);
  EXPECT_EQ(s.gpus, 8);
  EXPECT_EQ(s.pools, 1);
}

TEST(SglangKvScope, EachDataParallelReplicaHasItsOwnPool) {
  KvScope s = SglangScopeOf({"--tp", "2", "--dp", "3"});
  EXPECT_EQ(s.kind, KvScope::Kind::kReplica);
  EXPECT_EQ(s.gpus, 2);
  EXPECT_EQ(s.pools, 3);
}

TEST(SglangKvScope, EachAttentionDpRankHasItsOwnPool) {
  KvScope s = SglangScopeOf({"--tp", "8", "--dp", "4", "--enable-dp-attention"});
  EXPECT_EQ(s.kind, KvScope::Kind::kDpRank);
  EXPECT_EQ(s.gpus, 2);  // attention TP 8 / 4
  EXPECT_EQ(s.pools, 4);
  KvScope one = SglangScopeOf({"--tp", "4", "--dp", "4", "--enable-dp-attention"});
  EXPECT_EQ(one.kind, KvScope::Kind::kGpu);
  EXPECT_EQ(one.gpus, 1);
  EXPECT_EQ(one.pools, 4);
}

TEST(SglangKvScope, DpAttentionWithOneRankIsOneReplica) {
  // server_args.py turns DP attention off with dp_size 1: the TP group shares one pool.
  KvScope s = SglangScopeOf({"--tp", "2", "--enable-dp-attention"});
  EXPECT_EQ(s.kind, KvScope::Kind::kReplica);
  EXPECT_EQ(s.gpus, 2);
  EXPECT_EQ(s.pools, 1);
}

}  // namespace
}  // namespace kvplan
