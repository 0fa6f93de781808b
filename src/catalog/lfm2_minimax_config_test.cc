// LFM2 (short convolution + GQA) and MiniMax-M1 / Text-01 (lightning attention + GQA) on
// their real config.json (tests/data/real/configs/SOURCES.md): layer kinds, parameters
// against the checkpoints' tensor totals, KV bytes per token and state per request by hand.
#include <gtest/gtest.h>

#include <string>

#include "catalog/architectures.h"
#include "catalog/layer_geometry.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t Lfm2MmParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

int64_t Lfm2MmKvBytes(const ModelSpec& m, int tp) {
  return KvBytesPerTokenOfLayers(m, 0, m.num_layers, tp, 2);
}

// LiquidAI/LFM2-1.2B: 16 layers of 2048, attention at full_attn_idxs 2, 5, 8, 10, 12, 14 (32
// heads, 8 KV heads of 64), short convolution elsewhere; block_ff_dim 12288 auto-adjusted to
// int(2 x 12288 / 3) = 8192 (a multiple of 256). By hand:
//   embedding 65536 x 2048 = 134,217,728 (tied), final norm 2048;
//   every layer: 2 norms 4,096, SwiGLU MLP 3 x 8192 x 2048 = 50,331,648;
//   conv layer: in_proj 3 x 2048 x 2048 = 12,582,912, conv 2048 x 3 = 6,144, out_proj
//     4,194,304: 16,783,360;
//   attention layer: q and o 2 x 2048 x 2048, k and v 2 x 512 x 2048, q/k norms 64 + 64:
//     10,485,888.
// 1,170,340,608 in all: the model.safetensors tensor total of the same mirror
// (model_files.json, "total_parameters": 1170340608).
TEST(Lfm2Minimax, Lfm2OneBillionByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/LiquidAI--LFM2-1.2B.json"));
  EXPECT_EQ(m.family, "lfm2");
  EXPECT_EQ(m.state_kind, StateKind::kShortConv);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 10);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 6);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[2], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[15], LayerKind::kLinear);
  EXPECT_EQ(m.intermediate_size, 8192);
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.head_dim, 64);
  const int64_t every = 4'096 + 50'331'648, conv = 16'783'360, attn = 10'485'888;
  const int64_t expected = 134'217'728 + 2'048 + 16 * every + 10 * conv + 6 * attn;
  EXPECT_EQ(expected, 1'170'340'608);
  EXPECT_EQ(Lfm2MmParams(m), expected);
  // KV: 6 layers x K and V x 8 heads x 64 x 2 B = 12,288 B per token; 4 heads a rank at TP 2.
  EXPECT_EQ(Lfm2MmKvBytes(m, 1), 12'288);
  EXPECT_EQ(Lfm2MmKvBytes(m, 2), 6'144);
  // State: a conv window of 2048 / tp channels x (conv_L_cache 3 - 1) per conv layer, no
  // recurrent state: TP 1 4,096 elements, bf16 8,192 B a layer, 81,920 B for 10 layers.
  HybridState s1 = HybridStateShapes(m, 1);
  EXPECT_EQ(s1.layers, 10);
  EXPECT_EQ(s1.shape.ConvElements(), 2048 * 2);
  EXPECT_EQ(s1.shape.TemporalElements(), 0);
  EXPECT_EQ(s1.BytesPerRequest(2, 4), 81'920);
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 4), 40'960);
  EXPECT_THROW(HybridStateShapes(m, 3), InputError);  // divide(2048, 3) asserts
}

std::string Lfm2Config(const std::string& extra) {
  return R"({"architectures": ["Lfm2ForCausalLM"], "vocab_size": 1024, "hidden_size": 256,
    "num_hidden_layers": 4, "num_attention_heads": 4, "num_key_value_heads": 2)" +
         extra + "}";
}

// Lfm2Config's rules on a synthetic config: layer_types wins over full_attn_idxs, every layer
// is attention without either; the MLP width with a multiplier and without the adjustment;
// tie_embedding; a conv_dim other than hidden_size is refused.
TEST(Lfm2Minimax, Lfm2ConfigRules) {
  ModelSpec plain = ParseModelConfig(Lfm2Config(""), "synthetic");
  EXPECT_EQ(plain.NumLayersOfKind(LayerKind::kFull), 4);
  // Lfm2Config's default intermediate_size 12288: int(2 x 12288 / 3) = 8192.
  EXPECT_EQ(plain.intermediate_size, 8192);
  ModelSpec typed =
      ParseModelConfig(Lfm2Config(R"(, "layer_types": ["conv", "full_attention", "conv", "conv"],
        "full_attn_idxs": [0, 1, 2, 3])"),
                       "synthetic");
  EXPECT_EQ(typed.NumLayersOfKind(LayerKind::kLinear), 3);
  EXPECT_EQ(typed.layer_kinds[1], LayerKind::kFull);
  // int(2 x 1000 / 3) = 666, x 1.5 = 999, up to a multiple of 64: 1024.
  ModelSpec mult =
      ParseModelConfig(Lfm2Config(R"(, "block_ff_dim": 1000, "block_ffn_dim_multiplier": 1.5,
        "block_multiple_of": 64)"),
                       "synthetic");
  EXPECT_EQ(mult.intermediate_size, 1024);
  ModelSpec raw =
      ParseModelConfig(Lfm2Config(R"(, "intermediate_size": 1000, "block_auto_adjust_ff_dim": false,
        "tie_embedding": false)"),
                       "synthetic");
  EXPECT_EQ(raw.intermediate_size, 1000);
  EXPECT_FALSE(raw.tie_word_embeddings);
  EXPECT_THROW(ParseModelConfig(Lfm2Config(R"(, "conv_dim": 512)"), "synthetic"), InputError);
  EXPECT_THROW(ParseModelConfig(Lfm2Config(R"(, "layer_types": ["conv", "mamba", "conv",
    "conv"])"),
                                "synthetic"),
               InputError);
}

