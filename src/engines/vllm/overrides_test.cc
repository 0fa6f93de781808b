// Launch settings that replace what vLLM's profiling would size: --num-gpu-blocks-override
// and the 0.21+ CUDA-graph estimate switch (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS).
#include <gtest/gtest.h>

#include <fmt/core.h>

#include "engines/vllm/vllm.h"
#include "testing/plan_figures.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

bool HasWarning(const PlanResult& r, const std::string& text) {
  for (const std::string& w : r.warnings) {
    if (w == text) return true;
  }
  return false;
}

// kv_cache_utils.py: the override replaces the profiled blocks, and the line names both.
TEST(VllmOverrides, NumGpuBlocksOverrideReplacesTheProfiledBlocks) {
  VllmArgs a;
  a.max_model_len = 8192;
  PlanResult profiled = PlanVllm("0.11.0", testing::Llama31_8B(), testing::H100(), a, {});
  ASSERT_TRUE(profiled.ok) << profiled.error_message;
  a.num_gpu_blocks_override = 1000;
  PlanResult r = PlanVllm("0.11.0", testing::Llama31_8B(), testing::H100(), a, {});
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 1000);
  EXPECT_EQ(r.max_total_num_tokens, 16000);  // blocks x block size 16
  EXPECT_TRUE(HasWarning(
      r, fmt::format("Overriding num_gpu_blocks={} with num_gpu_blocks_override=1000",
                     static_cast<int64_t>(testing::PlanFigure(profiled, "num_gpu_blocks")))));
}

// An override too small for one max-length request fails vLLM's start-up check, V1 and V0.
TEST(VllmOverrides, NumGpuBlocksOverrideTooSmallForOneRequest) {
  VllmArgs a;
  a.max_model_len = 8192;
  a.num_gpu_blocks_override = 100;  // 1,600 tokens
  PlanResult v1 = PlanVllm("0.11.0", testing::Llama31_8B(), testing::H100(), a, {});
  EXPECT_FALSE(v1.ok);
  EXPECT_EQ(v1.error_message.rfind("To serve at least one request with the models's max seq len "
                                   "(8192), (1.00 GiB KV cache is needed, which is larger than the "
                                   "available KV cache memory "
                                   "(0.20 GiB). Based on the available memory, the estimated "
                                   "maximum model length is 1600.",
                                   0),
            0u)
      << v1.error_message;
  PlanResult v0 = PlanVllm("0.6.3", testing::Llama31_8B(), testing::H100(), a, {});
  EXPECT_FALSE(v0.ok);
  EXPECT_EQ(v0.error_message.rfind("The model's max seq len (8192) is larger than the maximum "
                                   "number of tokens that can be stored in KV cache (1600).",
                                   0),
            0u)
      << v0.error_message;
}

// VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0 at 0.20+: no estimate is taken off the budget,
// which is then the 0.9.2-0.19 one (the same terms at 0.19.0 give the same KV memory).
TEST(VllmOverrides, GraphEstimateSwitchOffKeepsThePre021Budget) {
  VllmArgs a;
  a.max_model_len = 8192;
  PlanResult on = PlanVllm("0.20.0", testing::Llama31_8B(), testing::H100(), a, {});
  a.estimate_cudagraphs = false;
  PlanResult off = PlanVllm("0.20.0", testing::Llama31_8B(), testing::H100(), a, {});
  PlanResult before = PlanVllm("0.19.0", testing::Llama31_8B(), testing::H100(), a, {});
  ASSERT_TRUE(on.ok && off.ok && before.ok);
  EXPECT_GT(off.rest_memory_bytes, on.rest_memory_bytes);
  EXPECT_EQ(off.rest_memory_bytes, before.rest_memory_bytes);
  for (const std::string& w : off.warnings) {
    EXPECT_EQ(w.find("CUDA graph memory profiling is enabled"), std::string::npos) << w;
  }
}

}  // namespace
}  // namespace kvplan
