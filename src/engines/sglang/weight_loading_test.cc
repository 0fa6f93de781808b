// SGLang's --dtype and --quantization as the weights it loads.
#include "engines/sglang/weight_loading.h"

#include <gtest/gtest.h>

#include "engines/sglang/era.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

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

// Gemma-3's rotary tables in SGLang's "mem usage" (catalog/rope_cache.h): none before 0.5.10
// (#12590), then two unscaled float32 tables of 131072 x 256 for gemma-3-4b:
// 2 x 131072 x 256 x 4 B = 268,435,456 B.
TEST(SglangWeightLoading, Gemma3RotaryTablesByRelease) {
  const ModelSpec m = LoadModel(testing::RealData("configs/google--gemma-3-4b-it.assembled.json"));
  const WeightEstimate w = EstimateWeights(m, Parallelism{});
  const int64_t before = SglangLoadedWeightBytes(m, w, SglangVersionKey(0, 5, 9));
  const int64_t after = SglangLoadedWeightBytes(m, w, SglangVersionKey(0, 5, 14));
  EXPECT_EQ(after - before, 268'435'456);
  EXPECT_EQ(before, LoadedBytesPerRank(m, w, LoadMeasure::kDeviceFree, 0));
}

}  // namespace
}  // namespace kvplan
