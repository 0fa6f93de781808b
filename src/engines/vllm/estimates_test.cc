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
  int64_t peak = EstimateVllmActivationPeak(m, 4, 8192, 1024, VllmEra::kV1,
                                            ParseVllmRelease("0.9.2"), testing::H200(), 8192);
  EXPECT_NEAR(ToGiB(peak), 5.62, 0.01 * 5.62);
}

// vllm#23278 (0.10.1, one H100): "Model loading took 65.9651 GiB" for gpt-oss-120b, whose
// checkpoint is 60.8 GiB: the mxfp4 MoE weights padded for the Marlin/Triton kernels.
TEST(VllmEstimates, GptOss120bWeightsOnHopperArePadded) {
  PlanResult r = PlanVllm("0.10.1", testing::GptOss120B(), testing::H100(), VllmArgs{}, {});
  EXPECT_NEAR(ToGiB(r.weights_bytes_per_gpu), 65.9651, 0.01 * 65.9651);
}

// The llm-d-planner vLLM 0.19.0 campaign on H100
// (tests/data/real/calibration/llmd-planner-v0.19.0/, "torch peak memory increase" of each log;
// 8192 batched tokens and 1024 sampler rows, the
// >= 70 GiB defaults): the Triton sampler's tensors counted from vLLM's source, plus the persistent
// fused-MoE workspace, within 2 % of each logged peak (nothing here is fitted).
TEST(VllmEstimates, TritonSamplerPeakMatchesTheV019Campaign) {
  struct Case {
    const char* model;
    int tp;
    double logged_gib;
  };
  const VllmRelease r = ParseVllmRelease("0.19.0");
  for (const Case& c :
       {Case{"meta-llama/Llama-3.1-8B-Instruct", 1, 1.89},
        Case{"Qwen/Qwen2.5-7B-Instruct", 1, 2.21}, Case{"Qwen/Qwen3-8B", 1, 2.21},
        Case{"google/gemma-2-9b-it", 1, 3.65}, Case{"Qwen/Qwen2.5-72B", 2, 2.29},
        Case{"Qwen/Qwen3-30B-A3B", 1, 2.68}, Case{"mistralai/Mixtral-8x7B-v0.1", 2, 1.21},
        Case{"openai/gpt-oss-20b", 1, 2.87}}) {
    int64_t peak = EstimateVllmActivationPeak(LoadModel(c.model), c.tp, 8192, 1024, VllmEra::kV1, r,
                                              testing::H100(), 8192);
    EXPECT_NEAR(ToGiB(peak), c.logged_gib, 0.02 * c.logged_gib) << c.model;
  }
}

// vllm/model_executor/layers/fused_moe/modular_kernel.py _chunk_info @v0.17.0: the workspace is
// allocated for min(M, VLLM_FUSED_MOE_CHUNK_SIZE) rows (16 * 1024 by envs.py) while
// VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING is on (max(1, ...) for a size below 1); 0.18.0
// removed the chunking (PR #34086), and before 0.17 kvplan has no workspace term.
TEST(VllmEstimates, FusedMoeChunkingCapsTheWorkspaceRowsAt017) {
  const VllmRelease v17 = ParseVllmRelease("0.17.0");
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(v17, 32768, std::nullopt, std::nullopt), 16384);
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(ParseVllmRelease("0.17.1"), 32768, 8192, std::nullopt),
            8192);
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(v17, 32768, 0, std::nullopt), 1);
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(v17, 32768, std::nullopt, false), 32768);
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(v17, 8192, std::nullopt, std::nullopt), 8192);
  EXPECT_EQ(VllmFusedMoeWorkspaceTokens(ParseVllmRelease("0.18.0"), 32768, 8192, std::nullopt),
            32768);
  // Qwen3-30B-A3B (hidden 2048, 768 per expert, top-8, bf16) at TP1: each workspace row is
  // 8 x (max(768, 2048) + max(1536, 2048)) x 2 B = 64 KiB, so halving the rows at 32,768 batched
  // tokens frees 16,384 x 64 KiB = 1 GiB of the profiled peak (the sampler branch dominates).
  const ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");
  const int64_t full =
      EstimateVllmActivationPeak(m, 1, 32768, 1024, VllmEra::kV1, v17, testing::H100(), 32768);
  const int64_t chunked =
      EstimateVllmActivationPeak(m, 1, 32768, 1024, VllmEra::kV1, v17, testing::H100(), 16384);
  EXPECT_EQ(full - chunked, 16384LL * 8 * (2048 + 2048) * 2);
}

// "non-torch forward increase memory" of the same campaign: 0.24-0.27 GiB on one GPU, 2.06-2.11
// at TP2 and 2.13-2.21 at TP4 (0.19.0, H100); and vllm#21429's TP4 H200 profile at 0.9.2, 2.04
// GiB, which the same NVLink-SHARP term reproduces with the earlier base.
TEST(VllmEstimates, V1NonTorchIncreaseByReleaseAndTp) {
  const VllmRelease v019 = ParseVllmRelease("0.19.0");
  EXPECT_NEAR(ToGiB(VllmV1NonTorchIncrease(v019, 1, false)), 0.25, 0.02);
  EXPECT_NEAR(ToGiB(VllmV1NonTorchIncrease(v019, 2, true)), 2.08, 0.03);
  EXPECT_NEAR(ToGiB(VllmV1NonTorchIncrease(v019, 4, true)), 2.17, 0.04);
  EXPECT_NEAR(ToGiB(VllmV1NonTorchIncrease(ParseVllmRelease("0.9.2"), 4, true)), 2.04, 0.02);
}

// A MoE model under --data-parallel-size dispatches every MoE layer over the DP x TP expert group
// (fused_moe/layer.py forward_impl @v0.10.1, NaiveAll2AllManager broadcasting over the DP group),
// so one GPU of a DP8 replica set holds an 8-rank NCCL communicator as a TP8 one does; a dense
// model's DP ranks run their forward passes alone. recipes12 (tests/data/real/vllm/
// recipes12_v1_dp8_two_kv_too_small.log, Qwen3-Coder-480B-FP8 DP8 + EP on H20): its two launches
// lack the same fixed 3.84 GiB against the plan without this term, at utilization 0.90 and 0.95.
TEST(VllmEstimates, MoeDataParallelRanksShareTheExpertGroupsCommunicator) {
  const ModelSpec moe = LoadModel("Qwen/Qwen3-Coder-480B-A35B-Instruct");
  const ModelSpec dense = LoadModel("Qwen/Qwen3-14B");
  EXPECT_EQ(VllmCollectiveGroupSize(moe, 1, 8), 8);
  EXPECT_EQ(VllmCollectiveGroupSize(moe, 2, 4), 8);
  EXPECT_EQ(VllmCollectiveGroupSize(moe, 4, 1), 4);
  EXPECT_EQ(VllmCollectiveGroupSize(dense, 1, 8), 1);
  const VllmRelease v0101 = ParseVllmRelease("0.10.1");
  const GpuSpec h20 = FindGpu("h20-3e");
  EXPECT_EQ(EstimateVllmNonTorch(VllmEra::kV1, v0101, VllmCollectiveGroupSize(moe, 1, 8), h20),
            VllmV1NonTorchIncrease(v0101, 8, true));
  EXPECT_GT(ToGiB(VllmV1NonTorchIncrease(v0101, 8, true)) -
                ToGiB(VllmV1NonTorchIncrease(v0101, 1, false)),
            2.0);
}

}  // namespace
}  // namespace kvplan
