// ParseModelConfig on the bundled real configs, family by family, and on bad input.
#include <gtest/gtest.h>

#include <string>

#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

using testing::ModelConfigError;

TEST(ConfigParser, LlamaGqaGeometry) {
  ModelSpec m = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  EXPECT_EQ(m.architecture, "LlamaForCausalLM");
  EXPECT_EQ(m.attention, AttentionKind::kGqa);
  EXPECT_EQ(m.num_layers, 32);
  EXPECT_EQ(m.num_attention_heads, 32);
  EXPECT_EQ(m.num_kv_heads, 8);
  EXPECT_EQ(m.head_dim, 128);  // no head_dim key: 4096 / 32
  EXPECT_EQ(m.vocab_size, 128256);
  EXPECT_EQ(m.max_position_embeddings, 131072);
  EXPECT_FALSE(m.tie_word_embeddings);
  EXPECT_FALSE(m.IsMoe());
  ASSERT_EQ(m.layer_kinds.size(), 32u);
  ASSERT_EQ(m.layer_is_moe.size(), 32u);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 32);
}

TEST(ConfigParser, Qwen2HasAttentionBiasQwen3HasQkNorm) {
  ModelSpec q2 = LoadModel("Qwen/Qwen2.5-7B-Instruct");
  EXPECT_TRUE(q2.attention_bias);
  EXPECT_FALSE(q2.qk_norm);
  EXPECT_EQ(q2.num_kv_heads, 4);
  ModelSpec q3 = LoadModel("Qwen/Qwen3-8B");
  EXPECT_FALSE(q3.attention_bias);
  EXPECT_TRUE(q3.qk_norm);
  EXPECT_EQ(q3.head_dim, 128);
}

TEST(ConfigParser, Qwen3MoeAllLayersSparse) {
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");
  EXPECT_EQ(m.num_experts, 128);
  EXPECT_EQ(m.experts_per_token, 8);
  EXPECT_EQ(m.moe_intermediate_size, 768);
  EXPECT_EQ(m.NumMoeLayers(), 48);
}

TEST(ConfigParser, MixtralExpertsUseIntermediateSize) {
  ModelSpec m = LoadModel("mistralai/Mixtral-8x7B-v0.1");
  EXPECT_EQ(m.num_experts, 8);
  EXPECT_EQ(m.experts_per_token, 2);
  EXPECT_EQ(m.moe_intermediate_size, 14336);
}

// Trap: DeepSeek-V3's first 3 layers are dense, Kimi-K2's first 1.
TEST(ConfigParser, DeepseekFirstDenseLayersAreNotMoe) {
  ModelSpec ds = LoadModel("deepseek-ai/DeepSeek-V3");
  EXPECT_EQ(ds.attention, AttentionKind::kMla);
  EXPECT_EQ(ds.kv_lora_rank, 512);
  EXPECT_EQ(ds.qk_rope_head_dim, 64);
  EXPECT_EQ(ds.qk_nope_head_dim, 128);
  EXPECT_EQ(ds.v_head_dim, 128);
  EXPECT_EQ(ds.q_lora_rank, 1536);
  EXPECT_EQ(ds.num_shared_experts, 1);
  EXPECT_EQ(ds.num_nextn_predict_layers, 1);
  EXPECT_EQ(ds.first_k_dense_layers, 3);
  EXPECT_FALSE(ds.layer_is_moe[0]);
  EXPECT_FALSE(ds.layer_is_moe[2]);
  EXPECT_TRUE(ds.layer_is_moe[3]);
  EXPECT_EQ(ds.NumMoeLayers(), 61 - 3);
  ModelSpec kimi = LoadModel("moonshotai/Kimi-K2-Instruct");
  EXPECT_EQ(kimi.family, "deepseek");
  EXPECT_EQ(kimi.num_experts, 384);
  EXPECT_FALSE(kimi.layer_is_moe[0]);
  EXPECT_TRUE(kimi.layer_is_moe[1]);
  EXPECT_EQ(kimi.NumMoeLayers(), 60);
  EXPECT_EQ(kimi.num_nextn_predict_layers, 0);
}

