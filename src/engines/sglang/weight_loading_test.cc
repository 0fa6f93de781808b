// SGLang's --dtype and --quantization as the weights it loads.
#include "engines/sglang/weight_loading.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"

namespace kvplan {
namespace {

TEST(SglangWeightLoading, OnlineFp8PerChannelOnly) {
  SglangArgs a = ParseSglangArgs(
      {"--model-path", "Qwen/Qwen3-8B", "--quantization", "fp8", "--dtype", "float16"});
  WeightLoading w = SglangWeightLoading(a);
  EXPECT_TRUE(w.online_fp8_per_channel);
  const ModelSpec m = ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), w);
  EXPECT_EQ(m.torch_dtype, "float16");
  EXPECT_TRUE(m.quant.per_channel_scales);
  // One float32 scale per output row: 4096 x 4096 o_proj.
  EXPECT_EQ(LinearBytes(m.quant, true, 4096, 4096, 2), 4096LL * 4096 + 4096LL * 4);
  // SGLang has no in-flight bitsandbytes: a 16-bit checkpoint refuses it.
  a.quantization = "bitsandbytes";
  EXPECT_THROW(ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), SglangWeightLoading(a)), InputError);
  // --dtype takes SGLang's choices only.
  SglangArgs bad = ParseSglangArgs({"--model-path", "Qwen/Qwen3-8B", "--dtype", "int4"});
  EXPECT_THROW(ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), SglangWeightLoading(bad)), InputError);
}

}  // namespace
}  // namespace kvplan
