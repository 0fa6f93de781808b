// SGLang's mem_fraction_static factor for a multimodal model, against the rule
// in python/sglang/srt/server_args.py adjust_mem_fraction_for_vlm (v0.4.10 to
// v0.5.9; #6881) and model_runner.py's 0.9 before it: the factor is the ratio
// of the multimodal model's fraction to the same text model's.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "catalog/model_loader.h"
#include "catalog/weights.h"
#include "engines/sglang/era.h"
#include "engines/sglang/multimodal.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/weight_loading.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using namespace kvplan::testing;

// The automatic fraction of `m` and of the same model read as text only, on
// an H100 at TP 1 (pre-load 78.69 GiB free, post-load 70 GiB free).
double FactorOf(const char* version, const ModelSpec& m) {
  ModelSpec text = m;
  text.multimodal = false;
  const SglangArgs a;
  const PlanResult mm = PlanSglang(version, m, H100(), a, Measured(78.69, 70.0));
  const PlanResult plain = PlanSglang(version, text, H100(), a, Measured(78.69, 70.0));
  EXPECT_FALSE(mm.fraction_user);
  return mm.fraction / plain.fraction;
}

// 1 - 0.1 x (layers x hidden^2 / (24 x 1024^2) - 1), clamped to [0.8, 1.05], x 0.95.
double VlmFactor(double layers, double hidden) {
  const double complexity = layers * hidden * hidden / (24.0 * 1024 * 1024);
  return 0.95 * std::clamp(1.0 - 0.1 * (complexity - 1.0), 0.8, 1.05);
}

// Qwen2.5-VL-3B (real config): Transformers' Qwen2_5_VLVisionConfig names the
// depth `depth` and has no num_hidden_layers, so getattr gives 24; hidden_size
// is 1280: 0.95 x (1 - 0.1 x 0.5625) = 0.8965625 (not the 32-layer 0.8471).
TEST(SglangMultimodal, Qwen25VlReadsDefaultDepth) {
  const ModelSpec m = LoadModel(RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  EXPECT_NEAR(FactorOf("0.5.2", m), 0.8965625, 1e-9);
  EXPECT_NEAR(FactorOf("0.5.9", m), VlmFactor(24, 1280), 1e-9);
}

// Gemma-3-27B: SiglipVisionConfig has num_hidden_layers 27 and hidden_size
// 1152: 0.95 x (1 - 0.1 x 0.423828125) = 0.909736328125.
TEST(SglangMultimodal, Gemma3SiglipReadsItsLayers) {
  EXPECT_NEAR(FactorOf("0.5.2", Gemma3_27B()), 0.909736328125, 1e-9);
}

// Phi-3.5-vision (real config) keeps its encoder in img_processor: the loaded
// config has no vision_config and adjust_mem_fraction_for_vlm returns at once.
TEST(SglangMultimodal, NoVisionConfigNoFactor) {
  const ModelSpec m = LoadModel(RealData("configs/microsoft--Phi-3.5-vision-instruct.json"));
  EXPECT_TRUE(m.multimodal);
  EXPECT_NEAR(FactorOf("0.5.2", m), 1.0, 1e-12);
}

// Before v0.4.10 model_runner.py multiplied by 0.9 for every multimodal model.
TEST(SglangMultimodal, FlatFactorBefore0410) {
  const ModelSpec m = LoadModel(RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  EXPECT_NEAR(FactorOf("0.4.9", m), 0.90, 1e-9);
}

// Under TP, SGLang's Qwen VL towers split their linears (models/qwen2_5_vl.py
// Qwen2_5_VisionBlock: Column/RowParallelLinear): at TP 2 a rank holds half of
// Qwen2.5-VL-3B's 668,684,288-parameter tower, 668,684,288 B of bf16 less than
// the replicated estimate. Gemma-3's SigLIP stays replicated.
TEST(SglangMultimodal, QwenVlTowerSplitsOverTp) {
  const ModelSpec m = LoadModel(RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  SglangArgs a;
  a.tp = 2;
  a.mem_fraction_static = 0.8;
  const PlanResult r = PlanSglang("0.5.2", m, H100(), a, SglangMeasured{});
  EXPECT_EQ(r.weights_bytes_per_gpu,
            SglangLoadedWeightBytes(m, EstimateWeights(m, Parallelism{.tp = 2}),
                                    SglangVersionKey(0, 5, 2)) -
                668'684'288);
  const WeightEstimate g = EstimateWeights(Gemma3_27B(), Parallelism{.tp = 2});
  EXPECT_EQ(SglangEncoderWeightsOvercount(Gemma3_27B(), g, 2), 0);
  EXPECT_EQ(SglangEncoderWeightsOvercount(m, EstimateWeights(m, {}), 1), 0);
}

// --mm-enable-dp-encoder (v0.5.6): the tower runs data-parallel, so each rank
// loads all of it and the TP split above is not taken. At TP 2 a rank holds
// 668,684,288 more parameters' worth than when split: 668,684,288 x 2 B x
// (1 - 1/2) = 668,684,288 B; at TP 4, x (1 - 1/4): 1,003,026,432 B.
TEST(SglangMultimodal, DpEncoderKeepsTheWholeTower) {
  const ModelSpec m = LoadModel(RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
  const std::vector<std::string> split = {"--model-path",          "m",  "--tp", "2",
                                          "--mem-fraction-static", "0.8"};
  std::vector<std::string> dp = split;
  dp.push_back("--mm-enable-dp-encoder");
  const PlanResult tp_split =
      PlanSglang("0.5.6", m, H100(), ParseSglangArgs(split, "0.5.6"), SglangMeasured{});
  const PlanResult dp_whole =
      PlanSglang("0.5.6", m, H100(), ParseSglangArgs(dp, "0.5.6"), SglangMeasured{});
  EXPECT_EQ(dp_whole.weights_bytes_per_gpu - tp_split.weights_bytes_per_gpu, 668'684'288);
  EXPECT_EQ(dp_whole.weights_bytes_per_gpu,
            SglangLoadedWeightBytes(m, EstimateWeights(m, Parallelism{.tp = 2}),
                                    SglangVersionKey(0, 5, 6)));
  SglangArgs a = ParseSglangArgs(dp, "0.5.6");
  a.tp = 4;
  SglangArgs b = a;
  b.mm_enable_dp_encoder = false;
  const PlanResult dp4 = PlanSglang("0.5.6", m, H100(), a, SglangMeasured{});
  const PlanResult split4 = PlanSglang("0.5.6", m, H100(), b, SglangMeasured{});
  EXPECT_EQ(dp4.weights_bytes_per_gpu - split4.weights_bytes_per_gpu, 1'003'026'432);
}

}  // namespace
}  // namespace kvplan
