// SGLang's DeepSeek-V4 pools (engines/sglang/dsv4_pool.h, DSV4PoolConfigurator at main
// 2026-08-11). Expected values are hand arithmetic in the comments, never kvplan output.
#include <gtest/gtest.h>

#include "catalog/gpu.h"
#include "engines/sglang/dsv4_pool.h"
#include "engines/sglang/sglang.h"
#include "testing/sglang_test_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using kvplan::testing::Measured;

ModelSpec V4(const char* file) {
  return LoadModel(kvplan::testing::RealData(std::string("configs/") + file));
}

// Per token: kv 448 + 64*2 + 8 = 584 B per layer, the indexer 128 + 4 = 132 B per c4 token,
// c4 states (kv, score) x 2 (overlap) x 512 x 4 B = 8,192 and 2 x 2 x 128 x 4 = 2,048 B per
// slot, ring/window 8/128 (16/128 with a draft). The divisor:
//   r*584*L + 584/4*c4 + 584/128*c128 + 132/4*c4 + r*(8/128)*(8192 + 2048)*c4
// The c128 state: ceil((slots*128 + 128 + 1) / 128)*128 rows x 2*512*4 B x c128 layers,
// slots = 256 / attention DP + 1 (ring 256 with a draft).
struct PoolRow {
  const char* file;
  const char* what;
  bool draft;
  double swa;  // --swa-full-tokens-ratio, 0: the hook's 0.1
  int dp;      // DP attention
  double bytes_per_full_token;
  int64_t c128_state_bytes;
};

const PoolRow kRows[] = {
    // Flash, L 43, c4 21, c128 20: 2511.2 + 3066 + 91.25 + 693 + 1344 = 7705.45;
    // 257 slots: 33,025 -> 33,152 rows x 4,096 B x 20 = 2,715,811,840.
    {"deepseek-ai--DeepSeek-V4-Flash.json", "flash", false, 0, 1, 7705.45, 2715811840},
    // Pro, L 61, c4 30, c128 31: 3562.4 + 4380 + 141.4375 + 990 + 1920 = 10993.8375;
    // 33,152 rows x 4,096 B x 31 = 4,209,508,352.
    {"deepseek-ai--DeepSeek-V4-Pro.json", "pro", false, 0, 1, 10993.8375, 4209508352},
    // Flash with a draft: rings 16 and 256: (2511.2 + 3066 + 91.25 + 693 + 2688) * 44 / 43 =
    // 9259.9023...; 257 x 256 + 257 = 66,049 -> 66,176 rows x 4,096 x 20 = 5,421,137,920.
    {"deepseek-ai--DeepSeek-V4-Flash.json", "flash mtp", true, 0, 1, 9049.45 * 44 / 43, 5421137920},
    // --swa-full-tokens-ratio 0.5 and DP attention 8: 12556 + 3066 + 91.25 + 693 + 6720 =
    // 23126.25; 256 / 8 + 1 = 33 slots: 4,353 -> 4,480 rows x 4,096 x 20 = 367,001,600.
    {"deepseek-ai--DeepSeek-V4-Flash.json", "flash swa 0.5 dp 8", false, 0.5, 8, 23126.25,
     367001600},
};

TEST(SglangDeepseekV4, PoolTermsAreTheHandArithmetic) {
  for (const PoolRow& row : kRows) {
    const ModelSpec m = V4(row.file);
    SglangArgs a;
    a.tp = 8;
    if (row.dp > 1) a.dp = row.dp, a.enable_dp_attention = true;
    if (row.swa > 0) a.swa_full_tokens_ratio = row.swa;
    if (row.draft) a.speculative_algorithm = "EAGLE";
    ApplySglangDeepseekV4Defaults(&a);
    const SglangDsv4Pool p = SglangDeepseekV4PoolOf(m, a, m.num_layers);
    EXPECT_NEAR(p.bytes_per_full_token, row.bytes_per_full_token, 1e-6) << row.what;
    EXPECT_EQ(p.c128_state_bytes, row.c128_state_bytes) << row.what;
  }
}

