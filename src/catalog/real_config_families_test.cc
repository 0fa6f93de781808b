// Architectures of the table on real config.json files
// (tests/data/real/configs/SOURCES.md), one row per config: its parameter
// count within 1 % of the published size (the source in the row), its KV bytes
// per token per rank equal to a hand computation at TP 1 and at a TP > 1 (the
// arithmetic in the row's comment), and the facts the parse must get right.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "catalog/architectures.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/input_error.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

int64_t TotalParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

// Which layers hold KV and how it splits over tensor-parallel ranks.
enum class Kv {
  kEveryLayer,  // GQA K and V on every layer; heads split, replicated below one a rank
  kFullLayers,  // only the full-attention layers (the others hold linear-attention state)
  kMla,         // one latent per layer, replicated on every rank
};

// bf16 K and V on one of `tp` ranks: KV heads are split over the ranks and
// replicated when there are fewer heads than ranks; MLA keeps
// kv_lora_rank + qk_rope_head_dim per layer on every rank.
int64_t KvBytesPerTokenPerRank(const ModelSpec& m, Kv kind, int tp) {
  if (kind == Kv::kMla) return int64_t{m.num_layers} * (m.kv_lora_rank + m.qk_rope_head_dim) * 2;
  const int64_t layers =
      kind == Kv::kFullLayers ? m.NumLayersOfKind(LayerKind::kFull) : int64_t{m.num_layers};
  return layers * 2 * std::max(1, m.num_kv_heads / tp) * m.head_dim * 2;
}

// |actual - published| / published under 1 % (a row's extra check on part of a model).
void ExpectNear1Percent(int64_t actual, double published, const char* what) {
  EXPECT_LT(std::fabs(static_cast<double>(actual) - published) / published, 0.01)
      << what << ": " << actual << " vs published " << published;
}

struct FamilyRow {
  const char* file;
  const char* family;  // ModelSpec::family
  // The published size (its source in the comment above the row); 0 when the
  // row compares with another parse instead (in `facts`).
  double published;
  int64_t exact_params;  // the exact count when the source gives one (0: none)
  Kv kv;
  int64_t kv_tp1;  // hand computation, TP 1
  int tp;          // a TP > 1
  int64_t kv_tp;   // hand computation at `tp`
  void (*facts)(const ModelSpec&);
};

