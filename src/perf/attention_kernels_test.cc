#include "perf/attention_kernels.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"

namespace kvplan {
namespace {

// server_args.py @v0.5.14 _get_default_attn_backend: MLA gets fa3 on Hopper,
// trtllm_mla on SM100 and Triton elsewhere; GQA models never the Triton kernel.
TEST(SglangExtendAttention, TritonOnlyForMlaOffHopperAndSm100) {
  EXPECT_EQ(SglangExtendAttention(120, true, ""), ExtendAttention::kTritonPerHead);
  EXPECT_EQ(SglangExtendAttention(89, true, ""), ExtendAttention::kTritonPerHead);
  EXPECT_EQ(SglangExtendAttention(90, true, ""), ExtendAttention::kSplitKv);
  EXPECT_EQ(SglangExtendAttention(100, true, ""), ExtendAttention::kSplitKv);
  EXPECT_EQ(SglangExtendAttention(120, false, ""), ExtendAttention::kSplitKv);
  // The user's --attention-backend wins.
  EXPECT_EQ(SglangExtendAttention(90, false, "triton"), ExtendAttention::kTritonPerHead);
  EXPECT_EQ(SglangExtendAttention(120, true, "flashinfer"), ExtendAttention::kSplitKv);
  EXPECT_THROW(SglangExtendAttention(120, true, "trition"), InputError);
}

TEST(CheckSglangAttentionBackend, AcceptsSglangsChoicesOnly) {
  EXPECT_NO_THROW(CheckSglangAttentionBackend(""));
  EXPECT_NO_THROW(CheckSglangAttentionBackend("flashinfer"));
  EXPECT_NO_THROW(CheckSglangAttentionBackend("triton"));
  EXPECT_THROW(CheckSglangAttentionBackend("Triton"), InputError);  // SGLang's choices are exact
  EXPECT_THROW(CheckSglangAttentionBackend("fast"), InputError);
}

// extend_attention.py _get_block_sizes_for_extend_attention.
TEST(TritonExtendBlockM, FollowsTheKernelTable) {
  EXPECT_EQ(TritonExtendBlockM(120, 576), 32);  // MLA on SM120 (capability >= 9)
  EXPECT_EQ(TritonExtendBlockM(90, 128), 128);
  EXPECT_EQ(TritonExtendBlockM(89, 576), 32);
  EXPECT_EQ(TritonExtendBlockM(89, 128), 64);  // 100 KB shared memory
  EXPECT_EQ(TritonExtendBlockM(80, 128), 128);
  EXPECT_EQ(TritonExtendBlockM(80, 192), 64);
  EXPECT_EQ(TritonExtendBlockM(75, 128), 64);
}

}  // namespace
}  // namespace kvplan
