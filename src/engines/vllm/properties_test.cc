// Properties of the vLLM planner over a grid of launches: every fix it offers
// starts when applied, tokens follow from blocks, and the budget is monotone.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/units.h"
#include "engines/vllm/vllm.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

struct Launch {
  std::string version;
  ModelSpec model;
  std::vector<std::string> flags;
};

std::vector<Launch> Grid() {
  std::vector<Launch> out;
  for (const char* v : {"0.7.0", "0.8.5", "0.10.1", "0.15.2", "0.21.0", "0.28.0"}) {
    for (const char* util : {"0.3", "0.5", "0.7", "0.9"}) {
      for (const char* len : {"8192", "65536", "131072"}) {
        out.push_back(
            {v, testing::Llama31_8B(), {"--gpu-memory-utilization", util, "--max-model-len", len}});
        out.push_back(
            {v, testing::GptOss120B(), {"--gpu-memory-utilization", util, "--max-model-len", len}});
      }
    }
  }
  return out;
}

VllmArgs Apply(VllmArgs a, const Fix& f) {
  if (f.flag == "--gpu-memory-utilization") a.gpu_memory_utilization = std::stod(f.value);
  if (f.flag == "--max-model-len") a.max_model_len = std::stoll(f.value);
  if (f.flag == "--kv-cache-dtype") a.kv_cache_dtype = f.value;
  if (f.flag == "--tensor-parallel-size") a.tp = std::stoi(f.value);
  return a;
}

TEST(VllmProperties, EveryFixStartsWhenApplied) {
  int failing = 0, with_fixes = 0;
  for (const Launch& l : Grid()) {
    VllmArgs a = ParseVllmArgs(l.flags);
    PlanResult r = PlanVllm(l.version, l.model, testing::H100(), a, VllmMeasured{});
    if (r.ok) continue;
    ++failing;
    with_fixes += r.fixes.empty() ? 0 : 1;  // none when no single change is enough
    for (const Fix& f : r.fixes) {
      PlanResult fixed = PlanVllm(l.version, l.model, testing::H100(), Apply(a, f), VllmMeasured{});
      EXPECT_TRUE(fixed.ok) << l.version << " " << l.model.id << " " << f.flag << "=" << f.value
                            << ": " << fixed.error_message;
    }
  }
  EXPECT_GT(failing, 10);  // the grid does exercise failures
  EXPECT_GT(with_fixes, 10);
}

TEST(VllmProperties, TokensFollowFromBlocksForOneGroup) {
  int started = 0;
  for (const Launch& l : Grid()) {
    if (l.model.id != testing::Llama31_8B().id) continue;
    PlanResult r =
        PlanVllm(l.version, l.model, testing::H100(), ParseVllmArgs(l.flags), VllmMeasured{});
    if (!r.ok) continue;
    ++started;
    const Figure* blocks = r.FindFigure("num_gpu_blocks");
    ASSERT_NE(blocks, nullptr);
    if (l.version != "0.28.0") {
      EXPECT_EQ(r.max_total_num_tokens, static_cast<int64_t>(blocks->value) * 16) << l.version;
    }
    // Budget and blocks agree: blocks x 16 tokens x bytes/token <= budget < one block more.
    int64_t used = static_cast<int64_t>(blocks->value) * 16 * r.cell_size_bytes;
    EXPECT_LE(used, r.rest_memory_bytes);
    EXPECT_GT(used + 16 * r.cell_size_bytes, r.rest_memory_bytes);
  }
  // From gpu_memory_utilization 0.5 up, an H100's budget (~39.6 GiB) holds the 15 GiB of
  // weights and 131072 tokens of 128 KiB (16 GiB): at least 6 releases x 3 x 3 lengths start.
  EXPECT_GE(started, 54);
}

TEST(VllmProperties, LongerContextNeverAddsCapacity) {
  for (const char* v : {"0.10.1", "0.28.0"}) {
    double prev = 1e18;
    for (int64_t len : {4096, 8192, 16384, 32768, 65536}) {
      VllmArgs a = ParseVllmArgs({"--max-model-len", std::to_string(len)});
      // Weights as vLLM loads gpt-oss-120b (mxfp4 experts): ~61 GiB.
      PlanResult r = PlanVllm(v, testing::GptOss120B(), testing::H100(), a,
                              VllmMeasuredFromGiB({{"weights", 61}}));
      ASSERT_TRUE(r.ok) << r.error_message;
      double c = r.FindFigure("max_concurrency")->value;
      EXPECT_LE(c, prev) << v << " " << len;
      prev = c;
    }
  }
}

}  // namespace
}  // namespace kvplan
