// The pure state-space families (Mamba-1, Mamba2), each on a config.json of
// tests/data/real/configs/ (SOURCES.md): no attention layer and no MLP, the parameter
// count within 1 % of the published size and the state bytes per request per rank, by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/architectures.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t SsmParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

double RelativeError(int64_t got, double published) {
  return std::fabs(static_cast<double>(got) - published) / published;
}

bool NoLayerHasAnMlp(const ModelSpec& m) {
  for (bool has : m.layer_has_mlp) {
    if (has) return false;
  }
  return static_cast<int>(m.layer_has_mlp.size()) == m.num_layers;
}

// state-spaces/mamba2-780m: "780m" by the name. 48 layers of hidden 1536, read by model_type
// (the config has no architectures). By hand: intermediate 2 x 1536 = 3072 = 48 heads x 64;
// conv_dim 3072 + 2 x 1 group x 128 = 3328;
//   in_proj (3072 + 3328 + 48) x 1536 = 9,904,128, out_proj 1536 x 3072 = 4,718,592, conv1d
//   3328 x 4 + 3328 bias = 16,640, dt_bias / A_log / D 3 x 48 = 144, gated norm 3072, the
//   layer's norm 1536: 14,644,112 a layer;
//   embedding 50288 x 1536 = 77,242,368, tied (tie_word_embeddings true); final norm 1536.
TEST(SsmFamilies, Mamba2_780mByHand) {
  ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/state-spaces--mamba2-780m.quoted.json"));
  EXPECT_EQ(m.architecture, "Mamba2ForCausalLM");
  EXPECT_EQ(m.family, "mamba2");
  EXPECT_EQ(m.state_kind, StateKind::kMamba2);
  EXPECT_EQ(m.num_layers, 48);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 48);
  EXPECT_TRUE(NoLayerHasAnMlp(m));
  EXPECT_EQ(m.mamba_intermediate_size, 3072);
  EXPECT_EQ(m.mamba_n_groups, 1);
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.max_position_embeddings, 0);  // the engines' default context applies
  const int64_t layer = 9'904'128 + 4'718'592 + 16'640 + 144 + 3072 + 1536;
  EXPECT_EQ(layer, 14'644'112);
  const int64_t expected = 48 * layer + int64_t{50288} * 1536 + 1536;
  EXPECT_EQ(expected, 780'161'280);
  EXPECT_EQ(SsmParams(m), expected);
  EXPECT_LT(RelativeError(SsmParams(m), 780e6), 0.01);
  // State (vLLM mamba_utils.py mamba2_state_shape @v0.11.0, SGLang Mamba2StateShape.create):
  // conv (3328, 3), SSM (48, 64, 128); bf16 conv + float32 SSM: (9,984 x 2 + 393,216 x 4) x 48
  // = 76,455,936 B. TP 2 extends the one group to two: conv_dim 3072 + 2 x 2 x 128 = 3584,
  // 1792 channels a rank, 24 heads: (5,376 x 2 + 196,608 x 4) x 48 = 38,264,832 B.
  HybridState s = HybridStateShapes(m, 1);
  EXPECT_EQ(s.layers, 48);
  EXPECT_EQ(s.shape.ConvElements(), 3328 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 48 * 64 * 128);
  EXPECT_EQ(s.BytesPerRequest(2, 4), 76'455'936);
  HybridState s2 = HybridStateShapes(m, 2);
  EXPECT_EQ(s2.shape.conv_channels, 1792);
  EXPECT_EQ(s2.shape.heads, 24);
  EXPECT_EQ(s2.BytesPerRequest(2, 4), 38'264'832);
  // 48 heads do not split over 5 ranks: both engines assert.
  EXPECT_THROW(HybridStateShapes(m, 5), InputError);
}

// state-spaces/mamba-130m-hf: "130m" by the name. 24 Mamba-1 layers of hidden 768. By hand:
// intermediate 1536, dt rank 48, state 16, kernel 4;
//   in_proj 2 x 1536 x 768 = 2,359,296, out_proj 768 x 1536 = 1,179,648, conv1d 1536 x 4 +
//   1536 bias = 7,680, x_proj (48 + 2 x 16) x 1536 = 122,880, dt_proj 1536 x 48 + 1536 bias =
//   75,264, A_log 1536 x 16 = 24,576, D 1536, the layer's norm 768: 3,771,648 a layer;
//   embedding 50280 x 768 = 38,615,040, tied (MambaConfig's PretrainedConfig default); final
//   norm 768.
TEST(SsmFamilies, Mamba130mByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/state-spaces--mamba-130m-hf.json"));
  EXPECT_EQ(m.architecture, "MambaForCausalLM");
  EXPECT_EQ(m.family, "mamba");
  EXPECT_EQ(m.state_kind, StateKind::kMamba1);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 24);
  EXPECT_TRUE(NoLayerHasAnMlp(m));
  EXPECT_EQ(m.mamba_intermediate_size, 1536);
  EXPECT_EQ(m.intermediate_size, 0);  // the config's intermediate_size is the mixer's width
  EXPECT_EQ(m.mamba_dt_rank, 48);
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.dtype_bytes, 2);  // float32 checkpoint, served in 16 bits by --dtype auto
  const int64_t layer = 2'359'296 + 1'179'648 + 7'680 + 122'880 + 75'264 + 24'576 + 1536 + 768;
  EXPECT_EQ(layer, 3'771'648);
  const int64_t expected = 24 * layer + int64_t{50280} * 768 + 768;
  EXPECT_EQ(expected, 129'135'360);
  EXPECT_EQ(SsmParams(m), expected);
  EXPECT_LT(RelativeError(SsmParams(m), 130e6), 0.01);
  // State (vLLM mamba1_state_shape @v0.11.0): conv (1536, 3), SSM (1536, 16); all bf16:
  // (4,608 + 24,576) x 2 x 24 = 1,400,832 B at TP 1, half at TP 2.
  HybridState s = HybridStateShapes(m, 1);
  EXPECT_EQ(s.layers, 24);
  EXPECT_EQ(s.shape.ConvElements(), 1536 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 1536 * 16);
  EXPECT_EQ(s.BytesPerRequest(2, 2), 1'400'832);
  EXPECT_EQ(HybridStateShapes(m, 2).BytesPerRequest(2, 2), 1'400'832 / 2);
}

