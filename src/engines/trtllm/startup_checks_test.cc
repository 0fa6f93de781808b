// TensorRT-LLM launches whose weights do not fit: a load failure, not a KV
// cache of negative size, and the smallest layout that serves.
#include <gtest/gtest.h>

#include "base/units.h"
#include "engines/trtllm/fixes.h"
#include "engines/trtllm/trtllm.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

// Llama-3.1-70B in bf16 is ~131 GiB against ~79 GiB: the loader runs out of
// memory. TP 2 (~66 GiB per rank) loads but cannot hold one 131,072-token
// request, TP 3 does not divide the 64 heads, so the fix is TP 4.
TEST(TrtllmStartupChecks, WeightsLargerThanTheGpu) {
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "meta-llama/Llama-3.1-70B"});
  PlanResult r = PlanTrtllm("", testing::Llama31_70B(), testing::H100(), a, {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message.rfind("torch.OutOfMemoryError: CUDA out of memory while loading", 0),
            0u)
      << r.error_message;
  EXPECT_TRUE(r.memory.empty());
  std::vector<Fix> fixes = TrtllmFixes("", testing::Llama31_70B(), testing::H100(), a, {}, r);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(fixes[0].flag, "--tp_size");
  EXPECT_EQ(fixes[0].value, "4");
}

// DeepSeek-V3 (~627 GiB of fp8 weights): even TP 8 leaves more than the GPU per
// rank, so PP 2 over TP 8.
TEST(TrtllmStartupChecks, PipelineWhenNoTpFits) {
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "deepseek-ai/DeepSeek-V3"});
  PlanResult r = PlanTrtllm("", testing::DeepSeekV3(), testing::H100(), a, {});
  EXPECT_FALSE(r.ok);
  std::vector<Fix> fixes = TrtllmFixes("", testing::DeepSeekV3(), testing::H100(), a, {}, r);
  ASSERT_EQ(fixes.size(), 1u);
  EXPECT_EQ(fixes[0].flag, "--pp_size");
  EXPECT_EQ(fixes[0].value, "2");
  EXPECT_EQ(fixes[0].effect.rfind("with --tp_size 8: 16 GPUs per replica; serves", 0), 0u);
}

// Measured weights mean the launch loaded: the KV verdict applies as before.
TEST(TrtllmStartupChecks, MeasuredWeightsLoaded) {
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "meta-llama/Llama-3.1-70B"});
  TrtllmMeasured m = TrtllmMeasuredFromGiB({{"weights", 75}});
  PlanResult r = PlanTrtllm("", testing::Llama31_70B(), testing::H100(), a, m);
  EXPECT_EQ(r.error_message.find("while loading"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace kvplan
