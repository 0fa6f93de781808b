#include "explain/log_vllm_replan.h"

#include <string>

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

RunRecord Rtx3090() {
  return ScanLogFile(
             kvplan::testing::SyntheticData("vllm/v0_llama31_8b_rtx3090_len29000_failed.log"))
      .runs.at(0);
}

TEST(LogVllmReplan, V0OneLineProfileReplansToTheLoggedBudgetAndFailure) {
  std::string why;
  std::optional<VllmReplanInputs> in = VllmReplanInputsOf(Rtx3090(), &why);
  ASSERT_TRUE(in) << why;
  EXPECT_EQ(in->version, "0.6.4.post1");
  VllmReplanVerdict v = ReplanVllm(*in);
  // 23.58 x 0.9 - 17.98 (torch peak incl. weights) - 0.35 = 2.892 GiB (the real log of vLLM issue
  // #10517 printed 2.89; this synthetic log repeats its figures).
  EXPECT_NEAR(v.kv_gib, 23.58 * 0.9 - 17.98 - 0.35, 1e-6);
  // 2.892 GiB / (16 x 131072 B per block) = 1480 blocks = 23,680 tokens < 29,000.
  EXPECT_FALSE(v.ok);
  EXPECT_NE(v.error.find("max seq len (29000)"), std::string::npos) << v.error;
}

TEST(LogVllmReplan, OnlyUtilizationCanBeSet) {
  std::string why;
  VllmReplanInputs in = *VllmReplanInputsOf(Rtx3090(), &why);
  EXPECT_THROW(ApplyVllmSet(&in, "--max-model-len", "8192"), InputError);
  EXPECT_THROW(ApplyVllmSet(&in, "--gpu-memory-utilization", "1.2"), InputError);
  ApplyVllmSet(&in, "--gpu-memory-utilization", "0.95");
  // 23.58 x 0.95 - 17.98 - 0.35 = 4.071 GiB -> 2084 blocks -> 33,344 tokens >= 29,000.
  VllmReplanVerdict v = ReplanVllm(in);
  EXPECT_TRUE(v.ok) << v.error;
  EXPECT_EQ(*v.tokens, 33344);
}

}  // namespace
}  // namespace kvplan
