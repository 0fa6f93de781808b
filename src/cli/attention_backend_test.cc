// `kvplan plan`, `kvplan perf` and `kvplan tune` refuse an --attention-backend
// SGLang does not have with the same one-line message and exit status 2
// (SGLang's argparse choices, engines/sglang/attention_backend.cc).
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "testing/cli_test_util.h"

namespace kvplan::cli {
namespace {

using testing::CliResult;
using testing::RunKvplan;

const char* kMessage =
    "kvplan: error: unknown SGLang --attention-backend 'nonsense' (expected triton, "
    "torch_native, flex_attention, nsa, cutlass_mla, fa3, fa4, flashinfer, flashmla, trtllm_mla, "
    "trtllm_mha, dual_chunk_flash_attn, aiter, wave)\n";

TEST(AttentionBackendFlag, PlanRefusesAnUnknownBackend) {
  const CliResult r =
      RunKvplan({"plan", "--gpu", "h100", "--", "python", "-m", "sglang.launch_server",
                 "--model-path", "Qwen/Qwen3-8B", "--attention-backend", "nonsense"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, kMessage);
}

TEST(AttentionBackendFlag, PerfAndTuneRefuseItTheSameWay) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"perf", "--model", "Qwen/Qwen3-8B", "--gpu", "h100",
                                 "--attention-backend", "nonsense"},
        std::vector<std::string>{"tune", "--model", "Qwen/Qwen3-8B", "--gpu", "h100", "--gpus", "1",
                                 "--attention-backend", "nonsense"}}) {
    const CliResult r = RunKvplan(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.err, kMessage) << args[0];
  }
}

TEST(AttentionBackendFlag, PlanAcceptsSglangsChoices) {
  const CliResult r =
      RunKvplan({"plan", "--gpu", "h100", "--", "python", "-m", "sglang.launch_server",
                 "--model-path", "Qwen/Qwen3-8B", "--attention-backend", "flashinfer"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace kvplan::cli