// kvplan: data table
const FamilyRow kRows[] = {
    // openai-community/gpt2 model card: "the smallest version of GPT-2, with
    // 124M parameters". Exactly: wte 50257 x 768 (tied), wpe 1024 x 768, 12
    // layers of 7,087,872 (biased c_attn, c_proj, c_fc 3072, c_proj; two
    // LayerNorms), ln_f. KV: 12 layers x K,V x 12 heads x 64 x 2 bytes; at tp
    // 4, 3 heads a rank.
    {"openai-community--gpt2.json", "gpt2", 124e6,
     int64_t{50257} * 768 + 1024 * 768 + 12 * int64_t{7'087'872} + 2 * 768, Kv::kEveryLayer,
     12 * 2 * 12 * 64 * 2, 4, 12 * 2 * 3 * 64 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.intermediate_size, 4 * 768);  // n_inner absent: 4 x n_embd
       EXPECT_EQ(m.learned_position_rows, 1024);
       EXPECT_TRUE(m.tie_word_embeddings);
     }},
    // facebook/opt-125m: the OPT paper's (arXiv 2205.01068) Table 1 row "125M". Exactly:
    // embed_tokens 50272 x 768 (lm_head tied), embed_positions (2048 + 2) x 768, 12 layers of
    // 7,087,872 (q/k/v/out_proj 768 x 768 + bias, fc1 768 x 3072 + bias, fc2 3072 x 768 +
    // bias, two LayerNorms), final_layer_norm. MHA: 12 layers x K,V x 12 heads x 64 x 2
    // bytes; tp 4: 3 heads a rank.
    {"facebook--opt-125m.json", "opt", 125e6,
     int64_t{50272} * 768 + 2050 * 768 + 12 * int64_t{7'087'872} + 2 * 768, Kv::kEveryLayer,
     12 * 2 * 12 * 64 * 2, 4, 12 * 2 * 3 * 64 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.intermediate_size, 3072);  // ffn_dim
       EXPECT_EQ(m.learned_position_rows, 2050);
       EXPECT_TRUE(m.tie_word_embeddings);
       EXPECT_FALSE(m.gated_mlp);
       EXPECT_EQ(m.rope_cache_elements, 0);  // learned positions: no rotary table
     }},
    // EleutherAI/gpt-j-6b model card, hyperparameter table: n_parameters
    // 6,053,381,344. MHA: 28 layers x 2 x 16 heads x 256 x 2 bytes; tp 8: 2
    // heads a rank.
    {"EleutherAI--gpt-j-6b.json", "gptj", 6'053'381'344.0, 0, Kv::kEveryLayer,
     28 * 2 * 16 * 256 * 2, 8, 28 * 2 * 2 * 256 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.hidden_size, 4096);
       EXPECT_EQ(m.num_layers, 28);
       EXPECT_EQ(m.intermediate_size, 16384);  // n_inner null: 4 x n_embd
       EXPECT_FALSE(m.tie_word_embeddings);
     }},
    // togethercomputer/RedPajama-INCITE-Base-3B-v1 model card: "a 2.8B
    // parameter pretrained language model". 32 layers x 2 x 32 heads x 80
    // (2560 / 32) x 2 bytes; tp 2: 16 heads a rank.
    {"togethercomputer--RedPajama-INCITE-Base-3B-v1.json", "gpt_neox", 2.8e9, 0, Kv::kEveryLayer,
     32 * 2 * 32 * 80 * 2, 2, 32 * 2 * 16 * 80 * 2,
     [](const ModelSpec& m) { EXPECT_FALSE(m.gated_mlp); }},
    // microsoft/phi-2 Hugging Face page: 2.78B parameters (the model card's
    // "2.7 billion" rounded down). The config is the older remote-code
    // phi-msft one (n_embd, n_layer, n_head_kv null). MHA: 32 layers x 2 x 32
    // heads x 80 x 2 bytes; tp 4: 8 heads a rank.
    {"microsoft--phi-2.json", "phi", 2.78e9, 0, Kv::kEveryLayer, 32 * 2 * 32 * 80 * 2, 4,
     32 * 2 * 8 * 80 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_kv_heads, 32);  // n_head_kv null: MHA
       EXPECT_TRUE(m.lm_head_bias);
     }},
    // stabilityai/stablelm-3b-4e1t model card: 2,795,443,200 parameters. MHA:
    // 32 layers x 2 x 32 heads x 80 x 2 bytes; tp 2: 16 heads a rank.
    {"stabilityai--stablelm-3b-4e1t.json", "stablelm", 2'795'443'200.0, 2'795'443'200,
     Kv::kEveryLayer, 32 * 2 * 32 * 80 * 2, 2, 32 * 2 * 16 * 80 * 2,
     [](const ModelSpec& m) { EXPECT_TRUE(m.norm_bias); }},
    // internlm/internlm2_5-7b(-chat) Hugging Face page: 7.74B parameters. GQA
    // 8 KV heads of 128: 32 layers x 2 x 8 x 128 x 2 bytes; tp 16 replicates
    // them: 1 a rank.
    {"internlm--internlm2_5-7b.json", "internlm2", 7.74e9, 0, Kv::kEveryLayer,
     32 * 2 * 8 * 128 * 2, 16, 32 * 2 * 1 * 128 * 2, [](const ModelSpec&) {}},
    // CohereForAI/aya-23-8B Hugging Face page: 8.03B parameters; the config
    // omits tie_word_embeddings, which CohereConfig defaults to true. 32
    // layers x 2 x 8 x 128 x 2 bytes; tp 4: 2 heads a rank.
    {"CohereForAI--aya-23-8B.json", "cohere", 8.03e9, 0, Kv::kEveryLayer, 32 * 2 * 8 * 128 * 2, 4,
     32 * 2 * 2 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.tie_word_embeddings);
       EXPECT_EQ(m.norms_per_layer, 1);
     }},
    // deepseek-ai/deepseek-moe-16b-base model card: 16.4B total parameters.
    // GQA (MHA) 28 layers x 2 x 16 heads x 128 x 2 bytes; tp 4: 4 heads a rank.
    {"deepseek-ai--deepseek-moe-16b-base.json", "deepseek_moe", 16.4e9, 0, Kv::kEveryLayer,
     28 * 2 * 16 * 128 * 2, 4, 28 * 2 * 4 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.attention, AttentionKind::kGqa);
       EXPECT_EQ(m.num_experts, 64);
       EXPECT_EQ(m.num_shared_experts, 2);
       EXPECT_EQ(m.NumMoeLayers(), 27);  // first_k_dense_replace 1
     }},
    // THUDM/chatglm3-6b Hugging Face page: 6.24B parameters. The remote-code
    // config names its fields differently (num_layers, multi_query_group_num,
    // kv_channels, ffn_hidden_size, padded_vocab_size). 2 KV groups of 128:
    // 28 layers x 2 x 2 x 128 x 2 bytes; at tp 4 each rank keeps one (replicated).
    {"THUDM--chatglm3-6b.json", "chatglm", 6.24e9, 0, Kv::kEveryLayer, 28 * 2 * 2 * 128 * 2, 4,
     28 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_layers, 28);
       EXPECT_EQ(m.num_kv_heads, 2);
       EXPECT_EQ(m.head_dim, 128);
       EXPECT_EQ(m.vocab_size, 65024);
       EXPECT_EQ(m.max_position_embeddings, 8192);
     }},
    // openbmb/MiniCPM-2B-sft-bf16 model card: 2.4B parameters without the
    // embedding, 2.7B in total (tied embedding of 122753 x 2304). MHA: 40
    // layers x 2 x 36 heads x 64 x 2 bytes; tp 4: 9 heads a rank.
    {"openbmb--MiniCPM-2B-sft-bf16.json", "minicpm", 2.7e9, 0, Kv::kEveryLayer,
     40 * 2 * 36 * 64 * 2, 4, 40 * 2 * 9 * 64 * 2,
     [](const ModelSpec& m) { EXPECT_TRUE(m.tie_word_embeddings); }},
    // MiniMaxAI/MiniMax-M2.5 (the MiniMax-M2 architecture; model card: 230B
    // total parameters, 10B active). Full GQA attention on all 62 layers; fp8
    // blocks. 62 x 2 x 8 x 128 x 2 bytes; tp 8: 1 head a rank.
    {"MiniMaxAI--MiniMax-M2.5.json", "minimax_m2", 230e9, 0, Kv::kEveryLayer,
     62 * 2 * 8 * 128 * 2, 8, 62 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_experts, 256);
       EXPECT_EQ(m.moe_intermediate_size, 1536);  // experts sized by intermediate_size
       EXPECT_TRUE(m.qk_norm);
       EXPECT_EQ(m.quant.method, "fp8");
     }},
    // Qwen/Qwen3.5-397B-A17B (the name's 397B total): Qwen3-Next's layers read
    // through text_config; 15 of 60 layers are full attention and hold KV, the
    // others gated delta-net state. The vision tower is counted (vision_towers_test.cc). Full
    // layers only: 15 x 2 x 2 KV heads x 256 x 2 bytes; tp 4 replicates the 2
    // heads (1 a rank).
    {"Qwen--Qwen3.5-397B-A17B.json", "qwen3_next", 397e9, 0, Kv::kFullLayers,
     15 * 2 * 2 * 256 * 2, 4, 15 * 2 * 1 * 256 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 15);
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 45);
       EXPECT_EQ(m.uncounted_weights, "");
     }},
    // zai-org/GLM-5 (model card: 744B total parameters, 40B active):
    // DeepSeek-V3.2's MLA with the indexer, 3 dense layers then 75 MoE layers.
    // MLA: 78 layers x (512 + 64) x 2 bytes on every rank.
    {"zai-org--GLM-5.json", "deepseek", 744e9, 0, Kv::kMla, 78 * (512 + 64) * 2, 8,
     78 * (512 + 64) * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.attention, AttentionKind::kMla);
       EXPECT_EQ(m.index_head_dim, 128);
       EXPECT_EQ(m.index_n_heads, 32);
       EXPECT_EQ(m.NumMoeLayers(), 75);
     }},
    // zai-org/GLM-4.7-Flash (model card: a 30B-A3B MoE): MLA (kv_lora_rank
    // 512, rope 64) on 47 layers, the first dense: 47 x (512 + 64) x 2 bytes on
    // every rank.
    {"zai-org--GLM-4.7-Flash.json", "deepseek", 30e9, 0, Kv::kMla, 47 * (512 + 64) * 2, 4,
     47 * (512 + 64) * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.attention, AttentionKind::kMla);
       EXPECT_EQ(m.v_head_dim, 256);
       EXPECT_EQ(m.NumMoeLayers(), 46);
     }},
    // moonshotai/Kimi-K2.5: Kimi-K2's DeepSeek-V3 text model in text_config,
    // whose int4 compressed-tensors quantization_config sits in text_config
    // too. The text model is Kimi-K2's: the same parameters as the catalog's
    // Kimi-K2 (compared in the facts) plus the MoonViT tower (vision_towers_test.cc).
    // MLA: 61 x (512 + 64) x 2 bytes.
    {"moonshotai--Kimi-K2.5.json", "deepseek", 0, 0, Kv::kMla, 61 * (512 + 64) * 2, 8,
     61 * (512 + 64) * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_experts, 384);
       EXPECT_EQ(m.uncounted_weights, "");
       EXPECT_EQ(m.quant.method, "compressed-tensors");
       EXPECT_EQ(m.quant.weight_bits, 4);
       EXPECT_EQ(TotalParams(m) - m.vision_params,
                 TotalParams(LoadModel("moonshotai/Kimi-K2-Instruct")));
     }},
    // microsoft/Phi-3.5-vision-instruct: Phi-3's text fields at the root; the
    // text model is Phi-3.5-mini's (its model card: 3.8B parameters); with the CLIP
    // tower, counted from img_processor, the Hub's 4.15B (vision_towers_test.cc).
    // 32 x 2 x 32 x 96 (3072 / 32) x 2 bytes; tp 2: 16 heads a rank.
    {"microsoft--Phi-3.5-vision-instruct.json", "phi3", 4.15e9, 0, Kv::kEveryLayer,
     32 * 2 * 32 * 96 * 2, 2, 32 * 2 * 16 * 96 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.multimodal);
       EXPECT_EQ(m.uncounted_weights, "");
       ExpectNear1Percent(TotalParams(m) - m.vision_params, 3.8e9, "Phi-3.5-vision text model");
     }},
    // Qwen/Qwen3.5-27B (the name's 27B, checked on the text model; its vision tower of
    // 27 blocks of 1152 is counted, 0.46B, vision_towers_test.cc): the same layers as Qwen3.5-MoE with a dense MLP, 16 of
    // 64 layers full attention. Full layers only: 16 x 2 x 4 KV heads x 256 x
    // 2 bytes; tp 2: 2 heads a rank.
    {"Qwen--Qwen3.5-27B.json", "qwen3_next", 0, 0, Kv::kFullLayers, 16 * 2 * 4 * 256 * 2, 2,
     16 * 2 * 2 * 256 * 2,
     [](const ModelSpec& m) {
       EXPECT_FALSE(m.IsMoe());
       EXPECT_EQ(m.intermediate_size, 17408);
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 16);
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 48);
       ExpectNear1Percent(TotalParams(m) - m.vision_params, 27e9, "Qwen3.5-27B text model");
     }},
    // LGAI-EXAONE/EXAONE-3.0-7.8B-Instruct (the name's 7.8B): Llama layers,
    // the layer count under num_layers. 32 x 2 x 8 x 128 x 2 bytes; tp 8: 1
    // head a rank.
    {"LGAI-EXAONE--EXAONE-3.0-7.8B-Instruct.json", "exaone", 7.8e9, 0, Kv::kEveryLayer,
     32 * 2 * 8 * 128 * 2, 8, 32 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) { EXPECT_EQ(m.num_layers, 32); }},
    // bigcode/starcoder2-7b Hugging Face page: 7.17B parameters; the config
    // omits tie_word_embeddings, which Starcoder2Config defaults to true. 32 x
    // 2 x 4 x 128 x 2 bytes; tp 8 replicates the 4 heads: 1 a rank.
    {"bigcode--starcoder2-7b.json", "starcoder2", 7.17e9, 0, Kv::kEveryLayer,
     32 * 2 * 4 * 128 * 2, 8, 32 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.tie_word_embeddings);
       EXPECT_FALSE(m.gated_mlp);
     }},
    // Qwen/Qwen3.8-2.4T-A95B (the name's 2.4T): the Qwen3.5-MoE text model
    // without a wrapper; 23 of 92 layers full attention. 23 x 2 x 4 x 256 x 2
    // bytes; tp 4: 1 head a rank.
    {"Qwen--Qwen3.8-2.4T-A95B.json", "qwen3_next", 2.4e12, 0, Kv::kFullLayers,
     23 * 2 * 4 * 256 * 2, 4, 23 * 2 * 1 * 256 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_experts, 512);
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 23);
     }},
    // ibm-granite/granite-3.1-3b-a800m-instruct (model card: 3.3B parameters,
    // 800M active): 40 experts of intermediate_size 512, tied embedding. 32 x
    // 2 x 8 x 64 (1536 / 24) x 2 bytes; tp 4: 2 heads a rank.
    {"ibm-granite--granite-3.1-3b-a800m-instruct.json", "granitemoe", 3.3e9, 0, Kv::kEveryLayer,
     32 * 2 * 8 * 64 * 2, 4, 32 * 2 * 2 * 64 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_experts, 40);
       EXPECT_EQ(m.moe_intermediate_size, 512);
       EXPECT_TRUE(m.tie_word_embeddings);
     }},
    // allenai/OLMoE-1B-7B-0924: 6.9B total, 1.3B active (the OLMoE paper,
    // arXiv 2409.02060, as quoted by labindex.ai/outputs/ai2/olmoe). MHA over
    // 16 heads: 16 x 2 x 16 x 128 x 2 bytes; tp 2: 8 heads a rank.
    {"allenai--OLMoE-1B-7B-0924.json", "olmoe", 6.9e9, 0, Kv::kEveryLayer, 16 * 2 * 16 * 128 * 2,
     2, 16 * 2 * 8 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.qk_norm);
       EXPECT_EQ(m.num_experts, 64);
       EXPECT_EQ(m.moe_intermediate_size, 1024);
     }},
    // bigscience/bloom-560m model card: 559,214,592 parameters. Exactly: the
    // tied embedding 250880 x 1024 and its LayerNorm, 24 layers of 12,596,224
    // (two LayerNorms, biased query_key_value, dense, 4h MLP), ln_f. MHA
    // (ALiBi, no position table): 24 x 2 x 16 heads x 64 x 2 bytes; tp 4: 4 a rank.
    {"bigscience--bloom-560m.json", "bloom", 559'214'592.0, 559'214'592, Kv::kEveryLayer,
     24 * 2 * 16 * 64 * 2, 4, 24 * 2 * 4 * 64 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.tie_word_embeddings);
       EXPECT_EQ(m.intermediate_size, 4096);
       EXPECT_EQ(m.learned_position_rows, 0);
     }},
    // ---- archs2: the remaining architectures of issue 14. ----
    // HuggingFaceTB/SmolLM3-3B: the official safetensors files hold
    // 4,966,315,264 + 1,183,919,744 bytes (the mirror's model_files.json), i.e.
    // 3.075B bf16 parameters with their headers. Exactly: the tied embedding
    // 128256 x 2048, 36 layers of 78,123,008 (q, o 2048 x 2048; k, v 512 x
    // 2048; MLP 3 x 2048 x 11008; two norms), the final norm. NoPE on every
    // 4th layer changes nothing here. 36 x 2 x 4 x 128 x 2 bytes; tp 2: 2 a rank.
    {"HuggingFaceTB--SmolLM3-3B.json", "smollm3", (4'966'315'264.0 + 1'183'919'744.0) / 2,
     int64_t{128256} * 2048 + 36 * int64_t{78'123'008} + 2048, Kv::kEveryLayer,
     36 * 2 * 4 * 128 * 2, 2, 36 * 2 * 2 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.tie_word_embeddings);  // SmolLM3Config default, not in the file
       EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 36);
     }},
    // baidu/ERNIE-4.5-0.3B-PT (model card: 0.36B parameters): Llama layers,
    // tied. Exactly: embedding 103424 x 1024, 18 layers of 14,157,824 (q 2048
    // x 1024, k, v 256 x 1024, o 1024 x 2048, MLP 3 x 1024 x 3072, two norms),
    // the final norm. 18 x 2 x 2 KV heads x 128 x 2 bytes; tp 4 replicates
    // the 2 heads: 1 a rank.
    {"baidu--ERNIE-4.5-0.3B-PT.json", "ernie4_5", 0.36e9,
     int64_t{103424} * 1024 + 18 * int64_t{14'157'824} + 1024, Kv::kEveryLayer,
     18 * 2 * 2 * 128 * 2, 4, 18 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.tie_word_embeddings);
       EXPECT_FALSE(m.attention_bias);
     }},
    // tencent/Hunyuan-A13B (model card: 80B total, 13B active): 64 routed
    // experts of 3072 (per-layer lists of one value), top-8, one ungated shared
    // MLP of 1 x 3072, per-head q/k norms, tied. 32 x 2 x 8 KV heads x 128
    // (attention_head_dim) x 2 bytes; tp 8: 1 head a rank.
    {"tencent--Hunyuan-A13B.json", "hunyuan_moe", 80e9, 0, Kv::kEveryLayer, 32 * 2 * 8 * 128 * 2,
     8, 32 * 2 * 1 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_EQ(m.num_experts, 64);
       EXPECT_EQ(m.experts_per_token, 8);
       EXPECT_EQ(m.moe_intermediate_size, 3072);
       EXPECT_EQ(m.shared_expert_intermediate_size, 3072);
       EXPECT_FALSE(m.shared_expert_gate);
       EXPECT_EQ(m.NumMoeLayers(), 32);
       EXPECT_TRUE(m.qk_norm);
       EXPECT_TRUE(m.tie_word_embeddings);
     }},
    // tencent/Hy-MT2-7B (HunYuanDenseV1; no published count was found and the
    // name's 7B is too rounded for 1 %): the hand count only, tied embedding 128167 x 4096,
    // 32 layers of 218,112,256 (q, o 4096 x 4096; k, v 1024 x 4096; q/k norms
    // 2 x 128; MLP 3 x 4096 x 14336; two norms), the final norm. 32 x 2 x 8 x
    // 128 x 2 bytes; tp 4: 2 heads a rank.
    {"tencent--Hy-MT2-7B.json", "hunyuan", 0, int64_t{128167} * 4096 + 32 * int64_t{218'112'256} + 4096, Kv::kEveryLayer,
     32 * 2 * 8 * 128 * 2, 4, 32 * 2 * 2 * 128 * 2,
     [](const ModelSpec& m) {
       EXPECT_TRUE(m.qk_norm);
       EXPECT_FALSE(m.IsMoe());
     }},
};

