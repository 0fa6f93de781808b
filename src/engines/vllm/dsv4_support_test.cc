// DeepSeek-V4 under vLLM: a release before 0.20.0 does not serve it; from 0.20.0 kvplan
// plans the weights and says in one line that vLLM's DeepSeek-V4 KV-cache layout is not
// modelled, never sizing it as plain MLA.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "engines/vllm/vllm.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ModelSpec Flash() {
  return LoadModel(kvplan::testing::RealData("configs/deepseek-ai--DeepSeek-V4-Flash.json"));
}

TEST(VllmDeepseekV4, KvCacheIsSaidNotModelledAfterTheWeights) {
  VllmArgs a;
  a.tp = 8;
  const PlanResult r = PlanVllm("", Flash(), FindGpu("h200"), a, {});
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("DeepSeek-V4 KV cache"), std::string::npos) << r.error_message;
  EXPECT_NE(r.error_message.find("not modelled"), std::string::npos) << r.error_message;
  EXPECT_EQ(r.error_message.find('\n'), std::string::npos);  // one line
  EXPECT_GT(r.weights_bytes_per_gpu, 0);
  EXPECT_EQ(r.max_total_num_tokens, 0);
  EXPECT_TRUE(r.not_modelled);  // kvplan's limit, not vLLM's failure
}

TEST(VllmDeepseekV4, ReleasesBeforeTheModelSaySo) {
  VllmArgs a;
  a.tp = 8;
  const PlanResult r = PlanVllm("0.19.0", Flash(), FindGpu("h200"), a, {});
  EXPECT_FALSE(r.ok);
  EXPECT_FALSE(r.not_modelled);  // the registry's refusal: vLLM 0.19.0 fails to start
  EXPECT_NE(r.error_message.find("vLLM 0.19.0 does not serve it; it was added in 0.20.0"),
            std::string::npos)
      << r.error_message;
}

}  // namespace
}  // namespace kvplan
