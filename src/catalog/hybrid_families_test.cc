// The state-space hybrid families beyond Qwen3-Next and Granite-4.0-H, each on a
// config.json (tests/data/real/configs/SOURCES.md, or tests/data/synthetic/ where
// none was reachable): its parameter count within 1 % of the published size, and
// its KV bytes per token and state bytes per request per rank by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "catalog/architectures.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t HybridParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

void ExpectWithin1Percent(int64_t got, double published, const std::string& what) {
  EXPECT_LT(std::fabs(static_cast<double>(got) - published) / published, 0.01)
      << what << ": " << got << " vs published " << published;
}

int CountTrue(const std::vector<bool>& v) {
  return static_cast<int>(std::count(v.begin(), v.end(), true));
}

// nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16: "31.6B total parameters" (model card).
// hybrid_override_pattern MEMEM*EMEMEM*E...: 23 Mamba2 blocks, 6 attention blocks, 23 MoE
// blocks, each MoE block after a mixer, so 29 layers of which 6 (the Mamba2 blocks before
// each attention block) carry no MLP. By hand, hidden 2688:
//   Mamba2 mixer: intermediate 64 x 64 = 4096, conv_dim 4096 + 2 x 8 x 128 = 6144;
//     in_proj (4096 + 6144 + 64) x 2688 = 27,697,152, out_proj 11,010,048, conv1d
//     6144 x 4 + 6144 bias = 30,720, dt_bias/A_log/D 192, gated norm 4096: 38,742,208.
//   attention: q 4096 x 2688 x 2 (with o) + k, v 256 x 2688 x 2 = 23,396,352.
//   MoE: 128 experts x 2 x 1856 x 2688 = 1,277,165,568, shared 2 x 3712 x 2688 =
//     19,955,712, router 128 x 2688 + 128 (float32 correction bias): 1,297,465,472.
//   norms: 2 x 2688 in the 23 layers with an MLP, 2688 in the 6 without, one final.
//   embedding and lm_head (untied) 131072 x 2688 each.
TEST(HybridFamilies, Nemotron3NanoByHand) {
  ModelSpec m = LoadModel(
      kvplan::testing::RealData("configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"));
  EXPECT_EQ(m.family, "nemotron_h");
  EXPECT_EQ(m.state_kind, StateKind::kMamba2);
  EXPECT_EQ(m.num_layers, 29);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 23);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 6);
  EXPECT_EQ(CountTrue(m.layer_has_mlp), 23);
  EXPECT_EQ(CountTrue(m.layer_is_moe), 23);
  EXPECT_EQ(m.mamba_intermediate_size, 4096);
  EXPECT_FALSE(m.gated_mlp);
  EXPECT_EQ(m.config_ssm_dtype, "float32");
  const int64_t mixer = 38'742'208, attention = 23'396'352, moe = 1'297'465'472;
  const int64_t expected = 2 * int64_t{131072} * 2688 + 23 * mixer + 6 * attention + 23 * moe +
                           23 * 2 * 2688 + 6 * 2688 + 2688;
  EXPECT_EQ(expected, 31'577'940'288);
  EXPECT_EQ(HybridParams(m), expected);
  ExpectWithin1Percent(HybridParams(m), 31.6e9, "Nemotron-3-Nano-30B-A3B");
  // KV: 6 attention layers x K,V x 2 KV heads x 128 x 2 B = 6,144 B per token at TP 1;
  // one head a rank at TP 2.
  EXPECT_EQ(6 * 2 * m.num_kv_heads * m.head_dim * 2, 6144);
  // State per request, bf16 conv and float32 SSM: TP 1 conv 6144 x 3 x 2 = 36,864 B, SSM
  // 64 x 64 x 128 x 4 = 2,097,152 B, 2,134,016 B a layer, 49,082,368 B for 23 layers; TP 2
  // (8 groups split evenly) halves both.
  HybridState s1 = HybridStateShapes(m, 1);
  EXPECT_EQ(s1.layers, 23);
  EXPECT_EQ(s1.conv_dim, 6144);
  EXPECT_EQ(s1.BytesPerRequest(2, 4), 49'082'368);
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 4), 24'541'184);
}

