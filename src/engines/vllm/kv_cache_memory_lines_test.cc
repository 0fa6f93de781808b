// The --kv-cache-memory lines vLLM V1 prints (kv_cache_memory_lines.cc), against a real log and
// vLLM's source at each release that changed them.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "base/units.h"
#include "engines/vllm/budget.h"
#include "engines/vllm/vllm.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

int64_t GibBytes(double g) {
  return static_cast<int64_t>(std::llround(g * static_cast<double>(kGiB)));
}

// The llm-d-planner 0.19.0 campaign's CodeLlama-7b launch on one H100 (the full line of
// accuracy/results/v0.19.0/logs/codellama-codellama-7b-h--h100-80gb--tp1pp1dp1--8192.log at
// llm-d-incubation/llm-d-planner d3121e05; the excerpt in tests/data/real/calibration/ is cut at
// 600 characters). The terms are the log's: its two suggestions fix the free memory and the non-KV
// sum to the byte, the weights, peak and non-torch figures are its rounded GiB, and the graphs are
// what remains. The line is vLLM's to the character.
TEST(VllmKvCacheMemoryLines, HintMatchesTheCodeLlamaLogAtV019) {
  VllmTerms t;
  t.total = testing::H100().total_bytes;
  t.util = 0.95;
  VllmBudget b;
  b.requested = static_cast<double>(t.total) * t.util;
  const int64_t non_kv = static_cast<int64_t>(b.requested) - 65088610304 - 150 * kMiB;
  t.pre_load_free = 68789657600 + non_kv + 150 * kMiB;
  t.weights = GibBytes(12.56);
  t.activation = GibBytes(0.77);
  t.non_torch = GibBytes(0.25);
  t.cuda_graph = non_kv - t.weights - t.activation - t.non_torch;
  b.available = GibBytes(61.66);
  EXPECT_EQ(DescribeVllmKvCacheMemoryHint(t, b, ParseVllmRelease("0.19.0")),
            "Free memory on device (78.68/79.19 GiB) on startup. Desired GPU memory utilization "
            "is (0.95, 75.23 GiB). Actual usage is 12.56 GiB for weight, 0.77 GiB for peak "
            "activation, 0.25 GiB for non-torch memory, and 0.89 GiB for CUDAGraph memory. "
            "Replace gpu_memory_utilization config with `--kv-cache-memory=65088610304` (60.62 "
            "GiB) to fit into requested memory, or `--kv-cache-memory=68789657600` (64.07 GiB) to "
            "fully utilize gpu memory. Current kv cache memory in use is 61.66 GiB.");
}

// gpu_worker.py @v0.10.2 (PR #21489, logger.info): the suggestions in bytes only and the KV cache
// in bytes; from v0.11.0 each suggestion also in GiB.
TEST(VllmKvCacheMemoryLines, HintAtV0102HasBytesOnly) {
  VllmTerms t;
  t.total = GibBytes(80);
  t.util = 0.9;
  t.pre_load_free = GibBytes(79.5);
  t.weights = GibBytes(15);
  t.activation = GibBytes(1);
  t.non_torch = GibBytes(0.5);
  t.cuda_graph = GibBytes(0.5);
  VllmBudget b;
  b.requested = static_cast<double>(GibBytes(72));
  b.available = GibBytes(55.5);
  // 72 - 17 - 150 MiB and 79.5 - 17 - 150 MiB.
  const std::string tail =
      "Replace gpu_memory_utilization config with `--kv-cache-memory=58898513920` to fit into "
      "requested memory, or `--kv-cache-memory=66951577600` to fully utilize gpu memory. Current "
      "kv cache memory in use is 59592671232 bytes.";
  std::string line = DescribeVllmKvCacheMemoryHint(t, b, ParseVllmRelease("0.10.2"));
  EXPECT_EQ(line.substr(line.size() - tail.size()), tail);
  EXPECT_EQ(line.rfind("Free memory on device (79.5/80.0 GiB) on startup. Desired GPU memory "
                       "utilization is (0.9, 72.0 GiB).",
                       0),
            0u);
  // Eager launches capture no graphs: "0.0 GiB for CUDAGraph memory".
  t.enforce_eager = true;
  EXPECT_NE(DescribeVllmKvCacheMemoryHint(t, b, ParseVllmRelease("0.11.0"))
                .find("and 0.0 GiB for CUDAGraph memory. Replace gpu_memory_utilization config "
                      "with `--kv-cache-memory=59435384832` (55.35 GiB) to fit"),
            std::string::npos);
}

