#include "catalog/quantization.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/model.h"
#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

Quantization Parse(const char* json) { return ParseQuantization(nlohmann::json::parse(json), "t"); }

TEST(Quantization, Fp8BlockScalesAreFloat32PerBlock) {
  Quantization q = Parse(R"({"quant_method":"fp8","fmt":"e4m3","weight_block_size":[128,128]})");
  EXPECT_EQ(q.weight_bits, 8);
  EXPECT_EQ(q.block_n, 128);
  EXPECT_EQ(q.block_k, 128);
  // 4096 x 7168: 4096*7168 fp8 bytes + 32*56 float32 scales.
  EXPECT_EQ(LinearBytes(q, true, 4096, 7168, 2), 4096LL * 7168 + 32 * 56 * 4);
  // 1536/8 = 192 rows: ceil(192/128) = 2 row blocks.
  EXPECT_EQ(LinearBytes(q, true, 192, 4096, 2), 192LL * 4096 + 2 * 32 * 4);
  EXPECT_EQ(LinearBytes(q, false, 192, 4096, 2), 192LL * 4096 * 2);
}

TEST(Quantization, Mxfp4IsExpertsOnlyWithOneByteScalePer32) {
  Quantization q = Parse(R"({"quant_method":"mxfp4","modules_to_not_convert":
      ["model.layers.*.self_attn","model.layers.*.mlp.router","model.embed_tokens","lm_head"]})");
  EXPECT_TRUE(q.experts_only);
  EXPECT_TRUE(q.experts_quantized);
  EXPECT_FALSE(q.attention_quantized);
  EXPECT_FALSE(q.lm_head_quantized);
  // gpt-oss expert down_proj 2880 x 2880: half a byte per value + 1 byte per 32.
  EXPECT_EQ(LinearBytes(q, true, 2880, 2880, 2), 2880LL * 2880 / 2 + 2880LL * 90);
}

TEST(Quantization, CompressedTensorsInt4GroupScales) {
  Quantization q = Parse(R"({"quant_method":"compressed-tensors","format":"pack-quantized",
    "config_groups":{"group_0":{"targets":["Linear"],"weights":{"num_bits":4,"group_size":128,
      "type":"int","symmetric":true,"strategy":"group"}}},"ignore":["lm_head","re:.*mlp.gate$"]})");
  EXPECT_EQ(q.weight_bits, 4);
  EXPECT_EQ(q.group_size, 128);
  EXPECT_FALSE(q.has_zero_points);
  EXPECT_FALSE(q.lm_head_quantized);
  EXPECT_TRUE(q.attention_quantized);
  EXPECT_TRUE(q.experts_quantized);
  // 768 x 2048: 4 bits each + one bf16 scale per 128 inputs per row.
  EXPECT_EQ(LinearBytes(q, true, 768, 2048, 2), 768LL * 2048 / 2 + 768LL * 16 * 2);
}

TEST(Quantization, CompressedTensorsInt8ChannelQuantizesLmHeadUnlessIgnored) {
  Quantization q = Parse(R"({"quant_method":"compressed-tensors","format":"int-quantized",
    "config_groups":{"g":{"weights":{"num_bits":8,"group_size":null,"strategy":"channel",
      "type":"int","symmetric":true}}}})");
  EXPECT_TRUE(q.lm_head_quantized);
  EXPECT_EQ(LinearBytes(q, true, 8192, 8192, 2), 8192LL * 8192 + 8192 * 2);
}

TEST(Quantization, AwqAndGptqStoreZerosAndScales) {
  Quantization awq = Parse(R"({"quant_method":"awq","bits":4,"group_size":128,"zero_point":true,
    "modules_to_not_convert":["visual"]})");
  // qweight in*out/2 + qzeros (in/128)*out/2 + fp16 scales (in/128)*out*2.
  EXPECT_EQ(LinearBytes(awq, true, 4096, 4096, 2),
            4096LL * 4096 / 2 + 32LL * 4096 / 2 + 32LL * 4096 * 2);
  Quantization gptq = Parse(R"({"quant_method":"gptq","bits":4,"group_size":-1,"desc_act":false})");
  // One group per row, plus the int32 g_idx per input channel.
  EXPECT_EQ(LinearBytes(gptq, true, 4096, 1024, 2),
            4096LL * 1024 / 2 + 4096 * 2 + 4096 / 2 + 1024 * 4);
}

TEST(Quantization, ModulePatterns) {
  std::vector<std::string> p = {"lm_head", "model.layers.*.self_attn", "model.layers.2.mlp.gate "};
  EXPECT_TRUE(MatchesModulePattern(p, "lm_head"));
  EXPECT_TRUE(MatchesModulePattern(p, "model.layers.7.self_attn.q_proj"));
  EXPECT_TRUE(MatchesModulePattern(p, "model.layers.0.mlp.gate"));  // numeric = any layer
  // Whole components only: mlp.gate does not match mlp.gate_proj.
  EXPECT_FALSE(MatchesModulePattern(p, "model.layers.0.mlp.gate_proj"));
  EXPECT_FALSE(MatchesModulePattern(p, "model.layers.0.mlp.experts.0.down_proj"));
  EXPECT_TRUE(MatchesModulePattern({"re:.*mlp\\.gate$"}, "model.layers.3.mlp.gate"));
  EXPECT_FALSE(MatchesModulePattern({"re:.*mlp\\.gate$"}, "model.layers.3.mlp.gate_proj"));
  EXPECT_FALSE(MatchesModulePattern({}, "lm_head"));
}

