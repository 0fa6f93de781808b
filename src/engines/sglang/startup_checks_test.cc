// SGLang's start-up refusals: --context-length above the model, the sharding
// checks and weights that do not fit, each the engine's outcome with its fixes.
#include <gtest/gtest.h>

#include "base/units.h"
#include "catalog/model_loader.h"
#include "engines/sglang/sglang.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

PlanResult Plan(const ModelSpec& m, const std::vector<std::string>& flags) {
  return PlanSglang("", m, testing::H100(), ParseSglangArgs(flags), {});
}

double GpusPerReplica(const PlanResult& r) {
  const Figure* f = r.FindFigure("gpus_per_replica");
  return f ? f->value : -1;
}

// Qwen3-8B's config says max_position_embeddings 40960 and no rope scaling:
// --context-length 100000 stops ModelConfig before any weight loads (the text
// is model_config.py's; public logs of Feb 2026 print its first sentences).
TEST(SglangStartupChecks, ContextLengthAboveTheModelIsRefused) {
  ModelSpec m = LoadModel("Qwen/Qwen3-8B");
  PlanResult r = Plan(m, {"--context-length", "100000"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "Warning: User-specified context_length (100000) is greater than the derived "
            "context_length (40960). This may lead to incorrect model outputs or CUDA errors. "
            "Note that the derived context_length may differ from max_position_embeddings in the "
            "model's config. To allow overriding this maximum, set the env var "
            "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1");
  ASSERT_EQ(r.fixes.size(), 2u);
  EXPECT_EQ(r.fixes[0].flag, "--context-length");
  EXPECT_EQ(r.fixes[0].value, "40960");
  EXPECT_EQ(r.fixes[1].flag, "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN");

  PlanResult allowed =
      Plan(m, {"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1", "--context-length", "100000"});
  EXPECT_TRUE(allowed.ok) << allowed.error_message;
  EXPECT_EQ(allowed.context_length, 100000);
  bool warned = false;
  for (const std::string& w : allowed.warnings) {
    warned |= w.rfind("Warning: User-specified context_length (100000)", 0) == 0 &&
              w.find("To allow overriding") == std::string::npos;
  }
  EXPECT_TRUE(warned);
}

// Qwen2.5-7B at TP 7: the embedding is built first, and 152,064 (a multiple of
// 64) does not split 7 ways. TP 6 splits the vocabulary but not the 28 heads,
// 5 neither, so the nearest TP below that loads is 4; above, none up to 16.
TEST(SglangStartupChecks, VocabularyFirstThenNearestTp) {
  PlanResult r = Plan(LoadModel("Qwen/Qwen2.5-7B"), {"--tp", "7"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message, "AssertionError: 152064 is not divisible by 7");
  EXPECT_EQ(GpusPerReplica(r), 7);  // the header names 7 GPUs, not 1
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].flag, "--tp-size");
  EXPECT_EQ(r.fixes[0].value, "4");
}

// Under DP attention the KV heads replicate over the attention TP: Qwen2.5-7B
// at TP 28, DP 2 has 14 attention ranks, which 4 KV heads cannot fill evenly.
// The nearest TP below is 8 (attention TP 4); TP sizes DP 2 does not divide are
// skipped by the search, not thrown out of it.
TEST(SglangStartupChecks, KvReplicationUnderDpAttention) {
  PlanResult r =
      Plan(LoadModel("Qwen/Qwen2.5-7B"), {"--tp", "28", "--dp", "2", "--enable-dp-attention"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "AssertionError at `assert tp_size % self.total_num_kv_heads == 0` (4 KV heads, TP "
            "size 14)");
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].value, "8");
}

// DeepSeek-V3 on one H100: ~627 GiB of fp8 weights. Torch runs out of memory
// while loading, so the "raise --mem-fraction-static above 7.968" of the
// rest_memory check is never reached; TP 8 still needs ~79.3 GiB per rank, so
// the smallest layout is PP 2 over TP 8.
TEST(SglangStartupChecks, WeightsLargerThanTheGpu) {
  PlanResult r = Plan(testing::DeepSeekV3(), {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message.rfind("torch.OutOfMemoryError: CUDA out of memory while loading", 0),
            0u)
      << r.error_message;
  EXPECT_TRUE(r.memory.empty());
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].flag, "--pp-size");
  EXPECT_EQ(r.fixes[0].value, "2");
  PlanResult tp8 = Plan(testing::DeepSeekV3(), {"--tp", "8"});
  EXPECT_FALSE(tp8.ok);
  EXPECT_GT(tp8.weights_bytes_per_gpu, tp8.pre_load_free_bytes);
  EXPECT_TRUE(Plan(testing::DeepSeekV3(), {"--tp", "8", "--pp-size", "2"}).ok);
}

// Measured free memory after loading means the weights did load.
TEST(SglangStartupChecks, MeasuredLoadIsNotRefused) {
  SglangMeasured m;
  m.pre_load_free_bytes = GiBToBytes(93.999);
  m.post_load_free_bytes = GiBToBytes(21.697);
  SglangArgs a = ParseSglangArgs({"--tp", "8"});
  PlanResult r = PlanSglang("0.5.6", testing::DeepSeekV3(), FindGpu("rtx-pro-6000-server"), a, m);
  EXPECT_EQ(r.error_message.find("while loading"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace kvplan