TEST(ConfigParser, GptOssAlternatesSlidingAndFull) {
  ModelSpec m = LoadModel("openai/gpt-oss-120b");
  EXPECT_EQ(m.num_layers, 36);
  EXPECT_EQ(m.sliding_window, 128);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kSliding);
  EXPECT_EQ(m.layer_kinds[1], LayerKind::kFull);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 18);
  EXPECT_TRUE(m.attention_sinks);
  EXPECT_EQ(m.head_dim, 64);
  EXPECT_EQ(m.quant.method, "mxfp4");
  EXPECT_TRUE(m.quant.experts_only);
  EXPECT_TRUE(m.quant.experts_quantized);
  EXPECT_FALSE(m.quant.attention_quantized);
  EXPECT_EQ(m.torch_dtype, "");  // the real file has no torch_dtype
  EXPECT_EQ(m.dtype_bytes, 2);
}

TEST(ConfigParser, Gemma2AlternatesEvenLayersSliding) {
  ModelSpec m = LoadModel("google/gemma-2-9b-it");
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_TRUE(m.tie_word_embeddings);  // Gemma default, absent from the file
  EXPECT_EQ(m.norms_per_layer, 4);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kSliding);
  EXPECT_EQ(m.layer_kinds[1], LayerKind::kFull);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 21);
  EXPECT_EQ(m.sliding_window, 4096);
}

TEST(ConfigParser, Gemma3NestsTextConfigAndHasVision) {
  ModelSpec m = LoadModel("google/gemma-3-27b-it");
  EXPECT_EQ(m.architecture, "Gemma3ForConditionalGeneration");
  EXPECT_EQ(m.hidden_size, 5376);
  EXPECT_EQ(m.num_layers, 62);
  EXPECT_EQ(m.num_kv_heads, 16);
  EXPECT_EQ(m.head_dim, 128);
  EXPECT_TRUE(m.multimodal);
  EXPECT_EQ(m.vision_layers, 27);
  EXPECT_EQ(m.vision_hidden_size, 1152);
  EXPECT_EQ(m.torch_dtype, "bfloat16");  // from "dtype" (re-serialized file)
  // 5 sliding : 1 full -> 62 layers: full at 5, 11, ..., 59 = 10 layers.
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 10);
  EXPECT_EQ(m.layer_kinds[5], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[4], LayerKind::kSliding);
}

// Hub-format Gemma-3 text_config without layer_types: the 6-layer pattern applies.
TEST(ConfigParser, Gemma3SlidingPatternWithoutLayerTypes) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Gemma3ForConditionalGeneration"],
    "text_config":{"hidden_size":2560,"intermediate_size":10240,"num_hidden_layers":34,
      "num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"sliding_window":1024,
      "vocab_size":262208,"model_type":"gemma3_text"},
    "vision_config":{"hidden_size":1152,"intermediate_size":4304,"num_hidden_layers":27,
      "image_size":896,"patch_size":14},"torch_dtype":"bfloat16"})",
                                 "gemma-3-4b");
  // Case sglang-gemma3-4b-windows-mfs065-pr4840: 5 full + 29 sliding of 34, head_dim 256.
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 5);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kSliding), 29);
  EXPECT_EQ(m.head_dim, 256);
}

TEST(ConfigParser, Qwen3NextLinearLayers) {
  ModelSpec m = LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking");
  // full_attention_interval 4: layers 3, 7, ..., 47 are full; the rest linear.
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 12);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kLinear), 36);
  EXPECT_EQ(m.layer_kinds[3], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kLinear);
  EXPECT_EQ(m.num_kv_heads, 2);
  EXPECT_EQ(m.head_dim, 256);
  EXPECT_EQ(m.NumMoeLayers(), 48);
  EXPECT_EQ(m.shared_expert_intermediate_size, 512);
}