TEST(RealConfigFamilies, EachRowMatchesItsPublishedSizeAndHandKv) {
  for (const FamilyRow& r : kRows) {
    SCOPED_TRACE(r.file);
    ModelSpec m = kvplan::testing::RealConfig(r.file);
    EXPECT_EQ(m.family, r.family);
    const int64_t params = TotalParams(m);
    if (r.exact_params > 0) {
      EXPECT_EQ(params, r.exact_params);
    }
    if (r.published > 0) {
      EXPECT_LT(std::fabs(static_cast<double>(params) - r.published) / r.published, 0.01)
          << params << " vs published " << r.published;
    }
    EXPECT_EQ(KvBytesPerTokenPerRank(m, r.kv, 1), r.kv_tp1);
    EXPECT_GT(r.tp, 1);
    EXPECT_EQ(KvBytesPerTokenPerRank(m, r.kv, r.tp), r.kv_tp);
    r.facts(m);
  }
}

// A dense architecture name with routed experts (MiniCPM-MoE-8x2B) is refused,
// not priced as dense.
TEST(RealConfigFamilies, DenseNameWithExpertsIsRefused) {
  const std::string what = testing::InputErrorOf([&] {
    ParseModelConfig(R"({"architectures":["MiniCPMForCausalLM"],"hidden_size":64,
        "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":128,
        "vocab_size":100,"num_experts":8,"num_experts_per_tok":2})",
                     "t.json");
  });
  EXPECT_NE(what.find("routed experts"), std::string::npos) << what;
}

