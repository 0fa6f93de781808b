// Architectures added as table entries, each on a real config.json
// (tests/data/real/configs/SOURCES.md): parameters within 1 % of the published
// size, KV bytes per token computed by hand; wrappers, defaults, refusals.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <utility>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

int64_t Params(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

// K and V of every layer, bf16: layers x 2 x kv_heads x head_dim x 2 bytes.
int64_t KvBytesPerToken(const ModelSpec& m) {
  return int64_t{m.num_layers} * 2 * m.num_kv_heads * m.head_dim * 2;
}

void ExpectWithinOnePercent(int64_t got, double published, const std::string& what) {
  EXPECT_LT(std::fabs(static_cast<double>(got) - published) / published, 0.01)
      << what << ": " << got << " vs published " << published;
}

TEST(RealConfigs, Phi4) {
  ModelSpec m = kvplan::testing::RealConfig("microsoft--phi-4.json");
  EXPECT_EQ(m.family, "phi3");
  ExpectWithinOnePercent(Params(m), 14.7e9, "phi-4");
  // 40 layers x 2 x 10 KV heads x 128 (5120 / 40) x 2 bytes
  EXPECT_EQ(KvBytesPerToken(m), 40 * 2 * 10 * 128 * 2);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 40);
}

TEST(RealConfigs, Granite33) {
  ModelSpec m = kvplan::testing::RealConfig("ibm-granite--granite-3.3-8b-instruct.json");
  EXPECT_TRUE(m.tie_word_embeddings);
  ExpectWithinOnePercent(Params(m), 8.17e9, "granite-3.3-8b");
  EXPECT_EQ(KvBytesPerToken(m), 40 * 2 * 8 * 128 * 2);  // 4096 / 32 = 128
}

TEST(RealConfigs, Olmo2) {
  ModelSpec m = kvplan::testing::RealConfig("allenai--OLMo-2-1124-7B-Instruct.json");
  EXPECT_TRUE(m.qk_norm);
  ExpectWithinOnePercent(Params(m), 7.30e9, "OLMo-2-7B");
  EXPECT_EQ(KvBytesPerToken(m), 32 * 2 * 32 * 128 * 2);  // MHA
}

// A wrapper with the text fields at the root (transformers 4.41 Qwen2.5-VL):
// the text model is Qwen2 (q/k/v biases); the vision tower is counted from
// vision_config (catalog/vision_towers_test.cc checks its 668,684,288).
TEST(RealConfigs, Qwen25VlWrapsQwen2) {
  ModelSpec m = kvplan::testing::RealConfig("Qwen--Qwen2.5-VL-3B-Instruct.json");
  EXPECT_EQ(m.architecture, "Qwen2_5_VLForConditionalGeneration");
  EXPECT_EQ(m.family, "qwen2");
  EXPECT_TRUE(m.attention_bias);
  EXPECT_TRUE(m.multimodal);
  EXPECT_EQ(m.vision_layers, 32);  // vision_config.depth
  EXPECT_EQ(m.vision_hidden_size, 1280);
  EXPECT_EQ(m.uncounted_weights, "");
  // The source's torch-info table: 77,076,992 per decoder layer, embedding
  // 151936 x 2048 (tied), final norm 2048; then the vision tower.
  EXPECT_EQ(Params(m),
            int64_t{77'076'992} * 36 + int64_t{151936} * 2048 + 2048 + int64_t{668'684'288});
  EXPECT_EQ(KvBytesPerToken(m), 36 * 2 * 2 * 128 * 2);
}

TEST(RealConfigs, WrapperTextConfigNamesTheInnerFamily) {
  // InternVL's llm_config, Qwen3-Omni's thinker_config.text_config.
  const std::string text =
      R"("hidden_size":64,"num_hidden_layers":2,"num_attention_heads":4,
         "num_key_value_heads":2,"intermediate_size":128,"vocab_size":1000)";
  ModelSpec iv = ParseModelConfig(R"({"architectures":["InternVLChatModel"],
      "llm_config":{"architectures":["LlamaForCausalLM"],)" +
                                      text + "}}",
                                  "t");
  EXPECT_EQ(iv.family, "llama");
  EXPECT_FALSE(iv.attention_bias);
  EXPECT_EQ(iv.num_layers, 2);
  ModelSpec omni = ParseModelConfig(R"({"architectures":["Qwen3OmniMoeForConditionalGeneration"],
      "thinker_config":{"text_config":{"model_type":"qwen3_omni_moe_text","num_experts":8,
      "num_experts_per_tok":2,"moe_intermediate_size":32,)" +
                                        text + "}}}",
                                    "t");
  EXPECT_EQ(omni.family, "qwen3_moe");
  EXPECT_TRUE(omni.qk_norm);
  EXPECT_EQ(omni.num_experts, 8);
  // No vision_config or audio_config here: the thinker's encoders are named
  // as not counted (the talker is not loaded by vLLM or SGLang).
  EXPECT_NE(omni.uncounted_weights.find("audio"), std::string::npos);
}

