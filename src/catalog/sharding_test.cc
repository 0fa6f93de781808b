#include "catalog/sharding.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

Parallelism Tp(int tp, int ep = 1) {
  Parallelism p;
  p.tp = tp;
  p.ep = ep;
  return p;
}

// Qwen3-235B-A22B-FP8 at TP8: 1536 / 8 = 192 rows per rank, not whole 128-row
// blocks; with EP8 each expert stays whole (1536 = 12 x 128).
TEST(Sharding, Fp8MoeBlocksAtTp8) {
  ModelSpec m = LoadModel("Qwen/Qwen3-235B-A22B-FP8");
  std::vector<std::string> p = ShardingProblems(m, Tp(8));
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0],
            "The output_size of gate's and up's weight = 192 is not divisible by weight "
            "quantization block_n = 128.");
  EXPECT_TRUE(ShardingProblems(m, Tp(4)).empty());  // 384 = 3 x 128
  EXPECT_TRUE(ShardingProblems(m, Tp(8, 8)).empty());
  // The bf16 checkpoint has no blocks to respect.
  EXPECT_TRUE(ShardingProblems(LoadModel("Qwen/Qwen3-235B-A22B"), Tp(8)).empty());
}

TEST(Sharding, HeadsMustDivide) {
  ModelSpec m = LoadModel("Qwen/Qwen3-8B");  // 32 heads, 8 KV heads
  std::vector<std::string> p = ShardingProblems(m, Tp(3));
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p[0],
            "Total number of attention heads (32) must be divisible by tensor parallel size (3).");
  EXPECT_TRUE(ShardingProblems(m, Tp(16)).empty());  // KV heads replicated 2 ways
  // Qwen3-30B-A3B-FP8 at TP4: 768 / 4 = 192 per rank breaks the blocks.
  EXPECT_EQ(ShardingProblems(LoadModel("Qwen/Qwen3-30B-A3B-FP8"), Tp(4)).size(), 1u);
}

TEST(Sharding, DenseFp8Blocks) {
  ModelSpec m = LoadModel("Qwen/Qwen3-32B-FP8");            // intermediate 25600
  EXPECT_TRUE(ShardingProblems(m, Tp(4)).empty());          // 6400 = 50 x 128
  std::vector<std::string> p = ShardingProblems(m, Tp(8));  // 3200 = 25 x 128
  EXPECT_TRUE(p.empty());
  Parallelism p16 = Tp(16);
  // 64 heads / 16 fine, 8 KV heads replicated; 25600 / 16 = 1600 is not whole blocks.
  std::vector<std::string> q = ShardingProblems(m, p16);
  ASSERT_EQ(q.size(), 1u);
  EXPECT_EQ(q[0],
            "Weight output_partition_size = 1600 is not divisible by weight quantization "
            "block_n = 128.");
}

}  // namespace
}  // namespace kvplan