// OPT-350m's narrower embedding (word_embed_proj_dim 512 under hidden_size 1024, with
// project_in / project_out) is refused by name, not priced as a 1024-wide table (synthetic:
// the shape of that config, two layers).
TEST(RealConfigFamilies, OptNarrowerEmbeddingIsRefused) {
  const std::string what = testing::InputErrorOf([&] {
    ParseModelConfig(R"({"architectures":["OPTForCausalLM"],"hidden_size":1024,
        "num_hidden_layers":2,"num_attention_heads":16,"ffn_dim":4096,"vocab_size":50272,
        "max_position_embeddings":2048,"word_embed_proj_dim":512})",
                     "t.json");
  });
  EXPECT_NE(what.find("\"word_embed_proj_dim\" 512 differs from hidden_size 1024"),
            std::string::npos)
      << what;
}

// kvplan models architectures: every table entry, with its layer kinds; the
// hybrid state-space models and the per-layer-geometry ones listed as refused.
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
  EXPECT_EQ(find("OPTForCausalLM").mlp, "dense (2-matrix)");
  EXPECT_EQ(find("Qwen3NextForCausalLM").layers, "linear (gated delta-net) + full");
  EXPECT_TRUE(find("NemotronHForCausalLM").accepted);
  EXPECT_EQ(find("NemotronHForCausalLM").layers, "linear (mamba2 or mamba-1) + full");
  EXPECT_TRUE(find("KimiLinearForCausalLM").accepted);
  EXPECT_EQ(find("KimiLinearForCausalLM").layers, "linear (kimi delta attention) + mla");
  EXPECT_FALSE(find("RecurrentGemmaForCausalLM").accepted);
  // Each architecture once: a modelled hybrid is not also listed as refused.
  for (const char* name : {"JambaForCausalLM", "FalconH1ForCausalLM", "KimiLinearForCausalLM"}) {
    EXPECT_EQ(std::count_if(rows.begin(), rows.end(),
                            [&](const ArchitectureRow& r) { return r.architecture == name; }),
              1)
        << name;
  }
  EXPECT_EQ(find("Olmo3ForCausalLM").layers, "sliding + full");
  // Layers with their own KV geometry (catalog/layer_geometry.h): modelled.
  EXPECT_TRUE(find("DeciLMForCausalLM").accepted);
  EXPECT_EQ(find("DeciLMForCausalLM").layers, "full (GQA, per-layer KV heads) + no-op");
  EXPECT_TRUE(find("MiMoV2FlashForCausalLM").accepted);
  EXPECT_EQ(find("MiMoV2FlashForCausalLM").layers, "sliding + full, per-kind KV heads, V < K");
}

}  // namespace
}  // namespace kvplan
