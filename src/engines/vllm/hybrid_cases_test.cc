// Hybrid models planned on vLLM against the public start-up logs of
// tests/data/real/hybrid_vllm/ (sources in its SOURCES.md): fed the KV memory
// the log measured, the plan gives the block size, blocks, tokens and
// concurrency the log printed, and the lines it printed.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "engines/vllm/vllm.h"
#include "testing/plan_figures.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

std::string ReadLog(const std::string& name) {
  std::ifstream in(testing::RealData("hybrid_vllm/" + name));
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The text after `key` up to the first character of `stop`, from the log.
std::string After(const std::string& log, const std::string& key, const std::string& stop) {
  size_t at = log.find(key);
  if (at == std::string::npos) return "";
  at += key.size();
  return log.substr(at, log.find_first_of(stop, at) - at);
}

bool HasLine(const PlanResult& r, const std::string& line) {
  for (const Figure& f : r.figures) {
    if (f.key.rfind("log_", 0) == 0 && f.text == line) return true;
  }
  return false;
}

// Qwen3-Next-80B-A3B-Instruct, vLLM 0.10.2, 2 x H200, tp 2, every other setting default. The
// catalog's Thinking config has the same geometry (48 layers, 12 full attention).
TEST(VllmHybridCases, Qwen3NextTp2H200V0_10_2) {
  const std::string log = ReadLog("qwen3-next-80b-tp2-h200-v0.10.2.log");
  ASSERT_FALSE(log.empty());
  VllmMeasured ms;
  ms.available_kv = std::stoll(After(log, "Current kv cache memory in use is ", " "));
  VllmArgs a = ParseVllmArgs(
      {"--model", "Qwen/Qwen3-Next-80B-A3B-Instruct", "--tensor-parallel-size", "2"}, "0.10.2");
  PlanResult r =
      PlanVllm("0.10.2", LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), testing::H200(), a, ms);
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "block_size"),
            std::stod(After(log, "Setting attention block size to ", " ")));
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"),
            std::stod(After(log, "after num_gpu_blocks is: ", "\n")));
  EXPECT_EQ(testing::PlanFigure(r, "kv_cache_groups"), 4);
  EXPECT_EQ(r.max_total_num_tokens, 973760);
  for (const char* key : {"Setting attention block size", "Padding mamba page size",
                          "GPU KV cache size", "Maximum concurrency for"}) {
    std::string line = key + After(log, key, "\n");
    EXPECT_TRUE(HasLine(r, line)) << line;
  }
  for (const std::string& w : r.warnings) {
    EXPECT_EQ(w.find("not modelled"), std::string::npos) << w;
  }
}

// The same launch fed the figure the log rounds (44.59 GiB) gives the same blocks.
TEST(VllmHybridCases, Qwen3NextTp2FromTheRoundedAvailableFigure) {
  const std::string log = ReadLog("qwen3-next-80b-tp2-h200-v0.10.2.log");
  double gib = std::stod(After(log, "Available KV cache memory: ", " "));
  VllmArgs a = ParseVllmArgs(
      {"--model", "Qwen/Qwen3-Next-80B-A3B-Instruct", "--tensor-parallel-size", "2"}, "0.10.2");
  PlanResult r = PlanVllm("0.10.2", LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), testing::H200(),
                          a, VllmMeasuredFromGiB({{"kv_cache", gib}}));
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 7162);
}

// DeepSeek-V3.2 at tp 8 on H200 with 40 GiB for the KV cache: each of the 61 MLA
// layers carries a 132 B/token indexer cache beside it, a block of 64 tokens costs
// every layer's page, and the cache dtype follows the release (hand arithmetic from
// deepseek_v2.py DeepseekV32IndexerCache and config.py DeepseekV32ForCausalLM).
TEST(VllmHybridCases, DeepSeekV32IndexerInTheBlock) {
  VllmArgs a = ParseVllmArgs({"--tensor-parallel-size", "8"});
  VllmMeasured ms;
  ms.available_kv = int64_t{40} << 30;
  // Newest: bf16 latent 576 x 2 + indexer 128 + 4 = 1,284 B per layer.
  PlanResult bf16 = PlanVllm("", testing::DeepSeekV32(), testing::H200(), a, ms);
  ASSERT_TRUE(bf16.ok) << bf16.error_message;
  EXPECT_EQ(bf16.cell_size_bytes, 61 * 1284);  // 78,324
  EXPECT_EQ(testing::PlanFigure(bf16, "num_gpu_blocks"), (int64_t{40} << 30) / (64 * 78324));
  EXPECT_EQ(testing::PlanFigure(bf16, "indexer_layers"), 61);
  // 0.11.0 turned "auto" into fp8_ds_mla: 656 + 132 = 788 B per layer.
  EXPECT_EQ(PlanVllm("0.11.0", testing::DeepSeekV32(), testing::H200(), a, ms).cell_size_bytes,
            61 * 788);
  // DeepSeek-V3 has no indexer: 61 x 1,152.
  EXPECT_EQ(PlanVllm("", testing::DeepSeekV3(), testing::H200(), a, ms).cell_size_bytes, 61 * 1152);
}

}  // namespace
}  // namespace kvplan
