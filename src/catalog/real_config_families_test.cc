// Architectures whose layers differ from Llama's in weights only (LayerNorms
// with biases, 2-matrix MLPs, biased projections, learned positions, one norm
// per parallel block), each on a real config.json
// (tests/data/real/configs/SOURCES.md): its parameter count within 1 % of the
// published size (source in each comment) and its KV bytes per token per rank
// equal to a hand computation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ModelSpec RealFamily(const std::string& file) {
  return LoadModel(kvplan::testing::RealData("configs/" + file));
}

int64_t TotalParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

// bf16 K and V of every layer on one of `tp` ranks: KV heads are split over
// the ranks and replicated when there are fewer heads than ranks.
int64_t KvBytesPerTokenPerRank(const ModelSpec& m, int tp) {
  return int64_t{m.num_layers} * 2 * std::max(1, m.num_kv_heads / tp) * m.head_dim * 2;
}

void ExpectNear1Percent(int64_t got, double published, const std::string& what) {
  EXPECT_LT(std::fabs(static_cast<double>(got) - published) / published, 0.01)
      << what << ": " << got << " vs published " << published;
}

// openai-community/gpt2 model card: "the smallest version of GPT-2, with 124M
// parameters". Exactly: wte 50257 x 768 (tied), wpe 1024 x 768, 12 layers of
// 7,087,872 (biased c_attn, c_proj, c_fc 3072, c_proj; two LayerNorms), ln_f.
TEST(RealConfigFamilies, Gpt2) {
  ModelSpec m = RealFamily("openai-community--gpt2.json");
  EXPECT_EQ(m.family, "gpt2");
  EXPECT_EQ(m.intermediate_size, 4 * 768);  // n_inner absent: 4 x n_embd
  EXPECT_EQ(m.learned_position_rows, 1024);
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(TotalParams(m), int64_t{50257} * 768 + 1024 * 768 + 12 * int64_t{7'087'872} + 2 * 768);
  ExpectNear1Percent(TotalParams(m), 124e6, "gpt2");
  // 12 layers x K,V x 12 heads x 64 x 2 bytes; at tp 4, 3 heads a rank.
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 12 * 2 * 12 * 64 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 4), 12 * 2 * 3 * 64 * 2);
}

// EleutherAI/gpt-j-6b model card, hyperparameter table: n_parameters 6,053,381,344.
TEST(RealConfigFamilies, GptJ) {
  ModelSpec m = RealFamily("EleutherAI--gpt-j-6b.json");
  EXPECT_EQ(m.family, "gptj");
  EXPECT_EQ(m.hidden_size, 4096);
  EXPECT_EQ(m.num_layers, 28);
  EXPECT_EQ(m.intermediate_size, 16384);  // n_inner null: 4 x n_embd
  EXPECT_FALSE(m.tie_word_embeddings);
  ExpectNear1Percent(TotalParams(m), 6'053'381'344.0, "gpt-j-6b");
  // MHA: 28 layers x 2 x 16 heads x 256 x 2 bytes; tp 8: 2 heads a rank.
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 28 * 2 * 16 * 256 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 8), 28 * 2 * 2 * 256 * 2);
}

// togethercomputer/RedPajama-INCITE-Base-3B-v1 model card: "a 2.8B parameter
// pretrained language model".
TEST(RealConfigFamilies, GptNeoX) {
  ModelSpec m = RealFamily("togethercomputer--RedPajama-INCITE-Base-3B-v1.json");
  EXPECT_EQ(m.family, "gpt_neox");
  EXPECT_FALSE(m.gated_mlp);
  ExpectNear1Percent(TotalParams(m), 2.8e9, "RedPajama-INCITE-3B");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 32 * 80 * 2);  // 2560 / 32 = 80
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 2), 32 * 2 * 16 * 80 * 2);
}

// microsoft/phi-2 Hugging Face page: 2.78B parameters (the model card's "2.7
// billion" rounded down). The config is the older remote-code phi-msft one
// (n_embd, n_layer, n_head_kv null).
TEST(RealConfigFamilies, Phi2) {
  ModelSpec m = RealFamily("microsoft--phi-2.json");
  EXPECT_EQ(m.family, "phi");
  EXPECT_EQ(m.num_kv_heads, 32);  // n_head_kv null: MHA
  EXPECT_TRUE(m.lm_head_bias);
  ExpectNear1Percent(TotalParams(m), 2.78e9, "phi-2");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 32 * 80 * 2);
}

// stabilityai/stablelm-3b-4e1t model card: 2,795,443,200 parameters.
TEST(RealConfigFamilies, StableLm) {
  ModelSpec m = RealFamily("stabilityai--stablelm-3b-4e1t.json");
  EXPECT_EQ(m.family, "stablelm");
  EXPECT_TRUE(m.norm_bias);
  EXPECT_EQ(TotalParams(m), 2'795'443'200);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 32 * 80 * 2);
}

// internlm/internlm2_5-7b(-chat) Hugging Face page: 7.74B parameters.
TEST(RealConfigFamilies, InternLm2) {
  ModelSpec m = RealFamily("internlm--internlm2_5-7b.json");
  EXPECT_EQ(m.family, "internlm2");
  ExpectNear1Percent(TotalParams(m), 7.74e9, "internlm2.5-7b");
  // GQA 8 KV heads of 128; tp 16 replicates them: 1 a rank.
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 8 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 16), 32 * 2 * 1 * 128 * 2);
}

// CohereForAI/aya-23-8B Hugging Face page: 8.03B parameters; the config omits
// tie_word_embeddings, which CohereConfig defaults to true.
TEST(RealConfigFamilies, Cohere) {
  ModelSpec m = RealFamily("CohereForAI--aya-23-8B.json");
  EXPECT_EQ(m.family, "cohere");
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.norms_per_layer, 1);
  ExpectNear1Percent(TotalParams(m), 8.03e9, "aya-23-8B");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 8 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 4), 32 * 2 * 2 * 128 * 2);
}

// deepseek-ai/deepseek-moe-16b-base model card: 16.4B total parameters.
TEST(RealConfigFamilies, DeepseekMoe) {
  ModelSpec m = RealFamily("deepseek-ai--deepseek-moe-16b-base.json");
  EXPECT_EQ(m.family, "deepseek_moe");
  EXPECT_EQ(m.attention, AttentionKind::kGqa);
  EXPECT_EQ(m.num_experts, 64);
  EXPECT_EQ(m.num_shared_experts, 2);
  EXPECT_EQ(m.NumMoeLayers(), 27);  // first_k_dense_replace 1
  ExpectNear1Percent(TotalParams(m), 16.4e9, "deepseek-moe-16b");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 28 * 2 * 16 * 128 * 2);
}

}  // namespace
}  // namespace kvplan