// An MLP block with no mixer before it cannot be folded; an unknown block letter is refused.
TEST(HybridFamilies, NemotronPatternRefusals) {
  auto config = [](const std::string& pattern) {
    return std::string(R"({"architectures": ["NemotronHForCausalLM"], "vocab_size": 1024,
      "hidden_size": 256, "num_hidden_layers": )") +
           std::to_string(pattern.size()) + R"(, "num_attention_heads": 4,
      "num_key_value_heads": 2, "head_dim": 64, "intermediate_size": 512,
      "hybrid_override_pattern": ")" +
           pattern + R"(", "mamba_num_heads": 8, "mamba_head_dim": 32, "ssm_state_size": 16,
      "n_groups": 2, "conv_kernel": 4})";
  };
  EXPECT_NO_THROW(ParseModelConfig(config("M-*-"), "synthetic"));
  EXPECT_EQ(ParseModelConfig(config("M-*-"), "synthetic").num_layers, 2);
  EXPECT_THROW(ParseModelConfig(config("-M*"), "synthetic"), InputError);
  EXPECT_THROW(ParseModelConfig(config("M--*"), "synthetic"), InputError);
  EXPECT_THROW(ParseModelConfig(config("MX*"), "synthetic"), InputError);
}

// Bamba (synthetic, inline: no real config was reachable): the attn_layer_indices layers
// attend, the others are Mamba2 mixers of mamba_expand x hidden channels; every layer has a
// SwiGLU MLP. By hand, hidden 256, 4 layers, attention at 1 and 3: Mamba2 of 512 channels, 8
// heads x 64, state 16, 1 group: conv_dim 512 + 2 x 16 = 544, in_proj (512 + 544 + 8) x 256,
// out_proj 256 x 512, conv1d 544 x 4 + 544, 3 x 8, norm 512 = 406,712; attention (4 heads,
// 2 KV heads of 64) 2 x 256 x 256 + 2 x 128 x 256 = 196,608; MLP 3 x 512 x 256 = 393,216;
// two norms a layer; tied embedding 1024 x 256 and a final norm.
TEST(HybridFamilies, BambaAttentionIndices) {
  const std::string config = R"({"architectures": ["BambaForCausalLM"], "vocab_size": 1024,
    "hidden_size": 256, "num_hidden_layers": 4, "num_attention_heads": 4,
    "num_key_value_heads": 2, "intermediate_size": 512, "attn_layer_indices": [1, 3],
    "mamba_n_heads": 8, "mamba_d_head": 64, "mamba_d_state": 16, "mamba_n_groups": 1,
    "mamba_d_conv": 4, "mamba_expand": 2, "tie_word_embeddings": true})";
  ModelSpec m = ParseModelConfig(config, "synthetic bamba");
  EXPECT_EQ(m.family, "bamba");
  ASSERT_EQ(m.layer_kinds.size(), 4u);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[1], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[3], LayerKind::kFull);
  EXPECT_EQ(HybridParams(m),
            2 * int64_t{406'712} + 2 * 196'608 + 4 * 393'216 + 4 * 2 * 256 + 1024 * 256 + 256);
  // State at TP 1 in bf16 conv / float32 SSM: 2 x (544 x 3 x 2 + 8 x 64 x 16 x 4).
  EXPECT_EQ(HybridStateShapes(m, 1).BytesPerRequest(2, 4), 2 * (544 * 3 * 2 + 8 * 64 * 16 * 4));
  EXPECT_THROW(ParseModelConfig(std::string(config).replace(config.find("[1, 3]"), 6, "[1, 4]"),
                                "synthetic bamba"),
               InputError);
}

// tiiuae/Falcon-H1-7B-Instruct (synthetic config of its published fields, see
// tests/data/synthetic/hybrid/README.md): 15,182,220,635 checkpoint bytes, ~7.59e9 bf16
// parameters. Each of the 44 decoder layers is two kvplan layers: attention (q 1536 x 3072,
// o 3072 x 1536, k and v 256 x 3072: 11,010,048) with the SwiGLU MLP (3 x 12288 x 3072 =
// 113,246,208) and both norms (2 x 3072), and the Mamba2 mixer alone: intermediate 3072,
// conv_dim 3072 + 2 x 256 = 3584, in_proj (3072 + 3584 + 24) x 3072 = 20,520,960, out_proj
// 9,437,184, conv1d 3584 x 4 + 3584, dt_bias/A_log/D 72, no gated norm (mamba_rms_norm
// false): 29,976,136. Embedding and lm_head 130048 x 3072 each, final norm.
TEST(HybridFamilies, FalconH1SevenBByHand) {
  ModelSpec m = LoadModel(kvplan::testing::SyntheticData("hybrid/falcon-h1-7b-synthetic.json"));
  EXPECT_EQ(m.family, "falcon_h1");
  EXPECT_EQ(m.num_layers, 88);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 44);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 44);
  EXPECT_EQ(m.mamba_intermediate_size, 3072);
  EXPECT_FALSE(m.mamba_gated_norm);
  const int64_t layer = 11'010'048 + 29'976'136 + 113'246'208 + 2 * 3072;
  EXPECT_EQ(HybridParams(m), 44 * layer + 2 * int64_t{130048} * 3072 + 3072);
  ExpectWithin1Percent(HybridParams(m), 15'182'220'635 / 2.0, "Falcon-H1-7B");
  // KV: every decoder layer attends: 44 x K,V x 2 heads x 128 x 2 B = 45,056 B per token.
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull) * 2 * m.num_kv_heads * m.head_dim * 2, 45056);
  // State at TP 1: conv 3584 x 3 x 2 B, SSM 24 x 128 x 256 x 4 B, 44 layers = 139,358,208 B.
  // At TP 2 the single group is replicated: conv_dim 3072 + 2 x 2 x 256 = 4096, 2048 a rank.
  EXPECT_EQ(HybridStateShapes(m, 1).BytesPerRequest(2, 4), 139'358'208);
  HybridState s2 = HybridStateShapes(m, 2);
  EXPECT_EQ(s2.conv_dim, 4096);
  EXPECT_EQ(s2.BytesPerRequest(2, 4), 44 * (2048 * 3 * 2 + 12 * 128 * 256 * 4));
}

