#include "catalog/sharding.h"

#include <gtest/gtest.h>

#include "catalog/model_loader.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

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

// The engines pad the vocabulary to a multiple of 64 before splitting it:
// granite-3.3-8b's 49,159 tokens become 49,216 = 64 x 769, which splits 8 ways
// although 49,159 does not.
TEST(Sharding, VocabularyIsPaddedTo64BeforeTheSplit) {
  EXPECT_EQ(PaddedVocab(49159), 49216);
  EXPECT_EQ(PaddedVocab(151936), 151936);
  ModelSpec granite = kvplan::testing::RealConfig("ibm-granite--granite-3.3-8b-instruct.json");
  ASSERT_EQ(granite.vocab_size, 49159);
  EXPECT_TRUE(ShardingProblems(granite, Tp(8), ShardingEngine::kVllm).empty());
  EXPECT_TRUE(ShardingProblems(granite, Tp(8), ShardingEngine::kSglang).empty());
}

// Qwen2.5-7B: 28 heads, 4 KV heads, vocabulary 152,064 = 64 x 2,376. At TP 7
// the heads divide (vLLM's config check passes) and the embedding's divide()
// stops both engines, as for Mixtral-8x22B's 32,768 tokens at TP 3
// (vllm-project/vllm#6385 "AssertionError: 32768 is not divisible by 3") and
// gpustack/gpustack#3777 (vocab_parallel_embedding.py _get_indices).
TEST(Sharding, VocabularyNotDivisibleByTp) {
  ModelSpec m = LoadModel("Qwen/Qwen2.5-7B");
  for (ShardingEngine e : {ShardingEngine::kVllm, ShardingEngine::kSglang}) {
    std::vector<std::string> p = ShardingProblems(m, Tp(7), e);
    ASSERT_FALSE(p.empty());
    EXPECT_EQ(p[0], "AssertionError: 152064 is not divisible by 7");
  }
  EXPECT_TRUE(ShardingProblems(m, Tp(4), ShardingEngine::kVllm).empty());
}

// Where the two engines differ in order: vLLM checks the heads while it builds
// its config (vllm-project/vllm#414: "Total number of attention heads (52)
// must be divisible by tensor parallel size (3)."); SGLang has no such check and
// builds the embedding before the attention, so Qwen3-8B (32 heads, 151,936
// tokens) at TP 3 stops on the vocabulary first, then on a bare assert.
TEST(Sharding, EachEngineInItsOwnOrder) {
  ModelSpec m = LoadModel("Qwen/Qwen3-8B");
  std::vector<std::string> v = ShardingProblems(m, Tp(3), ShardingEngine::kVllm);
  ASSERT_FALSE(v.empty());
  EXPECT_EQ(v[0],
            "Total number of attention heads (32) must be divisible by tensor parallel size (3).");
  std::vector<std::string> s = ShardingProblems(m, Tp(3), ShardingEngine::kSglang);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0], "AssertionError: 151936 is not divisible by 3");
  EXPECT_EQ(s[1],
            "AssertionError at `assert self.total_num_heads % tp_size == 0` (32 attention heads, "
            "attention TP size 3)");
}

// KV heads split when there are at least as many as TP ranks, else they are
// replicated, which needs tp % kv == 0.
TEST(Sharding, KvHeadsSplitOrReplicate) {
  // phi-4: 40 heads, 10 KV heads. TP 4 divides the heads but not the KV heads.
  ModelSpec phi4 = kvplan::testing::RealConfig("microsoft--phi-4.json");
  for (ShardingEngine e : {ShardingEngine::kVllm, ShardingEngine::kSglang}) {
    std::vector<std::string> p = ShardingProblems(phi4, Tp(4), e);
    ASSERT_EQ(p.size(), 1u);
    EXPECT_EQ(p[0],
              "AssertionError at `assert self.total_num_kv_heads % tp_size == 0` (10 KV heads, TP "
              "size 4)");
    EXPECT_TRUE(ShardingProblems(phi4, Tp(2), e).empty());
    // Llama-3.1-70B: 8 KV heads at TP 16 are replicated two ways.
    EXPECT_TRUE(ShardingProblems(LoadModel("meta-llama/Meta-Llama-3.1-70B"), Tp(16), e).empty());
  }
  // SGLang DP attention: Qwen2.5-7B at TP 28, DP 2 has attention TP 14, which
  // divides the 28 heads; its 4 KV heads replicate only into multiples of 4.
  Parallelism dpa = Tp(28);
  dpa.dp = 2;
  dpa.dp_attention = true;
  std::vector<std::string> p =
      ShardingProblems(LoadModel("Qwen/Qwen2.5-7B"), dpa, ShardingEngine::kSglang);
  ASSERT_FALSE(p.empty());
  EXPECT_EQ(p[0],
            "AssertionError at `assert tp_size % self.total_num_kv_heads == 0` (4 KV heads, TP "
            "size 14)");
}

// SGLang's FusedMoE splits the experts over EP: Qwen3-30B-A3B's 128 experts
// do not split 3 ways. vLLM's DeepSeek MoE with --enable-expert-parallel needs
// the same of its 256 experts (vllm-project/vllm#52435, the same text at EP 3).
TEST(Sharding, ExpertsOverExpertParallel) {
  std::vector<std::string> s =
      ShardingProblems(LoadModel("Qwen/Qwen3-30B-A3B"), Tp(8, 3), ShardingEngine::kSglang);
  ASSERT_FALSE(s.empty());
  EXPECT_EQ(s[0],
            "AssertionError at `assert num_experts % self.moe_ep_size == 0` (128 experts, EP size "
            "3)");
  EXPECT_TRUE(
      ShardingProblems(LoadModel("Qwen/Qwen3-30B-A3B"), Tp(8, 8), ShardingEngine::kSglang).empty());
  Parallelism ep3 = Tp(1, 3);
  ep3.dp = 3;
  std::vector<std::string> v =
      ShardingProblems(LoadModel("deepseek-ai/DeepSeek-V3"), ep3, ShardingEngine::kVllm);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0],
            "AssertionError: n_physical_experts=256 must be divisible by ep_size=3. Adjust "
            "num_redundant_experts.");
}

}  // namespace
}  // namespace kvplan
