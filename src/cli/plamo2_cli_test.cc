// PLaMo-2 as a user meets it, on the pfnet/plamo-2-1b config keys of tests/data/real/configs/
// (SOURCES.md): `kvplan models show` and `kvplan plan` under vLLM and SGLang. Figures checked
// are the hand-derived ones (catalog/plamo2_config_test.cc, engines/vllm/plamo2_hybrid_test.cc),
// not the plan's own estimates.
#include <string>

#include <gtest/gtest.h>

#include "testing/cli_test_util.h"
#include "testing/test_data.h"

namespace kvplan::cli {
namespace {

std::string Plamo2Config() { return testing::RealData("configs/pfnet--plamo-2-1b.quoted.json"); }

// 16 layers by mamba_step 2: 8 sliding-window attention layers (window 2048) and 8 Mamba ones;
// 1,291,441,920 parameters by hand.
TEST(Plamo2Cli, ModelsShow) {
  testing::ShellRun r = testing::RunKvplanShell("models show " + Plamo2Config());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("layers        16 (8 swa/2048, 8 linear)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1291441920"), std::string::npos) << r.out;
}

// vLLM 0.10.2 at TP 1 and a 32K context: 4,096 B a token (8 attention layers x 512), block size
// 1,072 (16 x cdiv(548,864, 16 x 512)), one attention and one state group of 8 layers (equal
// counts: no padding). At 0.10.1 plamo2.py is V0 only, which the plan says.
TEST(Plamo2Cli, PlanUnderVllm) {
  const std::string base = "plan --model " + Plamo2Config() + " --gpu h100 --max-model-len 32768";
  testing::ShellRun r = testing::RunKvplanShell(base + " --engine vllm@0.10.2");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("Verdict: OK."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(4,096 B per token)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--block-size              1072"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 attention + 1 mamba state groups of 8 layers"), std::string::npos)
      << r.out;
  testing::ShellRun v0 = testing::RunKvplanShell(base + " --engine vllm@0.10.1");
  EXPECT_NE(v0.out.find("V0 engine only (V1 support arrived in"), std::string::npos) << v0.out;
}

// No SGLang release has a PLaMo-2 model file, and vLLM added it in 0.8.5: the registry's words.
TEST(Plamo2Cli, UnservedReleasesRefused) {
  testing::ShellRun s =
      testing::RunKvplanShell("plan --model " + Plamo2Config() + " --gpu h100 --engine sglang");
  EXPECT_NE(s.out.find("Model architectures ['Plamo2ForCausalLM'] are not supported for now."),
            std::string::npos)
      << s.out;
  testing::ShellRun old =
      testing::RunKvplanShell("plan --model " + Plamo2Config() + " --gpu h100 --engine vllm@0.8.4");
  EXPECT_NE(old.out.find("it was added in 0.8.5"), std::string::npos) << old.out;
}

}  // namespace
}  // namespace kvplan::cli