// ai21labs/AI21-Jamba-1.5-Mini: "12B active and 52B total parameters" (model card). 32
// layers, attention at i % 8 == 4 (4 layers), routed experts at i % 2 == 1 (16 layers). By
// hand, hidden 4096: Mamba-1 mixer of 8192 channels, dt rank 256, state 16: in_proj 2 x 8192
// x 4096, out_proj 4096 x 8192, conv1d 8192 x 4 + 8192, x_proj (256 + 32) x 8192, dt_proj
// 8192 x 256 + 8192, A_log 8192 x 16, D 8192, dt/B/C norms 256 + 16 + 16 = 105,308,448;
// attention 41,943,040; SwiGLU MLP 3 x 14336 x 4096 = 176,160,768; 16 experts of it plus a
// router 16 x 4096 = 2,818,637,824; two norms a layer; embedding and lm_head 65536 x 4096.
TEST(HybridFamilies, Jamba15MiniByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/ai21labs--AI21-Jamba-1.5-Mini.json"));
  EXPECT_EQ(m.family, "jamba");
  EXPECT_EQ(m.state_kind, StateKind::kMamba1);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 4);
  EXPECT_EQ(m.layer_kinds[4], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[12], LayerKind::kFull);
  EXPECT_EQ(CountTrue(m.layer_is_moe), 16);
  EXPECT_TRUE(m.layer_is_moe[1]);
  EXPECT_FALSE(m.layer_is_moe[0]);
  const int64_t expected = 28 * int64_t{105'308'448} + 4 * int64_t{41'943'040} +
                           16 * int64_t{176'160'768} + 16 * int64_t{2'818'637'824} + 32 * 2 * 4096 +
                           2 * int64_t{65536} * 4096 + 4096;
  EXPECT_EQ(expected, 51'570'323'328);
  EXPECT_EQ(HybridParams(m), expected);
  ExpectWithin1Percent(HybridParams(m), 52e9, "Jamba-1.5-Mini");
  // KV: 4 layers x K,V x 8 heads x 128 x 2 B = 16,384 B per token at TP 1.
  EXPECT_EQ(4 * 2 * m.num_kv_heads * m.head_dim * 2, 16384);
  // State: conv (8192, 3), SSM (8192, 16) per layer; 28 layers in bf16 = 8,716,288 B at TP 1;
  // TP 2 halves the channels.
  HybridState s = HybridStateShapes(m, 1);
  EXPECT_EQ(s.layers, 28);
  EXPECT_EQ(s.shape.ConvElements(), 8192 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 8192 * 16);
  EXPECT_EQ(s.BytesPerRequest(2, 2), 8'716'288);
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 2), 8'716'288 / 2);
}