TEST(ConfigParser, Eagle3DraftsParse) {
  ModelSpec sf = LoadModel("sgl-project/SpecForge-llama3-8B-eagle3");
  EXPECT_EQ(sf.draft_kind, "eagle3");
  EXPECT_EQ(sf.num_layers, 1);
  EXPECT_EQ(sf.draft_vocab_size, 32000);
  EXPECT_EQ(sf.num_kv_heads, 8);
  // The SafeAILab training config says LlamaForCausalLM but is an EAGLE-3 draft.
  ModelSpec ea = LoadModel("SafeAILab/EAGLE-traineagle3-llama3.1-8b-draft");
  EXPECT_EQ(ea.draft_kind, "eagle3");
  EXPECT_TRUE(ea.IsDraft());
  ModelSpec oss = LoadModel("sgl-project/SpecForge-gpt-oss-120B-eagle3");
  EXPECT_EQ(oss.head_dim, 64);
}

TEST(ConfigParser, QwenMoeSparseStepAndMlpOnlyLayers) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Qwen2MoeForCausalLM"],
    "hidden_size":64,"intermediate_size":128,"num_hidden_layers":6,"num_attention_heads":4,
    "num_key_value_heads":4,"vocab_size":1000,"num_experts":8,"num_experts_per_tok":2,
    "moe_intermediate_size":32,"shared_expert_intermediate_size":64,
    "decoder_sparse_step":2,"mlp_only_layers":[3]})",
                                 "t");
  // (i + 1) % 2 == 0 and i not in [3]: layers 1 and 5.
  std::vector<bool> want = {false, true, false, false, false, true};
  EXPECT_EQ(m.layer_is_moe, want);
  EXPECT_TRUE(m.attention_bias);
}

TEST(ConfigParser, Glm45FirstKDenseReplace) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["Glm4MoeForCausalLM"],
    "hidden_size":4096,"intermediate_size":10944,"num_hidden_layers":46,"num_attention_heads":96,
    "num_key_value_heads":8,"head_dim":128,"vocab_size":151552,"n_routed_experts":128,
    "num_experts_per_tok":8,"moe_intermediate_size":1408,"n_shared_experts":1,
    "first_k_dense_replace":1,"attention_bias":true,"use_qk_norm":false,
    "num_nextn_predict_layers":1,"topk_method":"noaux_tc"})",
                                 "glm");
  EXPECT_FALSE(m.layer_is_moe[0]);
  EXPECT_EQ(m.NumMoeLayers(), 45);
  EXPECT_EQ(m.num_nextn_predict_layers, 1);
}

// The meta-llama/Llama-4-Scout-17B-16E-Instruct values (as copied in
// ai-dynamo/aiconfigurator aic-core/.../model_configs, a trimmed copy, so not
// bundled): every 4th layer global, the rest chunked; all 48 layers MoE.
constexpr const char* kLlama4Scout = R"({"architectures":["Llama4ForConditionalGeneration"],
  "model_type":"llama4","torch_dtype":"bfloat16",
  "text_config":{"attention_chunk_size":8192,"head_dim":128,"hidden_size":5120,
    "interleave_moe_layer_step":1,"intermediate_size":8192,"intermediate_size_mlp":16384,
    "max_position_embeddings":10485760,"num_attention_heads":40,"num_experts_per_tok":1,
    "num_hidden_layers":48,"num_key_value_heads":8,"num_local_experts":16,"use_qk_norm":true,
    "vocab_size":202048,"model_type":"llama4_text"},
  "vision_config":{"hidden_size":1408,"image_size":336,"intermediate_size":5632,
    "num_channels":3,"num_hidden_layers":34,"patch_size":14,"pixel_shuffle_ratio":0.5,
    "projector_input_dim":4096,"projector_output_dim":4096,"vision_output_dim":4096}})";

TEST(ConfigParser, Llama4ChunkedLayers) {
  ModelSpec m = ParseModelConfig(kLlama4Scout, "scout");
  EXPECT_EQ(m.family, "llama4");
  EXPECT_EQ(m.attention_chunk_size, 8192);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kChunked), 36);
  EXPECT_EQ(m.NumLayersOfKind(LayerKind::kFull), 12);
  EXPECT_EQ(m.layer_kinds[3], LayerKind::kFull);
  EXPECT_EQ(m.layer_kinds[0], LayerKind::kChunked);
  EXPECT_EQ(m.NumMoeLayers(), 48);
  EXPECT_EQ(m.moe_intermediate_size, 8192);
  EXPECT_EQ(m.shared_expert_intermediate_size, 8192);
  EXPECT_EQ(m.intermediate_size, 16384);
  EXPECT_TRUE(m.multimodal);
  EXPECT_EQ(m.max_position_embeddings, 10485760);
}

