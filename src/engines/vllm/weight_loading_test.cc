// vLLM's --dtype and --quantization as the weights it loads.
#include "engines/vllm/weight_loading.h"

#include <gtest/gtest.h>

#include "base/units.h"
#include "catalog/weights.h"
#include "kvplan/error.h"
#include "testing/test_models.h"

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

// The MXFP4 MoE backend by release and GPU: Marlin on Ampere always and on Hopper until 0.12.0
// (vllm#23278 at 0.10.1 logs Marlin's warning on H100); Triton on Hopper from 0.12.0 (vllm#33155
// at 0.14.1 logs "Using Triton backend" on H100); Blackwell's FlashInfer layouts are not modelled.
TEST(VllmWeightLoading, Mxfp4BackendByReleaseAndGpu) {
  const GpuSpec h100 = testing::H100(), a100 = FindGpu("a100-80gb"), b200 = testing::B200();
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.10.1"), h100), VllmMxfp4Backend::kMarlin);
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.11.0"), h100), VllmMxfp4Backend::kMarlin);
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.12.0"), h100), VllmMxfp4Backend::kTriton);
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.19.0"), h100), VllmMxfp4Backend::kTriton);
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.19.0"), a100), VllmMxfp4Backend::kMarlin);
  EXPECT_EQ(VllmMxfp4BackendFor(ParseVllmRelease("0.19.0"), b200), VllmMxfp4Backend::kNotModelled);
}

// gpt-oss-120b on one H100 under Triton, by hand: 36 layers x 128 experts, each w13 5760 x 1440 B
// and w2 2880 x 1440 B (12,441,600 B), its scales twice (5760 x 90 + 2880 x 90 = 777,600 B as
// loaded, then 5888 x 90 + 3072 x 90 = 806,400 B swizzled) and float32 biases (8640 x 4 B), against
// the checkpoint's 12,441,600 + 777,600 + 8640 x 2 B.
TEST(VllmWeightLoading, Mxfp4TritonLayoutOfGptOss120bByHand) {
  const ModelSpec m = testing::GptOss120B();
  const WeightEstimate w = EstimateWeights(m, {});
  const int64_t units = 36 * 128;
  const int64_t triton = units * (12441600LL + 777600 + 806400 + 8640 * 4);
  const int64_t checkpoint = units * (12441600LL + 777600 + 8640 * 2);
  EXPECT_EQ(
      VllmMxfp4ExpertExtraBytes(m, w, VllmArgs{}, testing::H100(), ParseVllmRelease("0.14.1")),
      triton - checkpoint);
}

// vllm#33155 (0.14.1, one H100, "Using Triton backend"): "Model loading took 64.38 GiB" for
// gpt-oss-120b, 1.6 GiB under 0.10.1's Marlin layout (65.9651 GiB, vllm#23278).
TEST(VllmWeightLoading, GptOss120bWeightsUnderTritonMatchVllm33155) {
  PlanResult r = PlanVllm("0.14.1", testing::GptOss120B(), testing::H100(), VllmArgs{}, {});
  EXPECT_NEAR(ToGiB(r.weights_bytes_per_gpu), 64.38, 0.01 * 64.38);
}

}  // namespace
}  // namespace kvplan
