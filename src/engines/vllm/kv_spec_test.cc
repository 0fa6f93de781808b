// Page sizes, groups and per-request memory against hand arithmetic.
#include "engines/vllm/kv_spec.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

TEST(VllmKvSpec, DenseGqaPageAndBlocks) {
  VllmKvOptions o;
  VllmKvSpec s = BuildVllmKvSpec(testing::Llama31_8B(), o);
  EXPECT_EQ(s.page_bytes, 16 * 2 * 8 * 128 * 2);  // 65,536 per layer per block
  EXPECT_EQ(s.num_groups, 1);
  EXPECT_EQ(s.BytesPerTokenAllLayers(), 131072);
  // get_num_blocks: available // page // layers.
  EXPECT_EQ(VllmNumBlocks(s, 10 * int64_t{1} << 30), (int64_t{10} << 30) / 65536 / 32);
  EXPECT_EQ(VllmNumBlocks(s, -5), 0);
}

TEST(VllmKvSpec, KvHeadsReplicatedWhenTpExceedsThem) {
  VllmKvOptions o;
  o.tp = 8;  // 4 KV heads: max(1, 4 // 8) = 1 head per rank, as at tp 4
  VllmKvSpec s8 = BuildVllmKvSpec(testing::Qwen3_235B_FP8(), o);
  o.tp = 4;
  VllmKvSpec s4 = BuildVllmKvSpec(testing::Qwen3_235B_FP8(), o);
  EXPECT_EQ(s8.BytesPerTokenAllLayers(), 48128);
  EXPECT_EQ(s4.BytesPerTokenAllLayers(), 48128);
}

TEST(VllmKvSpec, Fp8HalvesThePage) {
  VllmKvOptions o;
  o.kv_cache_dtype = "fp8_e4m3";
  EXPECT_EQ(BuildVllmKvSpec(testing::Llama31_8B(), o).BytesPerTokenAllLayers(), 65536);
}

TEST(VllmKvSpec, MlaLatentNotSplitByTp) {
  VllmKvOptions o;
  o.tp = 8;
  ModelSpec v3 = testing::DeepSeekMla("deepseek-v3", 61, 163840);
  EXPECT_EQ(BuildVllmKvSpec(v3, o).BytesPerTokenAllLayers(), 61 * 576 * 2);  // 70,272
  o.kv_cache_dtype = "fp8";
  EXPECT_EQ(BuildVllmKvSpec(v3, o).BytesPerTokenAllLayers(), 35136);
  o.kv_cache_dtype = "fp8_ds_mla";
  EXPECT_EQ(BuildVllmKvSpec(v3, o).BytesPerTokenAllLayers(), 61 * 656);
  EXPECT_THROW(BuildVllmKvSpec(testing::Llama31_8B(), o), InputError);
}

TEST(VllmKvSpec, GptOssTwoGroupsNoPadding) {
  VllmKvSpec s = BuildVllmKvSpec(testing::GptOss120B(), VllmKvOptions{});
  EXPECT_TRUE(s.hybrid);
  EXPECT_EQ(s.group_size, 18);
  EXPECT_EQ(s.num_groups, 2);
  EXPECT_EQ(s.padding_layers, 0);
  // blocks = available // page // group_size.
  EXPECT_EQ(VllmNumBlocks(s, int64_t{1} << 30), (int64_t{1} << 30) / (16 * 2048) / 18);
}

TEST(VllmKvSpec, Gemma3PaddingLayers) {
  // 52 sliding + 10 full: group_size 10 (52 >= 1.5 * 10), 6 sliding groups
  // (8 padding layers: "may waste at most 15.38%") + 1 full group.
  VllmKvSpec s = BuildVllmKvSpec(testing::Gemma3_27B(), VllmKvOptions{});
  EXPECT_EQ(s.group_size, 10);
  EXPECT_EQ(s.num_groups, 7);
  EXPECT_EQ(s.padding_layers, 8);
  ASSERT_EQ(s.padding_by_kind.size(), 1u);
  EXPECT_NEAR(100.0 * s.padding_by_kind[0].first / s.padding_by_kind[0].second, 15.38, 0.005);
}

TEST(VllmKvSpec, DisabledHybridManagerMakesEveryLayerFull) {
  VllmKvOptions o;
  o.hybrid_allocator = false;
  VllmKvSpec s = BuildVllmKvSpec(testing::GptOss120B(), o);
  EXPECT_FALSE(s.hybrid);
  EXPECT_EQ(VllmNeededMemory(s, 131072, 1024), int64_t{36} * 131072 * 2048);
}

TEST(VllmKvSpec, SlidingWindowMemoryIsBounded) {
  VllmKvSpec s = BuildVllmKvSpec(testing::GptOss120B(), VllmKvOptions{});
  const VllmKvLayer& sliding = s.layers[0];
  ASSERT_EQ(sliding.kind, LayerKind::kSliding);
  // (cdiv(min(128 - 1 + 1024, 131072), 16) + 1) * 16 * 2048 = 73 blocks.
  EXPECT_EQ(VllmLayerMaxMemory(s, sliding, 131072, 1024), 73 * 16 * 2048);
  EXPECT_EQ(VllmLayerMaxMemory(s, sliding, 1000000, 1024), 73 * 16 * 2048);
}

TEST(VllmKvSpec, EstimateMaxModelLenIsLargestFittingMultipleOfBlock) {
  VllmKvSpec s = BuildVllmKvSpec(testing::Llama31_8B(), VllmKvOptions{});
  int64_t avail = 1000 * 16 * int64_t{131072} + 5;
  EXPECT_EQ(VllmEstimateMaxModelLen(s, avail, 131072, 2048), 16000);
  EXPECT_EQ(VllmEstimateMaxModelLen(s, 10, 131072, 2048), 0);
}

TEST(VllmKvSpec, GroupConcurrencyUsesWholeBlocks) {
  VllmKvSpec s = BuildVllmKvSpec(testing::Llama31_8B(), VllmKvOptions{});
  // 1000 blocks / cdiv(1000, 16) = 1000 / 63.
  EXPECT_DOUBLE_EQ(VllmGroupConcurrency(s, 1000, 1000, 2048), 1000.0 / 63);
}

TEST(VllmKvSpec, PipelineStageHoldsItsLayers) {
  VllmKvOptions o;
  o.pp = 2;
  EXPECT_EQ(BuildVllmKvSpec(testing::Llama31_8B(), o).layers.size(), 16u);
  o.pp = 3;  // 32 layers over 3 stages: the largest stage holds 11
  EXPECT_EQ(BuildVllmKvSpec(testing::Llama31_8B(), o).layers.size(), 11u);
}

}  // namespace
}  // namespace kvplan