// Hand arithmetic for Scout: the text model (untied 202048 x 5120 tables; per
// layer q/o 5120x5120, k/v 1024x5120, 16 experts and 1 shared expert of
// 3 x 5120 x 8192, router 16 x 5120, 2 norms; final norm) plus the vision
// tower (34 encoder layers of 1408/5632 with biases and LayerNorms, patch
// unfold 588 x 1408, class token, 577 positions, pre/post norms,
// pixel-shuffle MLP 5632x4096 + 4096x4096, projector 4096x5120).
// 107,769,861,120 + 871,932,416 = 108,641,793,536 ("109B").
TEST(ConfigParser, Llama4ScoutParameterCount) {
  ModelSpec m = ParseModelConfig(kLlama4Scout, "scout");
  const int64_t layer = (2 * 5120LL * 5120 + 2 * 1024LL * 5120) + 16 * 3 * 5120LL * 8192 +
                        3 * 5120LL * 8192 + 16 * 5120 + 2 * 5120;
  const int64_t text = 2 * 202048LL * 5120 + 48 * layer + 5120;
  EXPECT_EQ(text, 107'769'861'120);
  WeightEstimate w = EstimateWeights(m, {});
  EXPECT_EQ(w.total_params, 108'641'793'536);
}

TEST(ConfigParser, UnknownArchitectureNamesItAndListsSupported) {
  std::string e = ModelConfigError(R"({"architectures":["FooForCausalLM"],"hidden_size":8})");
  EXPECT_NE(e.find("FooForCausalLM"), std::string::npos) << e;
  EXPECT_NE(e.find("LlamaForCausalLM"), std::string::npos) << e;
  EXPECT_NE(e.find("DeepseekV3ForCausalLM"), std::string::npos) << e;
}

TEST(ConfigParser, BadInputIsOneClearInputError) {
  EXPECT_NE(ModelConfigError("").find("empty"), std::string::npos);
  EXPECT_NE(ModelConfigError("  \n").find("empty"), std::string::npos);
  EXPECT_NE(ModelConfigError(std::string("\x89PNG\r\n\x1a\n\0\0", 10)).find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(ModelConfigError(R"({"architectures":["LlamaForCausalLM"],"hidden_size":4)")
                .find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(ModelConfigError("[1,2,3]").find("expected a JSON object"), std::string::npos);
  // A number no double holds is nlohmann's out_of_range, not a parse_error; it
  // escaped as a crash until the fuzzer found it.
  EXPECT_NE(ModelConfigError(R"({"architectures":["LlamaForCausalLM"],"rope_theta":1e999})")
                .find("not valid JSON"),
            std::string::npos);
  EXPECT_NE(ModelConfigError("{}").find("neither \"architectures\" nor \"model_type\""),
            std::string::npos);
  for (const std::string& msg :
       {ModelConfigError(""), ModelConfigError("[]"), ModelConfigError("{")}) {
    EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
    EXPECT_NE(msg.find("synthetic.json"), std::string::npos) << msg;
  }
}

TEST(ConfigParser, MissingRequiredKeyIsNamed) {
  const std::string base = R"("architectures":["LlamaForCausalLM"],"intermediate_size":64,
      "num_attention_heads":4,"vocab_size":100)";
  std::string e = ModelConfigError("{" + base + R"(,"hidden_size":32})");
  EXPECT_NE(e.find("\"num_hidden_layers\""), std::string::npos) << e;
  e = ModelConfigError("{" + base + R"(,"num_hidden_layers":2})");
  EXPECT_NE(e.find("\"hidden_size\""), std::string::npos) << e;
  e = ModelConfigError(
      R"({"architectures":["LlamaForCausalLM"],"hidden_size":32,"num_hidden_layers":2,
          "num_attention_heads":4,"vocab_size":100})");
  EXPECT_NE(e.find("\"intermediate_size\""), std::string::npos) << e;
  e = ModelConfigError(
      R"({"architectures":["DeepseekV3ForCausalLM"],"hidden_size":32,"num_hidden_layers":2,
          "num_attention_heads":4,"vocab_size":100,"intermediate_size":64,"n_routed_experts":4,
          "num_experts_per_tok":2,"moe_intermediate_size":16})");
  EXPECT_NE(e.find("\"kv_lora_rank\""), std::string::npos) << e;
}

TEST(ConfigParser, WrongTypesAndShapesAreErrors) {
  std::string e = ModelConfigError(
      R"({"architectures":["LlamaForCausalLM"],"hidden_size":"4096","num_hidden_layers":2,
          "num_attention_heads":4,"vocab_size":100,"intermediate_size":64})");
  EXPECT_NE(e.find("\"hidden_size\" should be an integer"), std::string::npos) << e;
  e = ModelConfigError(
      R"({"architectures":["GptOssForCausalLM"],"hidden_size":32,"num_hidden_layers":3,
          "num_attention_heads":4,"vocab_size":100,"intermediate_size":64,"num_local_experts":4,
          "num_experts_per_tok":2,"sliding_window":8,
          "layer_types":["sliding_attention","full_attention"]})");
  EXPECT_NE(e.find("layer_types has 2 entries but num_hidden_layers is 3"), std::string::npos) << e;
  e = ModelConfigError(
      R"({"architectures":["LlamaForCausalLM"],"hidden_size":32,"num_hidden_layers":2,
          "num_attention_heads":4,"num_key_value_heads":3,"vocab_size":100,
          "intermediate_size":64})");
  EXPECT_NE(e.find("not a multiple"), std::string::npos) << e;
}