// The line that replaces "Available KV cache memory" when --kv-cache-memory sizes the cache:
// gpu_worker.py @v0.11.0 (unrounded free memory, "does does"), @v0.11.1 ("%.2f"), @v0.14.0
// (format_gib).
TEST(VllmKvCacheMemoryLines, FlagLineByRelease) {
  VllmTerms t;
  t.pre_load_free = GibBytes(78.6875);
  t.kv_cache_memory = GibBytes(4.25);
  EXPECT_EQ(DescribeVllmKvCacheMemoryFlagLine(t, ParseVllmRelease("0.11.0")).substr(0, 163),
            "Initial free memory 78.6875 GiB, reserved 4.25GiB memory for KV Cache as specified by "
            "kv_cache_memory_bytes config and skipped memory profiling. This does does not");
  EXPECT_EQ(DescribeVllmKvCacheMemoryFlagLine(t, ParseVllmRelease("0.13.0")).substr(0, 62),
            "Initial free memory 78.69 GiB, reserved 4.25 GiB memory for KV");
  EXPECT_EQ(DescribeVllmKvCacheMemoryFlagLine(t, ParseVllmRelease("0.20.1")),
            "Initial free memory 78.69 GiB, reserved 4.25 GiB memory for KV Cache as specified by "
            "kv_cache_memory_bytes config and skipped memory profiling. This does not respect the "
            "gpu_memory_utilization config. Only use kv_cache_memory_bytes config when you want "
            "manual control of KV cache memory size. If OOM'ed, check the difference of initial "
            "free memory between the current run and the previous run where kv_cache_memory_bytes "
            "is suggested and update it correspondingly.");
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

// The lines a plan lists ("log_1", "log_2", ... in the engine's order).
std::vector<std::string> PlanLogLines(const PlanResult& r) {
  std::vector<std::string> out;
  for (const Figure& f : r.figures) {
    if (f.key.rfind("log_", 0) == 0) out.push_back(f.text);
  }
  return out;
}

// A plan prints the suggestion last, after the KV cache report (gpu_worker.py
// compile_or_warm_up_model runs after the cache is allocated), from 0.10.2 only; with
// --kv-cache-memory the flag's line replaces "Available KV cache memory" and there is no
// suggestion.
TEST(VllmKvCacheMemoryLines, PlanListsTheLinesWhereVllmPrintsThem) {
  std::vector<std::string> lines =
      PlanLogLines(PlanVllm("0.19.0", testing::Llama31_8B(), testing::H100(), VllmArgs{}, {}));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_EQ(lines.front().rfind("Available KV cache memory: ", 0), 0u);
  EXPECT_EQ(lines.back().rfind("Free memory on device (", 0), 0u);
  EXPECT_EQ(lines[lines.size() - 2].rfind("Maximum concurrency for ", 0), 0u);
  for (const std::string& l :
       PlanLogLines(PlanVllm("0.10.1", testing::Llama31_8B(), testing::H100(), VllmArgs{}, {}))) {
    EXPECT_EQ(l.find("--kv-cache-memory="), std::string::npos) << l;
  }
  VllmArgs a;
  a.kv_cache_memory_bytes = 8589934592;
  lines = PlanLogLines(PlanVllm("0.19.0", testing::Llama31_8B(), testing::H100(), a, {}));
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.front().rfind("Initial free memory ", 0), 0u);
  EXPECT_NE(lines.front().find(", reserved 8.0 GiB memory for KV Cache"), std::string::npos);
  for (const std::string& l : lines) {
    EXPECT_EQ(l.find("Available KV cache memory"), std::string::npos) << l;
    EXPECT_EQ(l.find("Free memory on device"), std::string::npos) << l;
  }
}

}  // namespace
}  // namespace kvplan
