// Zamba2 as a user meets it, on the real pre-release Zyphra/Zamba2-7B config.json
// (tests/data/real/configs/SOURCES.md): `kvplan models show` and `kvplan plan` under vLLM and
// SGLang. Figures checked are the hand-derived ones (catalog/zamba2_config_test.cc,
// engines/vllm/zamba2_hybrid_test.cc), not the plan's own estimates.
#include <string>

#include <gtest/gtest.h>

#include "testing/cli_test_util.h"
#include "testing/test_data.h"

namespace kvplan::cli {
namespace {

std::string Zamba2Config() {
  return testing::RealData("configs/Zyphra--Zamba2-7B.prerelease.json");
}

// 81 decoder layers, 13 of them hybrid: 94 kvplan layers, 81 Mamba2 ones, 13 uses of the two
// shared blocks; 7,356,749,648 parameters (each shared block once).
TEST(Zamba2Cli, ModelsShow) {
  testing::ShellRun r = testing::RunKvplanShell("models show " + Zamba2Config());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("layers        94 (81 linear, 13 uses of 2 shared blocks)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("7356749648"), std::string::npos) << r.out;
}

// vLLM 0.10.2 at TP 1: 372,736 B a token (13 attention layers x 28,672), block size 48 (16 x
// cdiv(962,048, 16 x 28,672)), and vLLM's grouping of the layers into groups of 13 (the
// smaller layer count): 1 attention group and cdiv(81, 13) = 7 state groups, 7 x 13 - 81 = 10
// padding layers, 10 / 81 = 12.35 % (kv_cache_utils.py _get_kv_cache_groups_uniform_page_size).
TEST(Zamba2Cli, PlanUnderVllm) {
  testing::ShellRun r = testing::RunKvplanShell("plan --model " + Zamba2Config() +
                                                " --gpu h100 --engine vllm@0.10.2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Verdict: OK."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(372,736 B per token)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--block-size              48"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 attention + 7 mamba state groups of 13 layers"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Add 10 padding layers, may waste at most 12.35% KV cache memory"),
            std::string::npos)
      << r.out;
}

// No SGLang release has a Zamba2 model file: the registry's words; pipeline parallelism is
// refused (zamba2.py is not SupportsPP) with exit code 2.
TEST(Zamba2Cli, SglangAndPipelineParallelRefused) {
  testing::ShellRun s =
      testing::RunKvplanShell("plan --model " + Zamba2Config() + " --gpu h100 --engine sglang");
  EXPECT_NE(s.out.find("Model architectures ['Zamba2ForCausalLM'] are not supported for now."),
            std::string::npos)
      << s.out;
  testing::ShellRun pp = testing::RunKvplanShell("plan --model " + Zamba2Config() +
                                                 " --gpu h100 --engine vllm@0.10.2 "
                                                 "--pipeline-parallel-size 2");
  EXPECT_EQ(pp.status, 2) << pp.out;
  EXPECT_NE(pp.out.find("does not support pipeline parallelism"), std::string::npos) << pp.out;
}

}  // namespace
}  // namespace kvplan::cli