// Values that would overflow the byte arithmetic (or divide by zero) are refused.
TEST(ConfigParser, ImplausibleSizesAreErrors) {
  const std::string head = R"({"architectures":["LlamaForCausalLM"],"intermediate_size":64,
      "num_attention_heads":4,"vocab_size":100,)";
  std::string e = ModelConfigError(head + R"("hidden_size":32,"num_hidden_layers":100000})");
  EXPECT_NE(e.find("\"num_hidden_layers\" is out of range"), std::string::npos) << e;
  e = ModelConfigError(head + R"("hidden_size":1099511627776,"num_hidden_layers":2})");
  EXPECT_NE(e.find("\"hidden_size\" is out of range"), std::string::npos) << e;
  e = ModelConfigError(head + R"("hidden_size":32,"num_hidden_layers":2,"num_key_value_heads":0})");
  EXPECT_NE(e.find("\"num_key_value_heads\" must be > 0"), std::string::npos) << e;
  e = ModelConfigError(head + R"("hidden_size":32,"num_hidden_layers":2,"head_dim":-8})");
  EXPECT_NE(e.find("\"head_dim\" is out of range"), std::string::npos) << e;
}

TEST(ConfigParser, EveryCatalogModelParsesWithFullLayerTables) {
  std::vector<std::string> ids = CatalogModelIds();
  ASSERT_GE(ids.size(), 25u);
  for (const std::string& id : ids) {
    ModelSpec m = LoadModel(id);
    EXPECT_EQ(m.id, id);
    EXPECT_EQ(static_cast<int>(m.layer_kinds.size()), m.num_layers) << id;
    EXPECT_EQ(static_cast<int>(m.layer_is_moe.size()), m.num_layers) << id;
    EXPECT_EQ(m.NumMoeLayers() > 0, m.IsMoe()) << id;
    int kinds = 0;
    for (LayerKind k :
         {LayerKind::kFull, LayerKind::kSliding, LayerKind::kChunked, LayerKind::kLinear}) {
      kinds += m.NumLayersOfKind(k);
    }
    EXPECT_EQ(kinds, m.num_layers) << id;
  }
}

}  // namespace
}  // namespace kvplan
