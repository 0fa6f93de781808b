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

// Kimi-Linear-48B at tp 2 (vllm-project/vllm#28228, a build of 2025-11-06 planned as 0.11.1,
// --max-model-len 120000). By hand: the KDA state of a layer at tp 2 is conv 3 x 2,048 x 3 x
// 2 B + recurrent 16 x 128 x 128 x 4 B = 1,085,440 B; the MLA page of a token 1,152 B; MLA
// aligns to 64: 64 x cdiv(1085440, 73728) = 960 tokens, pages of 1,105,920 B. 7 MLA and 20 KDA
// layers make groups of 7 (one attention, three state groups, one padding layer). The log's
// concurrency 2.48 = blocks / (cdiv(120000, 960) + 3) needs 318 blocks, i.e. between 318 and
// 319 x 7 x 1,105,920 B available, which prints as the log's 2.30 GiB; then 318 // 4 x 960 =
// 75,840 tokens. The rounded 2.30 GiB itself gives 319 blocks and the same tokens.
TEST(VllmHybridCases, KimiLinearTp2Issue28228) {
  const std::string log = ReadLog("kimi-linear-48b-tp2-vllm-issue28228.log");
  ASSERT_FALSE(log.empty());
  const ModelSpec kimi =
      LoadModel(testing::RealData("configs/moonshotai--Kimi-Linear-48B-A3B-Instruct.json"));
  VllmArgs a =
      ParseVllmArgs({"--tensor-parallel-size", "2", "--max-model-len", "120000"}, "0.11.1");
  VllmMeasured ms;
  ms.available_kv = int64_t{318} * 7 * 1105920;
  PlanResult r = PlanVllm("0.11.1", kimi, testing::H100(), a, ms);
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "block_size"), 960);
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 318);
  EXPECT_EQ(testing::PlanFigure(r, "kv_cache_groups"), 4);
  EXPECT_EQ(r.max_total_num_tokens, 75840);
  for (const char* key : {"GPU KV cache size", "Maximum concurrency for"}) {
    std::string line = key + After(log, key, "\n");
    EXPECT_TRUE(HasLine(r, line)) << line;
  }
  bool padding = false;
  for (const std::string& w : r.warnings)
    padding |= w == "Add 1 padding layers, may waste at most 5.00% KV cache memory";
  EXPECT_TRUE(padding);
  const double gib = std::stod(After(log, "Available KV cache memory: ", " "));
  PlanResult rounded =
      PlanVllm("0.11.1", kimi, testing::H100(), a, VllmMeasuredFromGiB({{"kv_cache", gib}}));
  EXPECT_EQ(testing::PlanFigure(rounded, "num_gpu_blocks"), 319);
  EXPECT_EQ(rounded.max_total_num_tokens, 75840);
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
