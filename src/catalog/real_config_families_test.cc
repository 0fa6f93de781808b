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
#include <vector>

#include "catalog/architectures.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
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

// THUDM/chatglm3-6b Hugging Face page: 6.24B parameters. The remote-code
// config names its fields differently (num_layers, multi_query_group_num,
// kv_channels, ffn_hidden_size, padded_vocab_size).
TEST(RealConfigFamilies, ChatGlm) {
  ModelSpec m = RealFamily("THUDM--chatglm3-6b.json");
  EXPECT_EQ(m.family, "chatglm");
  EXPECT_EQ(m.num_layers, 28);
  EXPECT_EQ(m.num_kv_heads, 2);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.vocab_size, 65024);
  EXPECT_EQ(m.max_position_embeddings, 8192);
  ExpectNear1Percent(TotalParams(m), 6.24e9, "chatglm3-6b");
  // 2 KV groups of 128: at tp 4 each rank keeps one (replicated).
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 28 * 2 * 2 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 4), 28 * 2 * 1 * 128 * 2);
}

// openbmb/MiniCPM-2B-sft-bf16 model card: 2.4B parameters without the
// embedding, 2.7B in total (tied embedding of 122753 x 2304).
TEST(RealConfigFamilies, MiniCpm) {
  ModelSpec m = RealFamily("openbmb--MiniCPM-2B-sft-bf16.json");
  EXPECT_EQ(m.family, "minicpm");
  EXPECT_TRUE(m.tie_word_embeddings);
  ExpectNear1Percent(TotalParams(m), 2.7e9, "MiniCPM-2B");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 40 * 2 * 36 * 64 * 2);
}

// MiniMaxAI/MiniMax-M2.5 (the MiniMax-M2 architecture; model card: 230B total
// parameters, 10B active). Full GQA attention on all 62 layers; fp8 blocks.
TEST(RealConfigFamilies, MiniMaxM2) {
  ModelSpec m = RealFamily("MiniMaxAI--MiniMax-M2.5.json");
  EXPECT_EQ(m.family, "minimax_m2");
  EXPECT_EQ(m.num_experts, 256);
  EXPECT_EQ(m.moe_intermediate_size, 1536);  // experts sized by intermediate_size
  EXPECT_TRUE(m.qk_norm);
  EXPECT_EQ(m.quant.method, "fp8");
  ExpectNear1Percent(TotalParams(m), 230e9, "MiniMax-M2.5");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 62 * 2 * 8 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 8), 62 * 2 * 1 * 128 * 2);
}

// Qwen/Qwen3.5-397B-A17B (the name's 397B total): Qwen3-Next's layers read
// through text_config; 15 of 60 layers are full attention and hold KV, the
// others gated delta-net state. The vision tower is counted (vision_towers_test.cc).
TEST(RealConfigFamilies, Qwen35MoeWrapsQwen3Next) {
  ModelSpec m = RealFamily("Qwen--Qwen3.5-397B-A17B.json");
  EXPECT_EQ(m.family, "qwen3_next");
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 15);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 45);
  EXPECT_EQ(m.uncounted_weights, "");
  ExpectNear1Percent(TotalParams(m), 397e9, "Qwen3.5-397B-A17B");
  // Full-attention layers only: 15 x 2 x 2 KV heads x 256 x 2 bytes; tp 4
  // replicates the 2 heads (1 a rank).
  const int64_t full = m.NumLayersOfKind(LayerKind::kFull);
  EXPECT_EQ(full * 2 * std::max(1, m.num_kv_heads / 1) * m.head_dim * 2, 15 * 2 * 2 * 256 * 2);
  EXPECT_EQ(full * 2 * std::max(1, m.num_kv_heads / 4) * m.head_dim * 2, 15 * 2 * 1 * 256 * 2);
}

// MLA caches one latent per layer, shared by all heads and replicated over
// tensor-parallel ranks: layers x (kv_lora_rank + qk_rope_head_dim) x 2 bytes.
int64_t MlaBytesPerTokenPerRank(const ModelSpec& m) {
  return int64_t{m.num_layers} * (m.kv_lora_rank + m.qk_rope_head_dim) * 2;
}

// zai-org/GLM-5 (model card: 744B total parameters, 40B active): DeepSeek-V3.2's
// MLA with the indexer, 3 dense layers then 75 MoE layers.
TEST(RealConfigFamilies, Glm5Dsa) {
  ModelSpec m = RealFamily("zai-org--GLM-5.json");
  EXPECT_EQ(m.family, "deepseek");
  EXPECT_EQ(m.attention, AttentionKind::kMla);
  EXPECT_EQ(m.index_head_dim, 128);
  EXPECT_EQ(m.index_n_heads, 32);
  EXPECT_EQ(m.NumMoeLayers(), 75);
  ExpectNear1Percent(TotalParams(m), 744e9, "GLM-5");
  EXPECT_EQ(MlaBytesPerTokenPerRank(m), 78 * (512 + 64) * 2);
}