// MiniMaxAI/MiniMax-M1 (the GitHub repository's config.json): 80 layers of 6144, attn_type_list
// 0 (lightning) on 70 layers and 1 (softmax, 64 heads, 8 KV heads of 128) on every 8th; 32
// experts of 9216, top 2, in every layer; vocabulary 200064, untied. By hand:
//   embedding and lm_head 2 x 200064 x 6144 = 2,458,386,432, final norm 6,144;
//   every layer: 2 norms 12,288, experts 32 x 3 x 9216 x 6144 = 5,435,817,984, gate 32 x 6144
//     = 196,608: 5,436,026,880;
//   lightning: qkv 3 x 8192 x 6144 = 150,994,944, output_gate and out_proj 8192 x 6144 each,
//     norm 8192: 251,666,432;
//   softmax: q and o 2 x 8192 x 6144, k and v 2 x 1024 x 6144: 113,246,208.
// 456,089,655,296 in all (the model card's 456 B). Its model.safetensors.index.json says
// total_size 912,210,767,872 B: twice the parameters plus 80 float32 gates' second halves
// (80 x 196,608 x 2 B), which the weight bytes reproduce.
TEST(Lfm2Minimax, MiniMaxM1ByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/MiniMaxAI--MiniMax-M1.github.json"));
  EXPECT_EQ(m.family, "minimax_text_01");
  EXPECT_EQ(m.state_kind, StateKind::kLightning);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 70);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 10);
  EXPECT_EQ(m.layer_kinds[6], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[7], LayerKind::kFull);
  EXPECT_EQ(m.num_experts, 32);
  EXPECT_EQ(m.experts_per_token, 2);
  const int64_t every = 12'288 + 5'435'817'984 + 196'608, light = 251'666'432;
  const int64_t soft = 113'246'208;
  const int64_t expected = 2'458'386'432 + 6'144 + 80 * every + 70 * light + 10 * soft;
  EXPECT_EQ(expected, 456'089'655'296);
  const WeightEstimate w = EstimateWeights(m, {});
  EXPECT_EQ(w.total_params, expected);
  EXPECT_EQ(w.total_bytes, 2 * expected + 80 * 196'608 * 2);
  EXPECT_EQ(w.total_bytes, 912'210'767'872);
  // KV: 10 layers x K and V x 8 heads x 128 x 2 B = 40,960 B per token; one head a rank at 8.
  EXPECT_EQ(Lfm2MmKvBytes(m, 1), 40'960);
  EXPECT_EQ(Lfm2MmKvBytes(m, 8), 5'120);
  // State: (64 / tp, 128, 128) per lightning layer and no conv window: TP 1 1,048,576
  // elements, 2 B each (vLLM's "auto" --mamba-cache-dtype, the model dtype): 146,800,640 B
  // for 70 layers; TP 8: 8 heads, 18,350,080 B.
  HybridState s1 = HybridStateShapes(m, 1);
  EXPECT_EQ(s1.layers, 70);
  EXPECT_EQ(s1.shape.ConvElements(), 0);
  EXPECT_EQ(s1.shape.TemporalElements(), 64 * 128 * 128);
  EXPECT_EQ(s1.BytesPerRequest(2, 2), 146'800'640);
  EXPECT_EQ(HybridStateShapes(m, 8).BytesPerRequest(2, 2), 18'350'080);
}

// MiniMax-Text-01's geometry is M1's (the M1 card: "developed based on our previous
// MiniMax-Text-01 model"); no public copy of its config.json was found, so this synthetic
// config keeps the fields the reader needs under its architecture name, and checks the
// fallbacks: layer_types when attn_type_list is absent, a shared expert refused.
TEST(Lfm2Minimax, MiniMaxText01Layers) {
  auto config = [](const std::string& extra) {
    return R"({"architectures": ["MiniMaxText01ForCausalLM"], "vocab_size": 1024,
      "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
      "num_key_value_heads": 2, "head_dim": 64, "intermediate_size": 512,
      "num_local_experts": 4, "num_experts_per_tok": 2)" +
           extra + "}";
  };
  ModelSpec listed = ParseModelConfig(config(R"(, "attn_type_list": [0, 1])"), "synthetic");
  EXPECT_EQ(listed.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(listed.layer_kinds[1], LayerKind::kFull);
  EXPECT_EQ(HybridStateShapes(listed, 2).shape.TemporalElements(), 2 * 64 * 64);
  ModelSpec typed = ParseModelConfig(
      config(R"(, "layer_types": ["linear_attention", "full_attention"])"), "synthetic");
  EXPECT_EQ(typed.NumLayersOfKind(LayerKind::kLinear), 1);
  EXPECT_EQ(ParseModelConfig(config(""), "synthetic").NumLayersOfKind(LayerKind::kFull), 2);
  EXPECT_THROW(ParseModelConfig(config(R"(, "attn_type_list": [0, 2])"), "synthetic"), InputError);
  EXPECT_THROW(ParseModelConfig(config(R"(, "shared_intermediate_size": 128)"), "synthetic"),
               InputError);
}

// Both are planned, so neither is listed among the refused hybrids.
TEST(Lfm2Minimax, ListedOnceAsModelled) {
  for (const char* name : {"Lfm2ForCausalLM", "MiniMaxText01ForCausalLM", "MiniMaxM1ForCausalLM"}) {
    EXPECT_TRUE(UnmodelledStateArchitecture(name).empty()) << name;
    int rows = 0;
    for (const ArchitectureRow& r : ArchitectureRows()) {
      if (r.architecture == name) {
        ++rows;
        EXPECT_TRUE(r.accepted) << name;
      }
    }
    EXPECT_EQ(rows, 1) << name;
  }
}

}  // namespace
}  // namespace kvplan
