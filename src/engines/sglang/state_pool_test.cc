// The hybrid state pool under SGLang, release by release. Expected values are
// hand arithmetic in the comments (mamba_cache_per_req of Qwen3-Next at TP 4
// is 19,316,736 B, catalog/state_shapes_test.cc), never kvplan output.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "catalog/state_shapes.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "testing/plan_figures.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using kvplan::testing::Measured;

constexpr int64_t kPerReq = 19'316'736;  // Qwen3-Next-80B at attention TP 4, bf16 conv, fp32 ssm

const ModelSpec& Qwen3Next() {
  static const ModelSpec m = LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking");
  return m;
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
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), kPerReq);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 642);
  EXPECT_EQ(testing::PlanFigure(r, "mamba_state_bytes"), 642.0 * kPerReq);
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
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 64);
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
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 9879552);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 1256);
  EXPECT_EQ(r.max_running_requests, 1256 / 3);
}

// Speculative decoding (NEXTN, 4 draft tokens) reserves the intermediate states
// of the 48 requests server_args.py sets first: 19,316,736 x 48 x 4 =
// 3,708,813,312 B; then int((24.4 - 3.454) GiB * 0.9 / 1.9 // per_req) = 551 slots.
TEST(SglangStatePool, SpeculativeIntermediateStatesComeFirst) {
  SglangArgs a = Tp4();
  a.speculative_algorithm = "NEXTN";
  a.speculative_num_steps = 3;
  a.speculative_eagle_topk = 1;
  a.speculative_num_draft_tokens = 4;
  PlanResult r = PlanSglang("0.5.5", Qwen3Next(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_intermediate_bytes"), 3708813312.0);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 551);
  EXPECT_EQ(r.max_running_requests, 48);
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

// Qwen3-Next arrived with the state pool (v0.5.2): an older release stops in its model
// registry (catalog/engine_support.cc), before any state-pool rule.
TEST(SglangStatePool, ReleasesBeforeThePoolAreRefused) {
  PlanResult r = PlanSglang("0.4.9", Qwen3Next(), FindGpu("h100"), Tp4(), Measured(78, 40));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("['Qwen3NextForCausalLM'] are not supported for now. (kvplan: "
                                 "SGLang 0.4.9 does not serve it; it was added in 0.5.2"),
            std::string::npos)
      << r.error_message;
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

// tests/data/real/sglang/ktransformers1870_qwen35_moe_tp2_mamba_pool.log: SGLang
// 0.5.9, Qwen3.5-397B-A17B on two RTX 4090s, TP 2, fraction 0.85, measured 22.84
// GB free before loading (19.08 + 3.76) and 19.08 after. Per request at TP 2:
// 45 layers x (conv 12,288 / 2 x 3 x 2 B + ssm 64 / 2 x 128 x 128 x 4 B) =
// 96,030,720 B; rest_memory 19.08 - 22.84 x 0.15 = 15.654 GiB, of which
// 0.9 / 1.9 buys int(7.415 GiB // 96,030,720 B) = 82 slots, as logged. The log's
// "ssm_state size: 7.29GB" is 83 slots (memory_pool.py MambaPool keeps one
// padding slot more): 83 x 45 x 2,097,152 B = 7.295 GiB (82 would print 7.21).
// KV: 15 full layers x 1 KV head x 512 x 2 B = 15,360 B/token; logged 580,364
// tokens, K size 4.15 GB. kvplan's 581,629 is 0.22 % above: the pre-load free
// is rebuilt from two 2-decimal figures (+-0.0065 GiB, +-450 tokens) and the
// rest of the gap (about 18 MiB) is not explained.
TEST(SglangStatePool, Qwen35On4090Tp2_ktransformers1870) {
  const ModelSpec m = LoadModel(kvplan::testing::RealData("configs/Qwen--Qwen3.5-397B-A17B.json"));
  SglangArgs a;
  a.tp = 2;
  a.mem_fraction_static = 0.85;
  a.context_length = 8192;
  a.max_running_requests = 1;
  a.chunked_prefill_size = 2048;
  a.disable_cuda_graph = true;
  PlanResult r = PlanSglang("0.5.9", m, FindGpu("rtx-4090"), a, Measured(22.84, 19.08));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 96030720);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 82);
  const HybridState st = HybridStateShapes(m, 2);
  const double ssm_gib =
      83.0 * st.layers * st.shape.TemporalElements() * 4 / static_cast<double>(int64_t{1} << 30);
  EXPECT_NEAR(ssm_gib, 7.29, 0.005);
  EXPECT_EQ(r.cell_size_bytes, 15360);
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 580364, 0.003 * 580364);
  EXPECT_EQ(r.max_running_requests, 1);
  int64_t bar = 0;  // the pool as allocated: 83 slots
  for (const MemorySlice& sl : r.memory) bar += sl.label == "mamba state pool" ? sl.bytes : 0;
  EXPECT_EQ(bar, 83 * int64_t{96030720});
}

const ModelSpec& Nemotron3Nano() {
  static const ModelSpec m = LoadModel(
      kvplan::testing::RealData("configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"));
  return m;
}