// zai-org/GLM-4.7-Flash (model card: a 30B-A3B MoE): MLA (kv_lora_rank 512,
// rope 64) on 47 layers, the first dense.
TEST(RealConfigFamilies, Glm47FlashMla) {
  ModelSpec m = RealFamily("zai-org--GLM-4.7-Flash.json");
  EXPECT_EQ(m.family, "deepseek");
  EXPECT_EQ(m.attention, AttentionKind::kMla);
  EXPECT_EQ(m.v_head_dim, 256);
  EXPECT_EQ(m.NumMoeLayers(), 46);
  ExpectNear1Percent(TotalParams(m), 30e9, "GLM-4.7-Flash");
  EXPECT_EQ(MlaBytesPerTokenPerRank(m), 47 * (512 + 64) * 2);
}

// moonshotai/Kimi-K2.5: Kimi-K2's DeepSeek-V3 text model in text_config, whose
// int4 compressed-tensors quantization_config sits in text_config too. The
// text model is Kimi-K2's: the same parameters as the catalog's Kimi-K2, plus
// the MoonViT tower (vision_towers_test.cc).
TEST(RealConfigFamilies, KimiK25WrapsDeepseekV3) {
  ModelSpec m = RealFamily("moonshotai--Kimi-K2.5.json");
  EXPECT_EQ(m.family, "deepseek");
  EXPECT_EQ(m.num_experts, 384);
  EXPECT_EQ(m.uncounted_weights, "");
  EXPECT_EQ(m.quant.method, "compressed-tensors");
  EXPECT_EQ(m.quant.weight_bits, 4);
  EXPECT_EQ(TotalParams(m) - m.vision_params,
            TotalParams(LoadModel("moonshotai/Kimi-K2-Instruct")));
  EXPECT_EQ(MlaBytesPerTokenPerRank(m), 61 * (512 + 64) * 2);
}

// microsoft/Phi-3.5-vision-instruct: Phi-3's text fields at the root; the text
// model is Phi-3.5-mini's (its model card: 3.8B parameters); with the CLIP
// tower, counted from img_processor, the Hub's 4.15B (vision_towers_test.cc).
TEST(RealConfigFamilies, Phi3VisionWrapsPhi3) {
  ModelSpec m = RealFamily("microsoft--Phi-3.5-vision-instruct.json");
  EXPECT_EQ(m.family, "phi3");
  EXPECT_TRUE(m.multimodal);
  EXPECT_EQ(m.uncounted_weights, "");
  ExpectNear1Percent(TotalParams(m) - m.vision_params, 3.8e9, "Phi-3.5-vision text model");
  ExpectNear1Percent(TotalParams(m), 4.15e9, "Phi-3.5-vision");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 32 * 96 * 2);  // 3072 / 32 = 96
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 2), 32 * 2 * 16 * 96 * 2);
}

// Qwen/Qwen3.5-27B (the name's 27B, checked on the text model; its vision
// tower of 27 blocks of 1152 is counted, 0.46B, vision_towers_test.cc): the
// same layers as Qwen3.5-MoE with a dense MLP, 16 of 64 layers full attention.
TEST(RealConfigFamilies, Qwen35DenseWrapsQwen3Next) {
  ModelSpec m = RealFamily("Qwen--Qwen3.5-27B.json");
  EXPECT_EQ(m.family, "qwen3_next");
  EXPECT_FALSE(m.IsMoe());
  EXPECT_EQ(m.intermediate_size, 17408);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 16);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 48);
  ExpectNear1Percent(TotalParams(m) - m.vision_params, 27e9, "Qwen3.5-27B text model");
  // Full-attention layers only: 16 x 2 x 4 KV heads x 256 x 2 bytes; tp 2: 2 heads a rank.
  const int64_t full = m.NumLayersOfKind(LayerKind::kFull);
  EXPECT_EQ(full * 2 * (m.num_kv_heads / 1) * m.head_dim * 2, 16 * 2 * 4 * 256 * 2);
  EXPECT_EQ(full * 2 * (m.num_kv_heads / 2) * m.head_dim * 2, 16 * 2 * 2 * 256 * 2);
}

// LGAI-EXAONE/EXAONE-3.0-7.8B-Instruct (the name's 7.8B): Llama layers, the
// layer count under num_layers.
TEST(RealConfigFamilies, Exaone) {
  ModelSpec m = RealFamily("LGAI-EXAONE--EXAONE-3.0-7.8B-Instruct.json");
  EXPECT_EQ(m.family, "exaone");
  EXPECT_EQ(m.num_layers, 32);
  ExpectNear1Percent(TotalParams(m), 7.8e9, "EXAONE-3.0-7.8B");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 8 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 8), 32 * 2 * 1 * 128 * 2);
}

// bigcode/starcoder2-7b Hugging Face page: 7.17B parameters; the config omits
// tie_word_embeddings, which Starcoder2Config defaults to true.
TEST(RealConfigFamilies, Starcoder2) {
  ModelSpec m = RealFamily("bigcode--starcoder2-7b.json");
  EXPECT_EQ(m.family, "starcoder2");
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_FALSE(m.gated_mlp);
  ExpectNear1Percent(TotalParams(m), 7.17e9, "starcoder2-7b");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 4 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 8), 32 * 2 * 1 * 128 * 2);
}

