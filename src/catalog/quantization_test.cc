#include "catalog/quantization.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "catalog/model.h"
#include "kvplan/error.h"

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
  EXPECT_THROW(Parse(R"({"quant_method":"bitsandbytes"})"), InputError);
  EXPECT_THROW(Parse(R"({"fmt":"e4m3"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"fp8","weight_block_size":[128]})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"awq"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"compressed-tensors"})"), InputError);
  EXPECT_THROW(Parse(R"({"quant_method":"fp8","ignore":["re:(("]})"), InputError);
  try {
    Parse(R"({"quant_method":"bitsandbytes"})");
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("bitsandbytes"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("compressed-tensors"), std::string::npos);
  }
}

}  // namespace
}  // namespace kvplan
