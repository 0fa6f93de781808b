// kvplan's estimates of vLLM's profiled terms against the logged profiles they are fitted on.
#include <gtest/gtest.h>

#include "base/units.h"
#include "catalog/model.h"
#include "engines/vllm/estimates.h"
#include "engines/vllm/vllm.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// vllm#21429's "Before" block (tests/data/real/vllm/pr21429_v1_debug_profiling_rank2.log):
// Qwen3-235B-A22B-FP8 at TP4 on H200, 8192 batched tokens and 1024 dummy sampler rows (the
// >= 70 GiB defaults), "torch peak memory increase: 5.62GiB". The V1 sampler's bytes per vocab
// entry are fitted on this one profile; the fit is within 1 % of it.
TEST(VllmEstimates, V1SamplerPeakFittedOnPr21429) {
  ModelSpec m = LoadModel("Qwen/Qwen3-235B-A22B-FP8");
  int64_t peak =
      EstimateVllmActivationPeak(m, 4, 8192, 1024, VllmEra::kV1, ParseVllmRelease("0.9.2"));
  EXPECT_NEAR(ToGiB(peak), 5.62, 0.01 * 5.62);
}

// vllm#23278 (0.10.1, one H100): "Model loading took 65.9651 GiB" for gpt-oss-120b, whose
// checkpoint is 60.8 GiB: the mxfp4 MoE weights padded for the Marlin/Triton kernels.
TEST(VllmEstimates, GptOss120bWeightsOnHopperArePadded) {
  PlanResult r = PlanVllm("0.10.1", testing::GptOss120B(), testing::H100(), VllmArgs{}, {});
  EXPECT_NEAR(ToGiB(r.weights_bytes_per_gpu), 65.9651, 0.01 * 65.9651);
}

}  // namespace
}  // namespace kvplan