TEST(Quantization, UnquantizedAttentionFromIgnoreList) {
  Quantization q = Parse(R"({"quant_method":"fp8","weight_block_size":[128,128],
      "ignored_layers":["model.layers.0.self_attn"]})");
  EXPECT_FALSE(q.attention_quantized);
  EXPECT_TRUE(q.dense_mlp_quantized);
}

TEST(Quantization, ModeloptNvfp4AndFp8) {
  Quantization q = Parse(R"({"quant_method":"modelopt","quant_algo":"NVFP4","group_size":16,
      "exclude_modules":["model.layers.0.mlp.gate","lm_head"]})");
  EXPECT_EQ(q.weight_bits, 4);
  EXPECT_TRUE(q.experts_quantized);
  EXPECT_FALSE(q.lm_head_quantized);
  // 768 x 2048: half a byte per value + one e4m3 scale per 16.
  EXPECT_EQ(LinearBytes(q, true, 768, 2048, 2), 768LL * 2048 / 2 + 768LL * 128);
  Quantization f = Parse(R"({"quant_method":"modelopt","quant_algo":"FP8"})");
  EXPECT_EQ(LinearBytes(f, true, 4096, 4096, 2), 4096LL * 4096 + 8);
  EXPECT_THROW(Parse(R"({"quant_method":"modelopt","quant_algo":"W4A8_AWQ"})"), InputError);
}

TEST(Quantization, UnknownMethodAndBadFieldsAreInputErrors) {
  EXPECT_THROW(Parse(R"({"quant_method":"eetq"})"), InputError);
  // bitsandbytes must say 4 or 8 bits.
  EXPECT_THROW(Parse(R"({"quant_method":"bitsandbytes"})"), InputError);
  EXPECT_THROW(Parse(R"({"fmt":"e4m3"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"fp8","weight_block_size":[128]})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"awq"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"compressed-tensors"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"fp8","ignore":["re:(("]})"), InputError);
  const std::string what = testing::InputErrorOf([&] { Parse(R"({"quant_method":"eetq"})"); });
  EXPECT_NE(what.find("eetq"), std::string::npos);
  EXPECT_NE(what.find("compressed-tensors"), std::string::npos);
  EXPECT_NE(what.find("bitsandbytes"), std::string::npos);
}

// Meta's Llama-3.1-8B-Instruct-FP8 (quant_method fbgemm_fp8): e4m3 weights and
// one float32 scale per output row; lm_head left out by modules_to_not_convert.
TEST(Quantization, FbgemmFp8ScalesPerChannel) {
  Quantization q = Parse(R"({"quant_method":"fbgemm_fp8","activation_scale_ub":1200.0,
      "modules_to_not_convert":["model.layers.0.self_attn.o_proj","lm_head"]})");
  EXPECT_EQ(q.weight_bits, 8);
  EXPECT_FALSE(q.attention_quantized);
  EXPECT_TRUE(q.dense_mlp_quantized);
  EXPECT_EQ(LinearBytes(q, true, 14336, 4096, 2), 14336LL * 4096 + 14336LL * 4);
}

// bitsandbytes checkpoints: 4-bit packed two per byte with one absmax per 64
// values (uint8 when double-quantized, else float32); 8-bit with one float32
// SCB per row; llm_int8_skip_modules stay 16-bit.
TEST(Quantization, BitsAndBytesFourAndEightBit) {
  Quantization nf4 = Parse(R"({"quant_method":"bitsandbytes","load_in_4bit":true,
      "load_in_8bit":false,"bnb_4bit_quant_type":"nf4","bnb_4bit_use_double_quant":true,
      "llm_int8_skip_modules":["mlp.down_proj"]})");
  EXPECT_EQ(nf4.format, "nf4");
  EXPECT_FALSE(nf4.dense_mlp_quantized);
  EXPECT_TRUE(nf4.attention_quantized);
  EXPECT_EQ(LinearBytes(nf4, true, 4096, 4096, 2), 4096LL * 4096 / 2 + 4096LL * 64);
  Quantization single = Parse(R"({"quant_method":"bitsandbytes","load_in_4bit":true})");
  EXPECT_EQ(LinearBytes(single, true, 4096, 4096, 2), 4096LL * 4096 / 2 + 4096LL * 64 * 4);
  Quantization int8 = Parse(R"({"quant_method":"bitsandbytes","load_in_8bit":true})");
  EXPECT_EQ(LinearBytes(int8, true, 4096, 1024, 2), 4096LL * 1024 + 4096LL * 4);
  EXPECT_THROW(Parse(R"({"quant_method":"bitsandbytes","load_in_4bit":true,"load_in_8bit":true})"),
               InputError);
}