// moonshotai/Kimi-Linear-48B-A3B-Instruct: "48B total" by the name; the checkpoint's tensors
// (tests/data/real/configs/SOURCES.md) hold 49,122,681,728 parameters, which the hand count
// below reproduces (the name is 2.3 % below it). 27 layers: the kda_layers (1-based) are Kimi
// delta attention, layers 4, 8, ..., 24 and 27 MLA; layer 0 has a dense MLP, the 26 others
// experts. By hand, hidden 2304, 32 KDA heads of 128 (proj 4096), kernel 4:
//   KDA: q/k/v 3 x 4096 x 2304 = 28,311,552, conv1d 3 x 4096 x 4 = 49,152, f_a and g_a 128 x
//     2304 each, f_b and g_b 4096 x 128 each (1,638,400), b_proj 32 x 2304 = 73,728, A_log 32,
//     dt_bias 4096, o_norm 128, o_proj 2304 x 4096 = 9,437,184: 39,514,272.
//   MLA (no q_lora): q 32 x 192 x 2304 = 14,155,776, kv_a 576 x 2304 = 1,327,104, its norm 512,
//     kv_b 32 x 256 x 512 = 4,194,304, o 9,437,184: 29,114,880.
//   dense MLP 3 x 9216 x 2304 = 63,700,992; MoE 256 x 3 x 1024 x 2304 = 1,811,939,328, router
//     256 x 2304 + 256 (e_score_correction_bias), shared 3 x 1024 x 2304: 1,819,607,296.
//   two norms a layer, a final norm; embedding and lm_head (untied) 163840 x 2304 each.
TEST(HybridFamilies, KimiLinear48BByHand) {
  ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/moonshotai--Kimi-Linear-48B-A3B-Instruct.json"));
  EXPECT_EQ(m.family, "kimi_linear");
  EXPECT_EQ(m.state_kind, StateKind::kGatedDeltaNet);  // a gated delta rule, nk = nv
  EXPECT_EQ(m.attention, AttentionKind::kMla);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 20);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 7);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[3], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[26], LayerKind::kFull);
  EXPECT_EQ(CountTrue(m.layer_is_moe), 26);
  EXPECT_FALSE(m.layer_is_moe[0]);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.num_shared_experts, 1);
  // model_max_length, which both engines read without max_position_embeddings; NoPE MLA
  // builds no rotary table.
  EXPECT_EQ(m.max_position_embeddings, 1048576);
  EXPECT_EQ(m.rope_cache_elements, 0);
  const int64_t kda = 39'514'272, mla = 29'114'880, dense = 63'700'992, moe = 1'819'607'296;
  const int64_t expected =
      20 * kda + 7 * mla + dense + 26 * moe + 27 * 2 * 2304 + 2304 + 2 * int64_t{163840} * 2304;
  EXPECT_EQ(expected, 49'122'681'728);
  EXPECT_EQ(HybridParams(m), expected);
  // KV: 7 MLA layers x (512 + 64) x 2 B = 8,064 B per token, the same on every rank.
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull) * (m.kv_lora_rank + m.qk_rope_head_dim) * 2, 8064);
  // State, bf16 conv and float32 recurrent: TP 1 conv 3 x 4096 x 3 x 2 = 73,728 B, recurrent
  // 32 x 128 x 128 x 4 = 2,097,152 B, 2,170,880 B a layer, 43,417,600 B for 20 layers; TP 4 a
  // quarter of both (8 heads a rank); TP 3 does not divide the 32 heads.
  HybridState s1 = HybridStateShapes(m, 1);
  EXPECT_EQ(s1.layers, 20);
  EXPECT_EQ(s1.conv_dim, 3 * 4096);
  EXPECT_EQ(s1.shape.ConvElements(), 3 * 4096 * 3);
  EXPECT_EQ(s1.shape.TemporalElements(), 32 * 128 * 128);
  EXPECT_EQ(s1.BytesPerRequest(2, 4), 43'417'600);
  EXPECT_EQ(HybridStateShapes(m, 4).BytesPerRequest(2, 4),
            20 * (3 * 1024 * 3 * 2 + 8 * 128 * 128 * 4));
  EXPECT_THROW(HybridStateShapes(m, 3), InputError);
}

// A kda_layers entry outside 1..num_hidden_layers (the list is 1-based) is refused.
TEST(HybridFamilies, KimiLinearLayerListsAreOneBased) {
  auto config = [](const std::string& kda) {
    return R"({"architectures": ["KimiLinearForCausalLM"], "vocab_size": 1024,
      "hidden_size": 256, "num_hidden_layers": 2, "num_attention_heads": 4,
      "intermediate_size": 512, "kv_lora_rank": 64, "qk_nope_head_dim": 32,
      "qk_rope_head_dim": 16, "v_head_dim": 32, "q_lora_rank": null,
      "linear_attn_config": {"kda_layers": )" +
           kda + R"(, "full_attn_layers": [2], "num_heads": 4, "head_dim": 32,
      "short_conv_kernel_size": 4}})";
  };
  ModelSpec m = ParseModelConfig(config("[1]"), "synthetic");
  ASSERT_EQ(m.layer_kinds.size(), 2u);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.layer_kinds[1], LayerKind::kFull);
  EXPECT_EQ(m.num_experts, 0);
  EXPECT_THROW(ParseModelConfig(config("[0]"), "synthetic"), InputError);
  EXPECT_THROW(ParseModelConfig(config("[3]"), "synthetic"), InputError);
}

}  // namespace
}  // namespace kvplan