// transformers Gemma3TextConfig defaults fill what the hub text_config omits
// (gemma-3-4b/12b/27b have no vocab_size).
TEST(RealConfigs, Gemma3OmittedFieldsTakeTransformersDefaults) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Gemma3ForCausalLM"],
      "hidden_size":2560,"intermediate_size":10240,"num_hidden_layers":34,
      "num_attention_heads":8,"num_key_value_heads":4})",
                                 "t");
  EXPECT_EQ(m.vocab_size, 262208);
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_EQ(m.sliding_window, 4096);
  EXPECT_TRUE(m.tie_word_embeddings);
  EXPECT_EQ(m.max_position_embeddings, 131072);
}

// Python's json accepts Infinity / -Infinity / NaN; so must kvplan (NVIDIA
// Nemotron-H's config has "time_step_limit": [0.0, Infinity]).
TEST(RealConfigs, PythonJsonTokensAreAccepted) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["LlamaForCausalLM"],"hidden_size":64,
      "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,
      "time_step_limit":[0.0, Infinity],"x":-Infinity,"y":NaN,"s":"NaN Infinity",
      "n":[NaN]})",
                                 "t");
  EXPECT_EQ(m.num_layers, 2);
  // A number where the config needs an integer is still a typed refusal.
  std::string e = testing::ModelConfigError(
      R"({"architectures":["LlamaForCausalLM"],"vocab_size":100,"hidden_size":Infinity})");
  EXPECT_NE(e.find("\"hidden_size\" should be an integer"), std::string::npos) << e;
}

TEST(RealConfigs, JsonRefusalSaysWhereAndWhy) {
  std::string e = testing::ModelConfigError("{\n  \"hidden_size\": 4,\n  \"vocab_size\" 100\n}");
  // nlohmann gives up after reading the offending token: "100" ends at column 18.
  EXPECT_NE(e.find("not valid JSON at line 3, column 18"), std::string::npos) << e;
  EXPECT_NE(e.find("expected ':'"), std::string::npos) << e;
  // Positions after a rewritten NaN are still those of the original text.
  e = testing::ModelConfigError("{\"a\": NaN, \"b\": tru}");
  EXPECT_NE(e.find("line 1, column 20"), std::string::npos) << e;
  EXPECT_NE(testing::ModelConfigError("{\"a\": Infinityx}").find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(testing::ModelConfigError("{\"a\": \"unterminated").find("not valid JSON"),
            std::string::npos);
}

// Python's json reads the Infinity of a Mamba config's time_step_limit; so does kvplan, and a
// PLaMo-2 config carrying one is read with its layers.
TEST(RealConfigs, HybridConfigWithInfinityIsRead) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Plamo2ForCausalLM"],"hidden_size":64,
      "num_hidden_layers":2,"num_attention_heads":2,"num_key_value_heads":1,
      "hidden_size_per_head":32,"mamba_num_heads":2,"intermediate_size":128,"vocab_size":100,
      "time_step_limit":[0.0, Infinity]})",
                                 "synthetic-plamo2");
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 1);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 1);
}

// Synthetic (no public OLMo-3 config.json was found): the Olmo3Config
// defaults, sliding_window 4096 and layer i full when (i + 1) % 4 == 0, fill
// what the config omits; OLMo-2's q/k norms. 8 layers: 2 full, 6 sliding.
TEST(RealConfigs, Olmo3SlidesOnThreeOfFourLayersByDefault) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Olmo3ForCausalLM"],"hidden_size":512,
      "num_hidden_layers":8,"num_attention_heads":8,"intermediate_size":1024,
      "vocab_size":1000})",
                                 "synthetic.json");
  EXPECT_EQ(m.family, "olmo3");
  EXPECT_TRUE(m.qk_norm);
  EXPECT_EQ(m.sliding_window, 4096);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 2);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 6);
  EXPECT_EQ(m.layer_kinds[3], LayerKind::kFull);
  // layer_types, when given, decide.
  ModelSpec t = ParseModelConfig(R"({"architectures":["Olmo3ForCausalLM"],"hidden_size":512,
      "num_hidden_layers":2,"num_attention_heads":8,"intermediate_size":1024,"vocab_size":1000,
      "sliding_window":64,"layer_types":["full_attention","sliding_attention"]})",
                                 "synthetic.json");
  EXPECT_EQ(t.layer_kinds[0], LayerKind::kFull);
  EXPECT_EQ(t.sliding_window, 64);
}