// Qwen/Qwen3.8-2.4T-A95B (the name's 2.4T): the Qwen3.5-MoE text model without
// a wrapper; 23 of 92 layers full attention.
TEST(RealConfigFamilies, Qwen35MoeTextOnly) {
  ModelSpec m = RealFamily("Qwen--Qwen3.8-2.4T-A95B.json");
  EXPECT_EQ(m.family, "qwen3_next");
  EXPECT_EQ(m.num_experts, 512);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 23);
  ExpectNear1Percent(TotalParams(m), 2.4e12, "Qwen3.8-2.4T-A95B");
  const int64_t full = m.NumLayersOfKind(LayerKind::kFull);
  EXPECT_EQ(full * 2 * m.num_kv_heads * m.head_dim * 2, 23 * 2 * 4 * 256 * 2);
}

// ibm-granite/granite-3.1-3b-a800m-instruct (model card: 3.3B parameters, 800M
// active): 40 experts of intermediate_size 512, tied embedding.
TEST(RealConfigFamilies, GraniteMoe) {
  ModelSpec m = RealFamily("ibm-granite--granite-3.1-3b-a800m-instruct.json");
  EXPECT_EQ(m.family, "granitemoe");
  EXPECT_EQ(m.num_experts, 40);
  EXPECT_EQ(m.moe_intermediate_size, 512);
  EXPECT_TRUE(m.tie_word_embeddings);
  ExpectNear1Percent(TotalParams(m), 3.3e9, "granite-3.1-3b-a800m");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 32 * 2 * 8 * 64 * 2);  // 1536 / 24 = 64
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 4), 32 * 2 * 2 * 64 * 2);
}

// allenai/OLMoE-1B-7B-0924: 6.9B total, 1.3B active (the OLMoE paper, arXiv
// 2409.02060, as quoted by labindex.ai/outputs/ai2/olmoe). MHA over 16 heads.
TEST(RealConfigFamilies, Olmoe) {
  ModelSpec m = RealFamily("allenai--OLMoE-1B-7B-0924.json");
  EXPECT_EQ(m.family, "olmoe");
  EXPECT_TRUE(m.qk_norm);
  EXPECT_EQ(m.num_experts, 64);
  EXPECT_EQ(m.moe_intermediate_size, 1024);
  ExpectNear1Percent(TotalParams(m), 6.9e9, "OLMoE-1B-7B");
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 16 * 2 * 16 * 128 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 2), 16 * 2 * 8 * 128 * 2);
}

// bigscience/bloom-560m model card: 559,214,592 parameters. Exactly: the tied
// embedding 250880 x 1024 and its LayerNorm, 24 layers of 12,596,224 (two
// LayerNorms, biased query_key_value, dense, 4h MLP), ln_f.
TEST(RealConfigFamilies, Bloom) {
  ModelSpec m = RealFamily("bigscience--bloom-560m.json");
  EXPECT_EQ(m.family, "bloom");
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.intermediate_size, 4096);
  EXPECT_EQ(TotalParams(m), 559'214'592);
  // MHA (ALiBi, no position table): 24 layers x 2 x 16 heads x 64 x 2 bytes.
  EXPECT_EQ(m.learned_position_rows, 0);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 1), 24 * 2 * 16 * 64 * 2);
  EXPECT_EQ(KvBytesPerTokenPerRank(m, 4), 24 * 2 * 4 * 64 * 2);
}

// A dense architecture name with routed experts (MiniCPM-MoE-8x2B) is refused,
// not priced as dense.
TEST(RealConfigFamilies, DenseNameWithExpertsIsRefused) {
  try {
    ParseModelConfig(R"({"architectures":["MiniCPMForCausalLM"],"hidden_size":64,
        "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":128,
        "vocab_size":100,"num_experts":8,"num_experts_per_tok":2})",
                     "t.json");
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("routed experts"), std::string::npos) << e.what();
  }
}

// kvplan models architectures: every table entry, with its layer kinds; the
// hybrid state-space models listed as refused.
TEST(RealConfigFamilies, ArchitectureRowsListTheTable) {
  std::vector<ArchitectureRow> rows = ArchitectureRows();
  int accepted = 0;
  for (const ArchitectureRow& r : rows) {
    if (!r.accepted) continue;
    ++accepted;
    EXPECT_FALSE(r.layers.empty()) << r.architecture;
    EXPECT_NE(FindArchitecture(r.architecture), nullptr) << r.architecture;
  }
  EXPECT_EQ(accepted, static_cast<int>(SupportedArchitectures().size()));
  auto find = [&](const std::string& name) {
    return *std::find_if(rows.begin(), rows.end(),
                         [&](const ArchitectureRow& r) { return r.architecture == name; });
  };
  EXPECT_EQ(find("GPT2LMHeadModel").mlp, "dense (2-matrix)");
  EXPECT_EQ(find("Qwen3NextForCausalLM").layers, "linear (gated delta-net) + full");
  EXPECT_FALSE(find("NemotronHForCausalLM").accepted);
}

}  // namespace
}  // namespace kvplan
