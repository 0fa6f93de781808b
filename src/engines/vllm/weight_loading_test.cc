// vLLM's --dtype and --quantization as the weights it loads.
#include "engines/vllm/weight_loading.h"

#include <gtest/gtest.h>

#include "catalog/weights.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Qwen3-8B (bf16, untied): --quantization fp8 leaves the 151936 x 4096
// embedding and lm_head in bf16 and stores every other weight of the decoder's
// linear layers in one byte, with one float32 scale per tensor.
TEST(VllmWeightLoading, OnlineFp8PerTensorOnQwen3) {
  const ModelSpec bf16 = LoadModel("Qwen/Qwen3-8B");
  VllmArgs a = ParseVllmArgs({"vllm", "serve", "Qwen/Qwen3-8B", "--quantization", "fp8"});
  WeightLoading w = VllmWeightLoading(a);
  EXPECT_FALSE(w.online_fp8_per_channel);
  const ModelSpec fp8 = ModelAsLaunched(bf16, w);
  EXPECT_FALSE(fp8.quant.per_channel_scales);
  const WeightEstimate before = EstimateWeights(bf16, {});
  const WeightEstimate after = EstimateWeights(fp8, {});
  EXPECT_EQ(after.total_params, before.total_params);
  // 2 tables x 151936 x 4096 x 2 B stay, so do the norms; the linear tensors
  // (q, k, v, o, gate+up, down: 6 a layer) take half their bf16 bytes plus a
  // 4-byte scale each, except that a rank's K and V are counted per KV head
  // (EstimateWeights), which rounds their lone scale away.
  const int64_t tables = 2LL * 151936 * 4096 * 2;
  const int64_t norms = (36LL * (2 * 4096 + 2 * 128) + 4096) * 2;
  const int64_t linear_bf16 = before.bytes_per_rank - tables - norms;
  EXPECT_EQ(after.bytes_per_rank, tables + norms + linear_bf16 / 2 + 36LL * 4 * 4);
}

TEST(VllmWeightLoading, DtypeAndRefusals) {
  VllmArgs a = ParseVllmArgs({"vllm", "serve", "Qwen/Qwen3-8B", "--dtype", "float32"});
  const ModelSpec f32 = ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), VllmWeightLoading(a));
  EXPECT_EQ(f32.dtype_bytes, 4);
  a.dtype = "auto";
  a.quantization = "gguf";  // not a method kvplan models
  EXPECT_THROW(ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), VllmWeightLoading(a)), InputError);
  a.quantization = "bitsandbytes";  // in-flight 4-bit
  EXPECT_EQ(ModelAsLaunched(LoadModel("Qwen/Qwen3-8B"), VllmWeightLoading(a)).quant.weight_bits, 4);
}

}  // namespace
}  // namespace kvplan
