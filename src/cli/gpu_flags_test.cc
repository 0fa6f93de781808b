// Runs the kvplan binary: --gpu FILE.json and --gpu-capacity-mib in every verb
// that takes a GPU (the GPU files are synthetic, written by the test).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include <gtest/gtest.h>

#include "testing/cli_test_util.h"

namespace kvplan::cli {
namespace {

// A card the catalog lacks, described for memory plans only: no bandwidth, no FLOPs. One file
// per test process (ctest runs the tests of this file at once: a shared name was removed under
// the other test).
std::string MemoryOnlyGpuFile() {
  const std::string path =
      ::testing::TempDir() + "kvplan-memory-only-gpu-" + std::to_string(getpid()) + ".json";
  std::ofstream(path) << R"({"name": "Lab GPU 48GB", "capacity_mib": 49152, "link": "pcie",
                             "pcie_gb_s": 32})";
  return path;
}

// `text` with its line breaks and the indentation after them as single spaces.
std::string Unwrapped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '\n') c = ' ';
    if (c != ' ' || out.empty() || out.back() != ' ') out += c;
  }
  return out;
}

TEST(GpuFlags, AMemoryOnlyGpuFilePlansAndTheStepTimeVerbsNameWhatItLacks) {
  const std::string gpu = MemoryOnlyGpuFile();
  const testing::ShellRun plan = testing::RunKvplanShell("plan --model Qwen/Qwen3-8B --gpu " + gpu);
  EXPECT_EQ(plan.status, 0) << plan.out;
  EXPECT_NE(plan.out.find("Lab GPU 48GB"), std::string::npos) << plan.out;
  const testing::ShellRun compare =
      testing::RunKvplanShell("compare --model Qwen/Qwen3-8B --gpu " + gpu);
  EXPECT_EQ(compare.status, 0) << compare.out;
  for (const std::string verb : {"perf", "tune", "simulate"}) {
    const testing::ShellRun r =
        testing::RunKvplanShell(verb + " --model Qwen/Qwen3-8B --gpu " + gpu +
                                (verb == "simulate" ? " --concurrency 4 --num-requests 4" : ""));
    EXPECT_EQ(r.status, 2) << verb << ": " << r.out;
    EXPECT_NE(r.out.find(gpu + ": kvplan " + verb +
                         " needs 'hbm_tb_s' (memory bandwidth in TB/s) "
                         "and 'bf16_tflops' (dense BF16 TFLOP/s) for step times"),
              std::string::npos)
        << r.out;
    EXPECT_EQ(r.out.find('\n'), r.out.size() - 1) << "one line: " << r.out;
  }
  std::remove(gpu.c_str());
}

TEST(GpuFlags, ExplainTakesAGpuFileForALogThatNamesNoGpu) {
  // The synthetic decode log names no GPU: a file with rates predicts its decode; a memory-only
  // file re-plans it and says which figures the prediction lacks.
  const std::string log =
      std::string(KVPLAN_SOURCE_DIR) + "/tests/data/synthetic/sglang/decode_llama8b_no_spec.log";
  const std::string rated = std::string(KVPLAN_SOURCE_DIR) + "/docs/examples/my-gpu.json";
  const testing::ShellRun with_rates =
      testing::RunKvplanShell("explain " + log + " --gpu " + rated);
  EXPECT_EQ(with_rates.status, 0) << with_rates.out;
  // Sentences as one line: where they wrap depends on the paths' lengths (the checkout's, the
  // temporary directory's).
  EXPECT_NE(
      Unwrapped(with_rates.out).find("GPU NVIDIA RTX 6000 Ada Generation from --gpu " + rated),
      std::string::npos)
      << with_rates.out;
  EXPECT_NE(with_rates.out.find("kvplan predicts  "), std::string::npos) << with_rates.out;
  const std::string memory_only = MemoryOnlyGpuFile();
  const testing::ShellRun without =
      testing::RunKvplanShell("explain " + log + " --gpu " + memory_only);
  EXPECT_EQ(without.status, 0) << without.out;
  const std::string unwrapped = Unwrapped(without.out);
  EXPECT_NE(unwrapped.find("kvplan predicts nothing: " + memory_only +
                           ": the decode prediction needs 'hbm_tb_s'"),
            std::string::npos)
      << without.out;
  std::remove(memory_only.c_str());
}

TEST(GpuFlags, ExplainKeepsTheLoggedNameOfAGpuItPlansOnTheOneGivenByGpu) {
  // Synthetic: the real pr13023 log (tests/data/real/sglang) with its nvidia-smi GPU renamed to
  // one outside the catalog; --gpu l40s names the card, the header still shows what was printed.
  std::ifstream in(std::string(KVPLAN_SOURCE_DIR) +
                   "/tests/data/real/sglang/pr13023_l40s_smi_and_server_args.log");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t at = text.find("NVIDIA L40S ");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 12, "NVIDIA L40X ");
  const std::string log = ::testing::TempDir() + "kvplan-l40x.log";
  std::ofstream(log) << text;
  const testing::ShellRun r = testing::RunKvplanShell("explain " + log + " --gpu l40s");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("GPU      1x NVIDIA L40X, 46068 MiB (nvidia-smi in the log)"),
            std::string::npos)
      << r.out;
  std::remove(log.c_str());
}

TEST(GpuFlags, EveryGpuVerbTakesTheCapacityThatPicksAnAmbiguousPart) {
  // 'a100' is the 40 GB or the 80 GB part; nvidia-smi's 40960 MiB says which.
  const std::string common = " --model Qwen/Qwen3-8B --gpu a100";
  for (const std::string verb : {"plan", "perf", "compare"}) {
    const testing::ShellRun refused = testing::RunKvplanShell(verb + common);
    EXPECT_EQ(refused.status, 2) << verb << ": " << refused.out;
    EXPECT_NE(refused.out.find("GPU 'a100' is ambiguous: use one of a100-40gb, a100-80gb"),
              std::string::npos)
        << refused.out;
    const testing::ShellRun picked =
        testing::RunKvplanShell(verb + common + " --gpu-capacity-mib 40960");
    EXPECT_EQ(picked.status, 0) << verb << ": " << picked.out;
  }
  const testing::ShellRun typo =
      testing::RunKvplanShell("tune --model Qwen/Qwen3-8B --gpu rtx-4090 --gpu-capacity-mib 24");
  EXPECT_EQ(typo.status, 2) << typo.out;
  EXPECT_NE(typo.out.find("--gpu-capacity-mib 24 is too small to be a GPU's capacity in MiB"),
            std::string::npos)
      << typo.out;
}

}  // namespace
}  // namespace kvplan::cli
