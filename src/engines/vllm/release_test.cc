// vLLM release numbers: dev builds run the rules of the release they follow.
#include <gtest/gtest.h>

#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

TEST(VllmRelease, DevBuildFollowsThePreviousRelease) {
  // setuptools-scm numbers a build N commits after v0.10.1 as 0.10.2.devN.
  VllmRelease r = ParseVllmRelease("0.10.2.dev123+g1234abcd");
  EXPECT_TRUE(r.AtLeast(0, 10, 1));
  EXPECT_FALSE(r.AtLeast(0, 10, 2));
  EXPECT_EQ(r.text, "0.10.2.dev123+g1234abcd");
  // 0.9.2 starts the per-instance V1 accounting; a build before it still counts other processes.
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.9.2.dev40+gabc"), std::nullopt), VllmEra::kV1Early);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.9.3.dev1"), std::nullopt), VllmEra::kV1);
  // A .0 dev build follows the last patch of the previous minor.
  VllmRelease z = ParseVllmRelease("0.20.0.dev7");
  EXPECT_TRUE(z.AtLeast(0, 19, 2));
  EXPECT_FALSE(z.AtLeast(0, 20, 0));
  EXPECT_EQ(VllmEraFor(z, std::nullopt), VllmEra::kV1);
}

// A checkout with no release tag (setuptools-scm's 0.1.devN, N = git rev-list --count) follows
// the newest release with at most N commits: 0.1.dev7548 (v0.9.2 has 7502 commits, v0.10.0 7926)
// plans with 0.9.2's per-instance V1 accounting.
TEST(VllmRelease, UntaggedDevBuildFollowsTheReleaseByCommitCount) {
  VllmRelease r = ParseVllmRelease("0.1.dev7548+g5e70dcd");
  EXPECT_TRUE(r.AtLeast(0, 9, 2));
  EXPECT_FALSE(r.AtLeast(0, 9, 3));
  EXPECT_EQ(r.text, "0.1.dev7548+g5e70dcd");
  EXPECT_EQ(VllmEraFor(r, std::nullopt), VllmEra::kV1);
  EXPECT_TRUE(ParseVllmRelease("0.1.dev16136").AtLeast(0, 20, 1));
  // Before 0.6.0's 2555 commits, or far past the newest tag counted: the release is unknown.
  EXPECT_THROW(ParseVllmRelease("0.1.dev2000"), InputError);
  EXPECT_THROW(ParseVllmRelease("0.1.dev30000"), InputError);
}

// The CUDA-graph estimate (gpu_worker.py determine_available_memory, PR #30515): profiled from
// 0.18.0 and taken off the KV budget only with VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1, whose
// default is "1" from 0.20.0 (envs.py, PR #38284); 0.17 has no such variable.
TEST(VllmRelease, GraphEstimateIsTheDefaultFrom020AndOptInAt018) {
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.19.1"), std::nullopt), VllmEra::kV1);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.20.0"), std::nullopt), VllmEra::kV1GraphEstimate);
  auto plan = [](const char* release, std::optional<bool> estimate) {
    VllmArgs a;
    a.max_model_len = 8192;
    a.estimate_cudagraphs = estimate;
    return PlanVllm(release, testing::Llama31_8B(), testing::H100(), a, {}).rest_memory_bytes;
  };
  EXPECT_GT(plan("0.19.0", std::nullopt), plan("0.19.0", true));
  EXPECT_EQ(plan("0.19.0", std::nullopt), plan("0.19.0", false));
  EXPECT_EQ(plan("0.20.0", std::nullopt), plan("0.20.0", true));
  EXPECT_GT(plan("0.20.0", false), plan("0.20.0", true));
  EXPECT_EQ(plan("0.17.0", std::nullopt), plan("0.17.0", true));
}

TEST(VllmRelease, CandidatesKeepTheirRelease) {
  VllmRelease r = ParseVllmRelease("0.15.2rc1.dev93+g11a4c9d30");
  EXPECT_TRUE(r.AtLeast(0, 15, 2));
  EXPECT_TRUE(ParseVllmRelease("0.11.0rc2").AtLeast(0, 11, 0));
}

TEST(VllmRelease, EveryReleaseFromSixOn) {
  for (int minor = 6; minor <= 28; ++minor) {
    EXPECT_NO_THROW(ParseVllmRelease("0." + std::to_string(minor) + ".0")) << minor;
  }
  EXPECT_THROW(ParseVllmRelease("0.5.4"), InputError);
  // A dev build before 0.6.0 follows 0.5.x, which is not modelled.
  EXPECT_THROW(ParseVllmRelease("0.6.0.dev3"), InputError);
}

}  // namespace
}  // namespace kvplan