// Synthetic, with the geometry public fixtures give ERNIE-4.5-21B-A3B (no
// public config.json was found): ERNIE's expert keys read through the table's
// aliases. Layer 0 dense (moe_layer_start_index 1), the others 64 experts of
// 1536, top-6, two shared experts (one MLP of 2 x 1536); moe_layer_end_index
// 26 leaves the last layer dense. Parameters by hand (the config is
// synthetic, so no published size is claimed): tied embedding 103424 x 2560,
// attention 15,728,640 and norms 5,120 a layer, layer 0's MLP 3 x 2560 x
// 12288, each MoE layer's 64 experts of 3 x 2560 x 1536, shared 3 x 2560 x
// 3072 and router 64 x 2560, the final norm: 21.8B.
TEST(RealConfigs, ErnieMoeReadsItsExpertKeys) {
  const std::string text = R"({"architectures":["Ernie4_5_MoeForCausalLM"],"hidden_size":2560,
      "intermediate_size":12288,"num_hidden_layers":28,"num_attention_heads":20,
      "num_key_value_heads":4,"head_dim":128,"vocab_size":103424,"moe_num_experts":64,
      "moe_num_shared_experts":2,"moe_k":6,"moe_layer_start_index":1,"moe_layer_interval":1,
      "moe_intermediate_size":1536,"use_bias":false,"moe_layer_end_index":)";
  ModelSpec m = ParseModelConfig(text + "27}", "synthetic.json");
  EXPECT_EQ(m.family, "ernie4_5_moe");
  EXPECT_EQ(m.num_experts, 64);
  EXPECT_EQ(m.experts_per_token, 6);
  EXPECT_EQ(m.num_shared_experts, 2);
  EXPECT_EQ(m.NumMoeLayers(), 27);
  EXPECT_TRUE(m.tie_word_embeddings);  // Ernie4_5_MoeConfig default
  const int64_t attention_and_norms = 15'728'640 + 5'120;
  const int64_t moe_layer =
      attention_and_norms + 64 * int64_t{3 * 2560 * 1536} + int64_t{3} * 2560 * 3072 + 64 * 2560;
  EXPECT_EQ(Params(m), int64_t{103424} * 2560 + attention_and_norms + int64_t{3} * 2560 * 12288 +
                           27 * moe_layer + 2560);
  EXPECT_EQ(KvBytesPerToken(m), 28 * 2 * 4 * 128 * 2);
  EXPECT_EQ(ParseModelConfig(text + "26}", "synthetic.json").NumMoeLayers(), 26);
  EXPECT_NE(
      testing::ModelConfigError(R"({"architectures":["Ernie4_5_ForCausalLM"],"use_bias":true})")
          .find("use_bias"),
      std::string::npos);
}

// Hunyuan's per-layer lists are read as one value only when every layer has
// the same; cross-layer attention (use_cla) is refused, not planned as
// per-layer KV. Synthetic.
TEST(RealConfigs, HunyuanPerLayerListsAndCrossLayerAttention) {
  const std::string geometry = R"("hidden_size":64,"num_hidden_layers":2,
      "num_attention_heads":4,"num_key_value_heads":2,"intermediate_size":32,"vocab_size":100,
      "num_experts":4,"moe_intermediate_size":[16,16],"num_shared_expert":[1,1],)";
  ModelSpec m = ParseModelConfig(
      R"({"architectures":["HunYuanMoEV1ForCausalLM"],)" + geometry + R"("moe_topk":[2,2]})",
      "synthetic.json");
  EXPECT_EQ(m.experts_per_token, 2);
  EXPECT_EQ(m.moe_intermediate_size, 16);
  EXPECT_EQ(m.shared_expert_intermediate_size, 32);
  std::string e = testing::ModelConfigError(R"({"architectures":["HunYuanMoEV1ForCausalLM"],)" +
                                            geometry + R"("moe_topk":[2,4]})");
  EXPECT_NE(e.find("\"moe_topk\" differs between layers"), std::string::npos) << e;
  // q/k norms only when use_qk_norm says so (the real configs do: their rows).
  const std::string dense = R"({"architectures":["HunYuanDenseV1ForCausalLM"],"hidden_size":64,
      "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":32,"vocab_size":100)";
  EXPECT_FALSE(ParseModelConfig(dense + "}", "synthetic.json").qk_norm);
  EXPECT_TRUE(ParseModelConfig(dense + R"(,"use_qk_norm":true})", "synthetic.json").qk_norm);
  e = testing::ModelConfigError(R"({"architectures":["HunYuanDenseV1ForCausalLM"],"hidden_size":64,
      "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":32,"vocab_size":100,
      "use_cla":true,"cla_share_factor":2})");
  EXPECT_NE(e.find("use_cla"), std::string::npos) << e;
  EXPECT_NE(e.find("cross-layer attention"), std::string::npos) << e;
}

}  // namespace
}  // namespace kvplan
