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

RunRecord RealVllm(const std::string& name) {
  return ScanLogFile(kvplan::testing::RealData("vllm/" + name)).runs.at(0);
}

TEST(LogVllmReplan, V0BudgetSumNeedsNoModel_pr14447) {
  // The workers print: total_gpu_memory (23.58GiB) x gpu_memory_utilization (0.99); weights
  // 21.21GiB; non_torch 0.20GiB; activation peak 0.37GiB; reserved for KV Cache 1.57GiB.
  // No model name and no block count: the budget sum is the whole check.
  std::string why;
  std::optional<VllmReplanInputs> in =
      VllmReplanInputsOf(RealVllm("pr14447_v0_workers_profiling.log"), &why);
  ASSERT_TRUE(in) << why;
  EXPECT_TRUE(in->budget_only);
  VllmReplanVerdict v = ReplanVllm(*in);
  EXPECT_TRUE(v.budget_only);
  EXPECT_FALSE(v.tokens.has_value());
  EXPECT_NEAR(v.kv_gib, 1.57, 0.02);  // the log's 2-decimal terms
  for (const std::string& step : v.steps) EXPECT_EQ(step.find("num_gpu_blocks"), std::string::npos);
}

TEST(LogVllmReplan, V1InfoLinesNameTheMissingTermsAndTheirFlagsInOneLine_pr13596) {
  // Only "GPU KV cache size: 2,042,016 tokens" and the concurrency line.
  std::string why;
  EXPECT_FALSE(VllmReplanInputsOf(RealVllm("pr13596_v1_kv_tokens.log"), &why));
  EXPECT_EQ(why.rfind("no total GPU memory", 0), 0u) << why;
  EXPECT_NE(why.find("--measured activation_peak=GIB"), std::string::npos) << why;
  EXPECT_NE(why.find("DEBUG"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos);
}

TEST(LogVllmReplan, V1DebugProfilingLinesReplanTheBudget_pr21429) {
  // vLLM PR #21429's "Before" log (rank 2, V1 at DEBUG): "requested GPU memory: 69.86 GiB";
  // "torch peak memory increase: 5.62GiB; non-torch forward increase memory: 2.04GiB; weights
  // memory: 55.13GiB"; "Available KV cache memory: 7.07 GiB". No utilization is printed:
  // vLLM's default 0.9 is assumed and the total derived from it, so requested = total x
  // utilization stays as printed.
  RunRecord r = RealVllm("pr21429_v1_debug_profiling_rank2.log");
  std::string why;
  std::optional<VllmReplanInputs> in = VllmReplanInputsOf(r, &why);
  ASSERT_TRUE(in) << why;
  EXPECT_TRUE(in->budget_only);  // no model, no token count
  VllmReplanVerdict v = ReplanVllm(*in);
  EXPECT_NEAR(v.kv_gib, 7.07, 0.01);
  bool assumed = false;
  for (const std::string& n : in->notes) assumed |= n.find("default, assumed") != std::string::npos;
  EXPECT_TRUE(assumed);
}

TEST(LogVllmReplan, ALogCutAfterItsTermsIsReplannedWithNothingToCheck_pr10511) {
  // vLLM PR #10511's second launch (-tp 2, tabular V0 results) stops after "PyTorch activation
  // peak memory 1.26GiB": total_gpu_memory 79.22GiB, gpu_memory_utilization 0.90, model
  // weights take 7.48GiB, non_torch_memory 3.58GiB, and no KV line.
  RunRecord r =
      ScanLogFile(kvplan::testing::RealData("vllm/pr10511_v0_tabular_profiling_tp1_tp2.log"))
          .runs.at(1);
  std::string why;
  std::optional<VllmReplanInputs> in = VllmReplanInputsOf(r, &why);
  ASSERT_TRUE(in) << why;
  EXPECT_FALSE(in->kv_logged);
  EXPECT_NEAR(ReplanVllm(*in).kv_gib, 79.22 * 0.90 - 7.48 - 3.58 - 1.26, 0.01);
}

}  // namespace
}  // namespace kvplan
