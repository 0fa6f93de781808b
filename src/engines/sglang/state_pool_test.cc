// The hybrid state pool under SGLang, release by release. Expected values are
// hand arithmetic in the comments (mamba_cache_per_req of Qwen3-Next at TP 4
// is 19,316,736 B, catalog/state_shapes_test.cc), never kvplan output.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "testing/sglang_test_models.h"

namespace kvplan {
namespace {

using kvplan::testing::Measured;

constexpr int64_t kPerReq = 19'316'736;  // Qwen3-Next-80B at attention TP 4, bf16 conv, fp32 ssm

const ModelSpec& Qwen3Next() {
  static const ModelSpec m = LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking");
  return m;
}

double Fig(const PlanResult& r, const char* key) {
  const Figure* f = r.FindFigure(key);
  EXPECT_NE(f, nullptr) << key;
  return f ? f->value : -1;
}

SglangArgs Tp4() {
  SglangArgs a;
  a.tp = 4;
  a.mem_fraction_static = 0.8;
  return a;
}

// Measured 78 GiB free before and 40 GiB after loading, fraction 0.8:
// rest_memory = 40 - 78 * 0.2 = 24.4 GiB. The state pool takes 0.9 / 1.9 of it:
// int(24.4 * 0.9 / 1.9 * 2^30 // 19,316,736) = 642 slots (12.40e9 B); the KV
// cache gets int((24.4 - 642 * 19,316,736 / 2^30) * 2^30) // 12,288 B (12 full
// layers x 1 KV head x (256 + 256) x 2 B) = 1,122,880 tokens. max_running_requests
// <= 642 // 3 = 214.
TEST(SglangStatePool, RatioSplitOfRestMemory) {
  PlanResult r = PlanSglang("0.5.5", Qwen3Next(), FindGpu("h100"), Tp4(), Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(Fig(r, "mamba_cache_per_req_bytes"), kPerReq);
  EXPECT_EQ(Fig(r, "max_mamba_cache_size"), 642);
  EXPECT_EQ(Fig(r, "mamba_state_bytes"), 642.0 * kPerReq);
  EXPECT_EQ(r.cell_size_bytes, 12288);
  EXPECT_EQ(r.max_total_num_tokens, 1122880);
  EXPECT_EQ(r.max_running_requests, 214);
  bool bar = false;
  for (const MemorySlice& s : r.memory) bar |= s.label == "mamba state pool";
  EXPECT_TRUE(bar);
}

// The 2026 scheduler takes min(user, max_mamba_cache_size // 3) as well.
TEST(SglangStatePool, UserRequestsAreCappedByTheStatePool) {
  SglangArgs a = Tp4();
  a.max_running_requests = 1000;
  PlanResult r = PlanSglang("main", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.max_running_requests, 214);
}

// Radix cache off with --max-running-requests 64: 64 slots, one per request;
// KV rest 24.4 GiB - 64 * 19,316,736 B -> 2,031,496 tokens.
TEST(SglangStatePool, RadixCacheOffSizesTheStatePoolFromRequests) {
  SglangArgs a = Tp4();
  a.disable_radix_cache = true;
  a.max_running_requests = 64;
  PlanResult r = PlanSglang("0.5.5", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(Fig(r, "max_mamba_cache_size"), 64);
  EXPECT_EQ(r.max_total_num_tokens, 2031496);
  EXPECT_EQ(r.max_running_requests, 64);
}

// --mamba-ssm-dtype bfloat16 halves the SSM state: 36 x (6,144 + 131,072) x 2 B
// = 9,879,552 B per request, int(11.5579 GiB * 2^30 // 9,879,552) = 1256 slots.
TEST(SglangStatePool, Bf16SsmStateHalvesThePerRequestState) {
  SglangArgs a = Tp4();
  a.mamba_ssm_dtype = "bfloat16";
  PlanResult r = PlanSglang("0.5.5", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(Fig(r, "mamba_cache_per_req_bytes"), 9879552);
  EXPECT_EQ(Fig(r, "max_mamba_cache_size"), 1256);
  EXPECT_EQ(r.max_running_requests, 1256 / 3);
}

// v0.5.2: rest_memory -= --max-mamba-cache-size * per_req (no ratio split):
// 24.4 GiB - 300 * 19,316,736 B -> 1,660,504 tokens, max_num_reqs <= 300.
// Without the flag kvplan says it does not know the release's default.
TEST(SglangStatePool, V052NeedsAnExplicitStatePoolSize) {
  SglangArgs a = Tp4();
  PlanResult refused = PlanSglang("0.5.2", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  EXPECT_FALSE(refused.ok);
  EXPECT_NE(refused.error_message.find("--max-mamba-cache-size"), std::string::npos);
  a.max_mamba_cache_size = 300;
  PlanResult r = PlanSglang("0.5.2", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.max_total_num_tokens, 1660504);
  EXPECT_LE(r.max_running_requests, 300);
}

TEST(SglangStatePool, ReleasesBeforeThePoolAreRefused) {
  PlanResult r = PlanSglang("0.4.9", Qwen3Next(), FindGpu("h100"), Tp4(), Measured(78, 40));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("predates the hybrid"), std::string::npos) << r.error_message;
}

TEST(SglangStatePool, FlagsAreParsed) {
  SglangArgs a = ParseSglangArgs({"--max-mamba-cache-size", "300", "--mamba-full-memory-ratio",
                                  "0.5", "--mamba-ssm-dtype", "bfloat16", "--disable-radix-cache"});
  EXPECT_EQ(a.max_mamba_cache_size, 300);
  EXPECT_EQ(a.mamba_full_memory_ratio, 0.5);
  EXPECT_EQ(a.mamba_ssm_dtype, "bfloat16");
  EXPECT_TRUE(a.disable_radix_cache);
  EXPECT_THROW(ParseSglangArgs({"--mamba-ssm-dtype", "int8"}), InputError);
}

// Attention-only models have no state pool and no state figures.
TEST(SglangStatePool, AttentionOnlyModelsAreUnchanged) {
  PlanResult r = PlanSglang("0.5.5", LoadModel("Qwen/Qwen3-8B"), FindGpu("h100"), SglangArgs{},
                            Measured(78, 60));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.FindFigure("max_mamba_cache_size"), nullptr);
}

}  // namespace
}  // namespace kvplan
