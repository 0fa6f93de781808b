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

// Qwen3-Next at tp 2 with the 544-token block of engines/vllm/hybrid.h: 12 full
// attention layers of 1,024 B/token and 36 gated delta-net layers of one
// 557,056 B page each (the 548,864 B state padded): group_size 12, 1 full + 3
// state groups (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size).
TEST(VllmKvSpec, Qwen3NextStateLayersShareThePool) {
  VllmKvOptions o;
  o.tp = 2;
  o.block_size = 544;
  o.mamba_page_bytes = 544 * 1024;
  VllmKvSpec s = BuildVllmKvSpec(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), o);
  EXPECT_TRUE(s.hybrid);
  EXPECT_EQ(s.NumLayers(LayerKind::kFull), 12);
  EXPECT_EQ(s.NumLayers(LayerKind::kLinear), 36);
  EXPECT_EQ(s.StateBytes(), 557056);
  EXPECT_EQ(s.group_size, 12);
  EXPECT_EQ(s.num_groups, 4);
  EXPECT_EQ(s.padding_layers, 0);
  EXPECT_EQ(s.page_bytes, 557056);
  EXPECT_EQ(s.BytesPerTokenAllLayers(), 12 * 1024);  // the state is not per token
  // 47,878,721,024 B // 557,056 // 12 = 7,162 blocks.
  EXPECT_EQ(VllmNumBlocks(s, 47878721024), 7162);
  // One request of 262,144 tokens: cdiv(262144, 544) = 482 full blocks + one block per
  // state group = 485.
  EXPECT_DOUBLE_EQ(VllmGroupConcurrency(s, 7162, 262144, 8192), 7162.0 / 485);
  // The start-up check sums every layer: 12 x 482 pages + 36 state pages.
  EXPECT_EQ(VllmNeededMemory(s, 262144, 8192), (12 * 482 + 36) * int64_t{557056});
  // From 0.15.0 a state layer holds one page per speculative token more (here 2).
  o.mamba_pages_per_request = 3;
  VllmKvSpec spec3 = BuildVllmKvSpec(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), o);
  EXPECT_EQ(VllmNeededMemory(spec3, 262144, 8192), (12 * 482 + 36 * 3) * int64_t{557056});
  EXPECT_DOUBLE_EQ(VllmGroupConcurrency(spec3, 7162, 262144, 8192), 7162.0 / (482 + 3 * 3));
  o.mamba_pages_per_request = 1;
  // Without a modelled state page the state layers are left out, as before.
  o.mamba_page_bytes = 0;
  EXPECT_FALSE(BuildVllmKvSpec(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), o).hybrid);
  // vLLM cannot turn state layers into full attention.
  o.mamba_page_bytes = 544 * 1024;
  o.hybrid_allocator = false;
  EXPECT_THROW(BuildVllmKvSpec(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), o), InputError);
}

// DeepSeek-V3.2: each of the 61 MLA layers has an indexer K cache of 128 fp8
// values + 128/128 float32 scales = 132 B per token beside it (deepseek_v2.py
// DeepseekV32IndexerCache); the pages differ, so one block costs every page
// (UniformTypeKVCacheSpecs): 61 x (1,152 + 132) = 78,324 B per token in bf16.
TEST(VllmKvSpec, DeepSeekV32IndexerBesideEachMlaLayer) {
  VllmKvOptions o;
  o.tp = 8;
  o.block_size = 64;
  o.dsa_indexer = true;
  VllmKvSpec s = BuildVllmKvSpec(testing::DeepSeekV32(), o);
  EXPECT_EQ(s.NumIndexerLayers(), 61);
  EXPECT_EQ(s.BytesPerTokenAllLayers(), 78324);
  EXPECT_FALSE(s.hybrid);
  EXPECT_EQ(VllmNumBlocks(s, int64_t{40} << 30), (int64_t{40} << 30) / (64 * 78324));
  o.kv_cache_dtype = "fp8_ds_mla";  // 61 x (656 + 132)
  EXPECT_EQ(BuildVllmKvSpec(testing::DeepSeekV32(), o).BytesPerTokenAllLayers(), 48068);
}

}  // namespace
}  // namespace kvplan
