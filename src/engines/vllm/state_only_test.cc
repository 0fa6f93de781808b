// Models without attention layers (Mamba-1, Mamba2) planned on vLLM V1: one MambaSpec page per
// layer whose block is the whole max_model_len (v1/worker/gpu_model_runner.py get_kv_cache_spec
// @v0.10.0), so the blocks are requests. Expected values are hand arithmetic from those rules;
// the state shapes are catalog/ssm_families_test.cc's.
#include <gtest/gtest.h>

#include <string>

#include "engines/vllm/hybrid.h"
#include "engines/vllm/vllm.h"
#include "testing/plan_figures.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

const ModelSpec& Mamba2_780m() {
  static const ModelSpec m =
      LoadModel(testing::RealData("configs/state-spaces--mamba2-780m.quoted.json"));
  return m;
}

const ModelSpec& Mamba130m() {
  static const ModelSpec m =
      LoadModel(testing::RealData("configs/state-spaces--mamba-130m-hf.json"));
  return m;
}

VllmMeasured KvBytes(int64_t bytes) {
  VllmMeasured ms;
  ms.available_kv = bytes;
  return ms;
}

// mamba2-780m at tp 1, bf16: a layer's page is conv 3328 x 3 + SSM 48 x 64 x 128 in the conv
// dtype (--mamba-ssm-cache-dtype auto) = (9,984 + 393,216) x 2 = 806,400 B, never padded.
TEST(VllmStateOnly, Mamba2BlockIsTheModelLength) {
  VllmHybridBlock h =
      VllmStateOnlyBlock(Mamba2_780m(), VllmArgs{}, ParseVllmRelease("0.11.0"), true, 4096);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_TRUE(h.state_only);
  EXPECT_EQ(h.state_bytes, 806'400);
  EXPECT_EQ(h.page_bytes, 806'400);
  EXPECT_EQ(h.block_size, 4096);
  EXPECT_FALSE(h.enlarged);
  EXPECT_TRUE(VllmHybridLogLines(h).empty());  // nothing enlarged, nothing padded
  EXPECT_TRUE(VllmStateOnlyModel(Mamba2_780m()));
  EXPECT_FALSE(VllmStateOnlyModel(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking")));
}

// With 10 GiB for the cache: num_gpu_blocks = 10,737,418,240 // 806,400 // 48 = 277
// (get_num_blocks), one block per request (cdiv(4096, 4096)): 277 requests at once, and
// "GPU KV cache size" = 277 // 1 group x 4096 = 1,134,592 tokens.
TEST(VllmStateOnly, Mamba2BlocksAreRequests) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "4096"}, "0.11.0");
  PlanResult r = PlanVllm("0.11.0", Mamba2_780m(), testing::H100(), a, KvBytes(int64_t{10} << 30));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "block_size"), 4096);
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 277);
  EXPECT_EQ(r.max_total_num_tokens, 1'134'592);
  EXPECT_EQ(testing::PlanFigure(r, "max_concurrency"), 277);
}

// mamba-130m at tp 1: conv 1536 x 3 + SSM 1536 x 16, bf16 = 58,368 B a layer; 4 GiB //
// 58,368 // 24 = 3,066 blocks of 2,048 tokens = 6,279,168 tokens (0.10.2's report).
TEST(VllmStateOnly, Mamba1BlocksAreRequests) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "2048"}, "0.10.2");
  PlanResult r = PlanVllm("0.10.2", Mamba130m(), testing::H100(), a, KvBytes(int64_t{4} << 30));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 3066);
  EXPECT_EQ(r.max_total_num_tokens, 6'279'168);
}

// Where kvplan has no rule for the state it says so instead of planning nothing: the V0 engine
// (its MambaCacheManager sits outside the KV cache) and, from 0.15.0, prefix caching's "align"
// mode. Before the model's first release the registry refuses it (catalog/engine_support.cc).
TEST(VllmStateOnly, UnmodelledLaunchesAreSaidSo) {
  VllmArgs v0 = ParseVllmArgs({"--max-model-len", "4096"}, "0.7.3");
  PlanResult old =
      PlanVllm("0.7.3", Mamba2_780m(), testing::H100(), v0, KvBytes(int64_t{10} << 30));
  EXPECT_FALSE(old.ok);
  EXPECT_TRUE(old.not_modelled);
  EXPECT_NE(old.error_message.find("V0 engine"), std::string::npos) << old.error_message;
  VllmArgs pc = ParseVllmArgs({"--max-model-len", "4096", "--enable-prefix-caching"}, "0.15.0");
  PlanResult cached =
      PlanVllm("0.15.0", Mamba2_780m(), testing::H100(), pc, KvBytes(int64_t{10} << 30));
  EXPECT_TRUE(cached.not_modelled);
  VllmArgs early = ParseVllmArgs({"--max-model-len", "4096"}, "0.7.2");
  PlanResult unserved =
      PlanVllm("0.7.2", Mamba2_780m(), testing::H100(), early, KvBytes(int64_t{10} << 30));
  EXPECT_FALSE(unserved.not_modelled);
  EXPECT_NE(unserved.error_message.find("Model architectures ['Mamba2ForCausalLM'] are not "
                                        "supported for now"),
            std::string::npos)
      << unserved.error_message;
}

}  // namespace
}  // namespace kvplan