// The DeepSeek-V4 hook's defaults: 256-token pages, fp8 KV, swa 0.1, 256 requests.
TEST(SglangDeepseekV4, HookDefaults) {
  SglangArgs a;
  ApplySglangDeepseekV4Defaults(&a);
  EXPECT_EQ(a.attention_backend, "dsv4");
  EXPECT_EQ(a.kv_cache_dtype, "fp8_e4m3");
  EXPECT_EQ(a.swa_full_tokens_ratio, 0.1);
  EXPECT_EQ(a.max_running_requests, 256);
  SglangArgs given;
  given.swa_full_tokens_ratio = 0.3;
  given.max_running_requests = 64;
  ApplySglangDeepseekV4Defaults(&given);
  EXPECT_EQ(given.swa_full_tokens_ratio, 0.3);
  EXPECT_EQ(given.max_running_requests, 64);
}

// Measured 130 GiB free before and 110 GiB after loading, fraction 0.9: rest = 110 - 13 =
// 97 GiB = 104,152,956,928 B. Flash: int((rest - 2,715,811,840) / 7705.45) = 13,164,397 ->
// 51,423 pages of 256 = 13,164,288 full tokens; SWA int(0.1 x that) = 1,316,428 -> 1,316,352;
// max_running_requests min(256, tokens / 2) = 256. Pro: int((rest - 4,209,508,352) /
// 10993.8375) = 9,091,062 -> 9,090,816 tokens, SWA 909,056.
TEST(SglangDeepseekV4, PlansTheFullPoolTokens) {
  const struct {
    const char* file;
    int64_t tokens, swa;
  } kPlans[] = {{"deepseek-ai--DeepSeek-V4-Flash.json", 13164288, 1316352},
                {"deepseek-ai--DeepSeek-V4-Pro.json", 9090816, 909056}};
  for (const auto& c : kPlans) {
    SglangArgs a;
    a.tp = 8;
    a.mem_fraction_static = 0.9;
    PlanResult r = PlanSglang("main", V4(c.file), FindGpu("h200"), a, Measured(130, 110));
    ASSERT_TRUE(r.ok) << c.file << ": " << r.error_message;
    EXPECT_EQ(r.max_total_num_tokens, c.tokens) << c.file;
    EXPECT_EQ(r.max_running_requests, 256) << c.file;
    const Figure* swa = r.FindFigure("swa_layer_tokens");
    ASSERT_NE(swa, nullptr) << c.file;
    EXPECT_EQ(swa->value, c.swa) << c.file;
  }
}

// Releases before the v0.5.15 era are not planned, each saying why in one line.
TEST(SglangDeepseekV4, OlderReleasesSayWhy) {
  const ModelSpec m = V4("deepseek-ai--DeepSeek-V4-Flash.json");
  SglangArgs a;
  a.tp = 8;
  PlanResult early = PlanSglang("0.5.14", m, FindGpu("h200"), a, Measured(130, 110));
  EXPECT_FALSE(early.ok);
  EXPECT_NE(early.error_message.find("pool split"), std::string::npos) << early.error_message;
  EXPECT_NE(early.error_message.find("not modelled"), std::string::npos) << early.error_message;
  EXPECT_TRUE(early.not_modelled);  // kvplan's limit: SGLang 0.5.14 serves the model
  // Before the model, SGLang's registry refuses it: the engine's failure, not kvplan's limit.
  PlanResult old = PlanSglang("0.5.3", m, FindGpu("h200"), a, Measured(130, 110));
  EXPECT_FALSE(old.ok);
  EXPECT_FALSE(old.not_modelled);
  EXPECT_NE(old.error_message.find("['DeepseekV4ForCausalLM'] are not supported for now"),
            std::string::npos)
      << old.error_message;
}

}  // namespace
}  // namespace kvplan
