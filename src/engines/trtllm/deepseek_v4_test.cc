// DeepSeek-V4 under TensorRT-LLM: no release kvplan models serves it (it came on the
// feat/deepseek_v4 branch, in 1.3.0rc releases), and the plan says so instead of sizing a cache.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "engines/trtllm/trtllm.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

TEST(TrtllmDeepseekV4, NoModelledReleaseServesIt) {
  const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/deepseek-ai--DeepSeek-V4-Flash.json"));
  TrtllmArgs a;
  a.tp = 8;
  const PlanResult r = PlanTrtllm("1.0.0", m, FindGpu("h200"), a, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("TensorRT-LLM 1.0.0 does not serve DeepseekV4ForCausalLM"),
            std::string::npos)
      << r.error_message;
  EXPECT_EQ(r.max_total_num_tokens, 0);
  EXPECT_TRUE(r.memory.empty());
}

}  // namespace
}  // namespace kvplan