WeightLoading LaunchLoading(const std::string& dtype, const std::string& quantization,
                            bool per_channel = false) {
  WeightLoading w;
  w.engine = "vLLM";
  w.dtype = dtype;
  w.quantization = quantization;
  w.online_methods = {"fp8", "bitsandbytes"};
  w.accepted_methods = {"fp8", "awq", "awq_marlin", "bitsandbytes", "mxfp4"};
  w.online_fp8_per_channel = per_channel;
  return w;
}

// A 16-bit model of one dense layer, 4096 wide, tied embeddings.
ModelSpec LaunchSmallDense() {
  ModelSpec m;
  m.torch_dtype = "bfloat16";
  m.hidden_size = 4096;
  m.num_layers = 1;
  m.num_attention_heads = 32;
  m.num_kv_heads = 8;
  m.head_dim = 128;
  m.intermediate_size = 12288;
  m.vocab_size = 1000;
  m.checkpoint_bytes = 123;
  return m;
}

// --quantization fp8 on a bf16 checkpoint: every decoder linear layer fp8 with
// its scale (per tensor under vLLM, per output row under SGLang); the
// embedding, norms and lm_head stay bf16.
TEST(Quantization, OnlineFp8QuantizesDecoderLinearsOnly) {
  ModelSpec m = ModelAsLaunched(LaunchSmallDense(), LaunchLoading("auto", "fp8"));
  EXPECT_EQ(m.quant.method, "fp8");
  EXPECT_TRUE(m.quant.attention_quantized);
  EXPECT_TRUE(m.quant.experts_quantized);
  EXPECT_FALSE(m.quant.lm_head_quantized);
  EXPECT_FALSE(m.checkpoint_bytes.has_value());  // the files' size no longer applies
  EXPECT_EQ(LinearBytes(m.quant, true, 4096, 4096, 2), 4096LL * 4096 + 4);
  ModelSpec s = ModelAsLaunched(LaunchSmallDense(), LaunchLoading("auto", "fp8", true));
  EXPECT_EQ(LinearBytes(s.quant, true, 4096, 4096, 2), 4096LL * 4096 + 4096LL * 4);
  // vLLM's in-flight bitsandbytes: nf4 with uint8 absmax per 64 values.
  ModelSpec b = ModelAsLaunched(LaunchSmallDense(), LaunchLoading("auto", "bitsandbytes"));
  EXPECT_EQ(LinearBytes(b.quant, true, 4096, 4096, 2), 4096LL * 4096 / 2 + 4096LL * 64);
}

TEST(Quantization, DtypeSetsTheUnquantizedBytes) {
  ModelSpec f32 = ModelAsLaunched(LaunchSmallDense(), LaunchLoading("float32", ""));
  EXPECT_EQ(f32.dtype_bytes, 4);
  EXPECT_EQ(f32.torch_dtype, "float32");
  EXPECT_FALSE(f32.checkpoint_bytes.has_value());
  ModelSpec half = ModelAsLaunched(LaunchSmallDense(), LaunchLoading("half", ""));
  EXPECT_EQ(half.dtype_bytes, 2);
  EXPECT_EQ(half.torch_dtype, "float16");
  EXPECT_EQ(half.checkpoint_bytes, 123);  // same bytes as the files
  EXPECT_EQ(ModelAsLaunched(LaunchSmallDense(), LaunchLoading("auto", "")).torch_dtype, "bfloat16");
  EXPECT_THROW(ModelAsLaunched(LaunchSmallDense(), LaunchLoading("int8", "")), InputError);
}

std::string LaunchRefusalText(const ModelSpec& m, const WeightLoading& w) {
  return testing::InputErrorOf([&] { ModelAsLaunched(m, w); });
}

TEST(Quantization, LaunchRefusalsNameTheAcceptedMethods) {
  // Not a method kvplan models: the accepted ones are listed.
  std::string unknown = LaunchRefusalText(LaunchSmallDense(), LaunchLoading("auto", "hqq"));
  EXPECT_NE(unknown.find("hqq"), std::string::npos) << unknown;
  EXPECT_NE(unknown.find("fp8, awq, awq_marlin, bitsandbytes, mxfp4"), std::string::npos)
      << unknown;
  // AWQ on a bf16 checkpoint: only fp8 and bitsandbytes quantize at load time.
  std::string online = LaunchRefusalText(LaunchSmallDense(), LaunchLoading("auto", "awq"));
  EXPECT_NE(online.find("at load time only with fp8, bitsandbytes"), std::string::npos) << online;
  // A quantized checkpoint takes its own method or a kernel for it, else the
  // engine's own refusal.
  ModelSpec awq = LaunchSmallDense();
  awq.quant = Parse(R"({"quant_method":"awq","bits":4,"group_size":128})");
  EXPECT_EQ(ModelAsLaunched(awq, LaunchLoading("auto", "awq_marlin")).quant.method, "awq");
  EXPECT_EQ(LaunchRefusalText(awq, LaunchLoading("auto", "fp8")),
            "Quantization method specified in the model config (awq) does not match the "
            "quantization method specified in the `quantization` argument (fp8).");
}

}  // namespace
}  // namespace kvplan
