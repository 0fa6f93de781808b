// Architectures added as plain table entries of existing layer kinds (issue 14, models5), each
// on a real config.json of tests/data/real/configs/ (SOURCES.md): the parameter count by hand
// and within 1 % of the published size, the KV bytes per token per rank (or, for a pure
// state-space model, the state bytes per request per rank) by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/architectures.h"
#include "catalog/engine_support.h"
#include "catalog/layer_geometry.h"
#include "catalog/model.h"
#include "catalog/state_shapes.h"
#include "catalog/weights.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

int64_t Models5Params(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

double Models5Error(int64_t got, double published) {
  return std::fabs(static_cast<double>(got) - published) / published;
}

// tiiuae/falcon-mamba-7b: 7.27B (model card). 64 Mamba-1 layers of hidden 4096, the config's
// intermediate_size 8192 (not expand 16 x hidden: FalconMambaConfig's kwargs override the
// derived width, as MambaConfig's do), time_step_rank 256, state 16, kernel 4, untied. By hand:
//   in_proj 2 x 8192 x 4096 = 67,108,864, conv1d 8192 x 4 + 8192 bias = 40,960, x_proj
//   (256 + 2 x 16) x 8192 = 2,359,296, dt_proj 8192 x 256 + 8192 bias = 2,105,344, A_log
//   8192 x 16 = 131,072, D 8192, out_proj 4096 x 8192 = 33,554,432, the layer's norm 4096
//   (the dt / B / C norms have no weight): 105,312,256 a layer;
//   embedding and lm_head 65024 x 4096 = 266,338,304 each, final norm 4096.
TEST(Models5Families, FalconMamba7bByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/tiiuae--falcon-mamba-7b.json"));
  EXPECT_EQ(m.architecture, "FalconMambaForCausalLM");
  EXPECT_EQ(m.family, "falcon_mamba");
  EXPECT_EQ(m.state_kind, StateKind::kMamba1);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 64);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 0);
  EXPECT_EQ(m.mamba_intermediate_size, 8192);
  EXPECT_EQ(m.mamba_dt_rank, 256);
  EXPECT_FALSE(m.mamba_inner_norms);
  EXPECT_FALSE(m.tie_word_embeddings);
  const int64_t layer =
      67'108'864 + 40'960 + 2'359'296 + 2'105'344 + 131'072 + 8192 + 33'554'432 + 4096;
  EXPECT_EQ(layer, 105'312'256);
  const int64_t expected = 64 * layer + 2 * int64_t{65024} * 4096 + 4096;
  EXPECT_EQ(expected, 7'272'665'088);
  EXPECT_EQ(Models5Params(m), expected);
  EXPECT_LT(Models5Error(Models5Params(m), 7.27e9), 0.01);
  // State (vLLM mamba1_state_shape @v0.11.0): conv (8192, 3), SSM (8192, 16) a layer; bf16
  // conv and float32 SSM: (24,576 x 2 + 131,072 x 4) x 64 = 36,700,160 B a request at TP 1;
  // at TP 4, 2048 channels a rank: a quarter, 9,175,040 B.
  HybridState s = HybridStateShapes(m, 1);
  EXPECT_EQ(s.layers, 64);
  EXPECT_EQ(s.shape.ConvElements(), 8192 * 3);
  EXPECT_EQ(s.shape.TemporalElements(), 8192 * 16);
  EXPECT_EQ(s.BytesPerRequest(2, 4), 36'700'160);
  EXPECT_EQ(HybridStateShapes(m, 4).BytesPerRequest(2, 4), 9'175'040);
  // No attention layer: no KV bytes per token at all.
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, m.num_layers, 1, 2), 0);
}

// zai-org/GLM-4.5V: its text model is GLM-4.5-Air's, "a 106B parameter sparse MoE language
// model" (NVIDIA Megatron-Bridge's GLM-4.5V page); the 24-layer vision tower is not counted.
// text_config: hidden 4096, 46 layers, 96 heads of 128, 8 KV heads, qkv bias, dense first
// layer of 10944, then 128 routed experts of 1408 (top 8) and one shared expert, vocab 151552,
// untied (Glm4MoeConfig's default). By hand:
//   attention q 12288 x 4096 = 50,331,648, k and v 2 x 1024 x 4096 = 8,388,608, o 4096 x
//   12288 = 50,331,648, q/k/v biases 12288 + 2048 = 14,336: 109,066,240 a layer;
//   dense MLP 3 x 4096 x 10944 = 134,479,872 (layer 0);
//   MoE 128 experts x 3 x 4096 x 1408 = 2,214,592,512, shared 3 x 4096 x 1408 = 17,301,504,
//   router 128 x 4096 = 524,288 (the config names no topk_method: no correction bias read):
//   2,232,418,304 a layer, 45 layers;
//   2 norms x 4096 a layer; embedding and lm_head 151552 x 4096 = 620,756,992 each; final norm.
TEST(Models5Families, Glm45vTextModelByHand) {
  ModelSpec m = LoadModel(kvplan::testing::RealData("configs/zai-org--GLM-4.5V.json"));
  EXPECT_EQ(m.architecture, "Glm4vMoeForConditionalGeneration");
  EXPECT_EQ(m.family, "glm4_moe");
  EXPECT_EQ(m.num_layers, 46);
  EXPECT_EQ(m.num_kv_heads, 8);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_EQ(m.num_experts, 128);
  EXPECT_EQ(m.NumMoeLayers(), 45);
  EXPECT_FALSE(m.tie_word_embeddings);
  EXPECT_NE(m.uncounted_weights.find("vision tower"), std::string::npos);
  const int64_t attention = 50'331'648 + 8'388'608 + 50'331'648 + 14'336;
  EXPECT_EQ(attention, 109'066'240);
  const int64_t moe = 2'214'592'512 + 17'301'504 + 524'288;
  EXPECT_EQ(moe, 2'232'418'304);
  const int64_t expected =
      46 * (attention + 2 * 4096) + 134'479'872 + 45 * moe + 2 * int64_t{151552} * 4096 + 4096;
  EXPECT_EQ(expected, 106'852'245'504);
  EXPECT_EQ(Models5Params(m), expected);
  EXPECT_LT(Models5Error(Models5Params(m), 106e9), 0.01);
  // KV: 46 layers x K and V x 8 heads x 128 x 2 B = 188,416 B a token at TP 1; TP 4 keeps 2
  // heads a rank (47,104 B); TP 16 replicates one head on every rank (23,552 B).
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, m.num_layers, 1, 2), 188'416);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, m.num_layers, 4, 2), 47'104);
  EXPECT_EQ(KvBytesPerTokenOfLayers(m, 0, m.num_layers, 16, 2), 23'552);
}

// Each is gated under both engines (engine_support.cc), and listed as accepted.
TEST(Models5Families, BoundUnderEachEngineAndListed) {
  for (const char* arch : {"FalconMambaForCausalLM", "Glm4vMoeForConditionalGeneration"}) {
    EXPECT_TRUE(ServingBoundOf(arch, "vllm").has_value()) << arch;
    EXPECT_TRUE(ServingBoundOf(arch, "sglang").has_value()) << arch;
    bool listed = false;
    for (const ArchitectureRow& r : ArchitectureRows()) {
      if (r.architecture == arch) listed = r.accepted;
    }
    EXPECT_TRUE(listed) << arch;
  }
  const std::optional<ServingRelease> falcon =
      FirstServingRelease("FalconMambaForCausalLM", "vllm");
  ASSERT_TRUE(falcon.has_value());
  EXPECT_EQ(std::string(falcon->text), "0.6.4");
}

}  // namespace
}  // namespace kvplan