// Nemotron-3-Nano-30B-A3B at TP 1 under 0.5.5, measured 78 GiB free before and 40 GiB after
// loading, fraction 0.8: rest_memory 24.4 GiB. One request's state is 49,082,368 B (23 Mamba2
// layers, bf16 conv and float32 SSM: catalog/hybrid_families_test.cc). The pool takes
// int(24.4 x 0.9 / 1.9 x 2^30 // 49,082,368) = 252 slots; the KV cell is the 6 attention
// layers x K,V x 2 heads x 128 x 2 B = 6,144 B, so int((24.4 - 252 x 49,082,368 / 2^30) x
// 2^30) // 6,144 = 2,251,065 tokens, and max_running_requests <= 252 // 3 = 84.
TEST(SglangStatePool, Nemotron3NanoRatioSplit) {
  SglangArgs a;
  a.mem_fraction_static = 0.8;
  PlanResult r = PlanSglang("0.5.5", Nemotron3Nano(), FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 49082368);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 252);
  EXPECT_EQ(r.cell_size_bytes, 6144);
  EXPECT_EQ(r.max_total_num_tokens, 2251065);
  EXPECT_EQ(r.max_running_requests, 84);
}

// models/nemotron_h.py is not in 0.5.3: one line naming the first release with it.
TEST(SglangStatePool, NemotronHBeforeItsFirstReleaseIsRefused) {
  PlanResult r =
      PlanSglang("0.5.3", Nemotron3Nano(), FindGpu("h100"), SglangArgs{}, Measured(78, 40));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("SGLang 0.5.3 does not serve it; it was added in 0.5.4"),
            std::string::npos)
      << r.error_message;
}

// Falcon-H1-7B (synthetic config, tests/data/synthetic/hybrid/) at TP 1 under 0.5.5, measured
// 78 / 40 GiB, fraction 0.8: every one of the 44 layers attends and holds a Mamba2 state. One
// request's state: 44 x (3,584 x 3 x 2 + 24 x 128 x 256 x 4) = 139,358,208 B; the pool takes
// int(24.4 x 0.9 / 1.9 x 2^30 // 139,358,208) = 89 slots; the cell is 44 layers x K,V x 2
// heads x 128 x 2 B = 45,056 B, so int((24.4 - 89 x 139,358,208 / 2^30) x 2^30) // 45,056 =
// 306,206 tokens and 89 // 3 = 29 requests.
TEST(SglangStatePool, FalconH1EveryLayerHoldsKvAndState) {
  ModelSpec falcon =
      LoadModel(kvplan::testing::SyntheticData("hybrid/falcon-h1-7b-synthetic.json"));
  SglangArgs a;
  a.mem_fraction_static = 0.8;
  PlanResult r = PlanSglang("0.5.5", falcon, FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 139358208);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 89);
  EXPECT_EQ(r.cell_size_bytes, 45056);
  EXPECT_EQ(r.max_total_num_tokens, 306206);
  EXPECT_EQ(r.max_running_requests, 29);
}

// Jamba's Mamba-1 state is not one SGLang's pool is modelled for: refused, not planned as
// all-attention.
TEST(SglangStatePool, MambaOneLayersAreRefused) {
  ModelSpec jamba =
      LoadModel(kvplan::testing::RealData("configs/ai21labs--AI21-Jamba-1.5-Mini.json"));
  SglangArgs a;
  a.tp = 4;
  PlanResult r = PlanSglang("0.5.5", jamba, FindGpu("h100"), a, Measured(78, 40));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("Mamba-1"), std::string::npos) << r.error_message;
}

// Kimi-Linear-48B (tests/data/real/configs/) at TP 4 under 0.5.5, measured 78 / 40 GiB,
// fraction 0.8: SGLang turns the radix cache off for it (server_args.py), so the state pool
// holds --max-running-requests slots, or 512 without it, not a share of rest_memory. One
// request's state: 20 KDA layers x (3 x 1,024 x 3 x 2 + 8 x 128 x 128 x 4) = 10,854,400 B;
// 512 slots take 5,557,452,800 B. The cell is 7 MLA layers x (512 + 64) x 2 B = 8,064 B, so
// the KV cache gets int((24.4 - 5,557,452,800 / 2^30) x 2^30) // 8,064 = 2,559,752 tokens.
TEST(SglangStatePool, KimiLinearRadixCacheOffSlots) {
  const ModelSpec kimi =
      LoadModel(kvplan::testing::RealData("configs/moonshotai--Kimi-Linear-48B-A3B-Instruct.json"));
  PlanResult r = PlanSglang("0.5.5", kimi, FindGpu("h100"), Tp4(), Measured(78, 40));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "mamba_cache_per_req_bytes"), 10854400);
  EXPECT_EQ(testing::PlanFigure(r, "max_mamba_cache_size"), 512);
  EXPECT_EQ(r.cell_size_bytes, 8064);
  EXPECT_EQ(r.max_total_num_tokens, 2559752);
  SglangArgs a = Tp4();
  a.max_running_requests = 64;
  PlanResult capped = PlanSglang("0.5.5", kimi, FindGpu("h100"), a, Measured(78, 40));
  ASSERT_TRUE(capped.ok) << capped.error_message;
  EXPECT_EQ(testing::PlanFigure(capped, "max_mamba_cache_size"), 64);
  EXPECT_EQ(capped.max_running_requests, 64);
  // 0.5.3 has no models/kimi_linear.py.
  PlanResult early = PlanSglang("0.5.3", kimi, FindGpu("h100"), Tp4(), Measured(78, 40));
  EXPECT_FALSE(early.ok);
  EXPECT_NE(
      early.error_message.find("['KimiLinearForCausalLM'] are not supported for now. (kvplan: "
                               "SGLang 0.5.3 does not serve it; it was added in 0.5.5"),
      std::string::npos)
      << early.error_message;
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