// The Transformers config classes' defaults fill what a config omits: Mamba2Config is
// Mamba-Codestral-7B's geometry (128 heads of 64, 8 groups, state 128, kernel 4, expand 2),
// MambaConfig state 16, kernel 4, expand 2 and time_step_rank "auto" (ceil(hidden / 16)).
// Synthetic configs of a few keys.
TEST(SsmFamilies, ConfigClassDefaults) {
  ModelSpec m2 = ParseModelConfig(
      R"({"architectures": ["Mamba2ForCausalLM"], "hidden_size": 4096, "num_hidden_layers": 64,
          "vocab_size": 32768})",
      "synthetic-mamba2");
  EXPECT_EQ(m2.mamba_num_heads, 128);
  EXPECT_EQ(m2.mamba_head_dim, 64);
  EXPECT_EQ(m2.mamba_n_groups, 8);
  EXPECT_EQ(m2.mamba_state_size, 128);
  EXPECT_EQ(m2.mamba_conv_kernel, 4);
  EXPECT_EQ(m2.mamba_intermediate_size, 8192);
  EXPECT_FALSE(m2.tie_word_embeddings);  // Mamba2Config(tie_word_embeddings=False)
  ModelSpec m1 = ParseModelConfig(
      R"({"architectures": ["MambaForCausalLM"], "hidden_size": 2560, "num_hidden_layers": 64,
          "vocab_size": 50280})",
      "synthetic-mamba");
  EXPECT_EQ(m1.mamba_state_size, 16);
  EXPECT_EQ(m1.mamba_conv_kernel, 4);
  EXPECT_EQ(m1.mamba_intermediate_size, 5120);
  EXPECT_EQ(m1.mamba_dt_rank, 160);
  EXPECT_TRUE(m1.tie_word_embeddings);
}

// Both are in the table now, not refused as unmodelled state; `kvplan models` lists them.
TEST(SsmFamilies, ListedAsAccepted) {
  EXPECT_TRUE(UnmodelledStateArchitecture("MambaForCausalLM").empty());
  EXPECT_TRUE(UnmodelledStateArchitecture("Mamba2ForCausalLM").empty());
  int found = 0;
  for (const ArchitectureRow& r : ArchitectureRows()) {
    if (r.architecture == "MambaForCausalLM" || r.architecture == "Mamba2ForCausalLM") {
      ++found;
      EXPECT_TRUE(r.accepted);
      EXPECT_EQ(r.layers, "linear (mamba2 or mamba-1) only, no attention");
      EXPECT_EQ(r.mlp, "none");
    }
  }
  EXPECT_EQ(found, 2);
}

// RecurrentGemma is served by no engine release kvplan models: refused in the registry's
// words, not as unmodelled state. PLaMo-2, which vLLM serves, is read (plamo2_config_test.cc).
TEST(SsmFamilies, UnservedArchitectureRefusedInTheRegistrysWords) {
  const std::string what = testing::InputErrorOf([&] {
    ParseModelConfig(R"({"architectures": ["RecurrentGemmaForCausalLM"], "hidden_size": 2560})",
                     "synthetic-recurrentgemma");
  });
  EXPECT_NE(what.find("served by no engine release kvplan models"), std::string::npos) << what;
  EXPECT_NE(what.find("Model architectures ['RecurrentGemmaForCausalLM'] are not supported for "
                      "now."),
            std::string::npos)
      << what;
  EXPECT_FALSE(UnservedArchitectureReason("RecurrentGemmaForCausalLM").empty());
  EXPECT_TRUE(UnservedArchitectureReason("Plamo2ForCausalLM").empty());
  EXPECT_TRUE(UnmodelledStateArchitecture("Plamo2ForCausalLM").empty());
}

}  // namespace
}  // namespace kvplan
