#include "explain/log_replan.h"

#include <string>

#include <gtest/gtest.h>

#include "base/units.h"
#include "explain/log_sglang_args.h"
#include "kvplan/error.h"
#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

RunRecord StoryBaseline() {
  return ScanLogFile(kvplan::testing::SyntheticData("sglang/story_baseline_auto_mfs.log"))
      .runs.at(0);
}

TEST(LogReplan, SglangInputsFromTheStoryBaseline) {
  std::string why;
  std::optional<SglangReplanInputs> b = SglangReplanInputsOf(StoryBaseline(), &why);
  ASSERT_TRUE(b) << why;
  EXPECT_DOUBLE_EQ(b->pre_gib, 94.00);
  EXPECT_DOUBLE_EQ(b->post_gib, 21.70);
  EXPECT_DOUBLE_EQ(*b->args.mem_fraction_static, 0.88);
  EXPECT_EQ(b->args.tp, 8);
  EXPECT_EQ(b->model.id, "Qwen/Qwen3-235B-A22B-FP8");
  // Load weight end prints type= and dtype=: the v0.4.7-v0.5.x formats.
  EXPECT_EQ(b->version, "0.4.9");
  SglangReplanVerdict v = ReplanSglang(*b);
  // Qwen3-235B at TP 8: max(1, 4 // 8) head x 128 x 94 layers x 2 (K and V) x 2 bytes.
  EXPECT_EQ(v.cell_bytes, 1 * 128 * 94 * 2 * 2);
  EXPECT_EQ(b->log_cell_bytes, v.cell_bytes);  // the log's KV line agrees
  EXPECT_TRUE(v.ok);
  // int((21.70 - 94.00*0.12) * 2^30) // 48128; the synthetic log prints 232407, generated
  // (make_story_logs.py) from the unrounded 93.999 and 21.697: within the +-126 tokens the
  // rounding allows.
  ASSERT_TRUE(v.tokens);
  EXPECT_NEAR(static_cast<double>(*v.tokens), 232407, 126);
}

TEST(LogReplan, SetMemFractionReproducesTheStoryFailure) {
  std::string why;
  SglangReplanInputs b = *SglangReplanInputsOf(StoryBaseline(), &why);
  ApplySglangSet(&b, "--mem-fraction-static", "0.55");
  SglangReplanVerdict v = ReplanSglang(b);
  EXPECT_FALSE(v.ok);
  // 21.70 - 94.00 x 0.45, to the byte the engine truncates to.
  EXPECT_NEAR(v.rest_gib, -20.60, 1e-9);
}

TEST(LogReplan, PageAlignmentAndTokenCapFollowTheEngineOrder) {
  SglangReplanInputs b;
  b.model = LoadModel("meta-llama/Llama-3.1-8B-Instruct");
  b.gpu = FindGpu("h100-sxm");
  b.version = "0.4.9";
  b.measured.pre_load_free_bytes = 80 * kGiB;
  b.measured.post_load_free_bytes = 40 * kGiB;
  b.args.mem_fraction_static = 0.9;  // rest = 40 - 8 = 32 GiB
  b.args.page_size = 64;
  SglangReplanVerdict v = ReplanSglang(b);
  // Llama-3.1-8B: 8 heads x 128 x 32 layers x 2 x 2 = 131072 B per token.
  EXPECT_EQ(v.cell_bytes, 131072);
  // int(32 * 2^30) // 131072 = 262144, already a multiple of 64.
  EXPECT_EQ(*v.tokens, 262144);
  b.args.max_total_tokens = 100000;  // min first, then page alignment: 100000 // 64 * 64
  EXPECT_EQ(*ReplanSglang(b).tokens, 99968);
}

TEST(LogReplan, KvDtypeRescalesTheCell) {
  std::string why;
  SglangReplanInputs b = *SglangReplanInputsOf(StoryBaseline(), &why);
  ApplySglangSet(&b, "kv_cache_dtype", "fp8_e4m3");
  EXPECT_EQ(ReplanSglang(b).cell_bytes, 48128 / 2);
}

TEST(LogReplan, UnsupportedOrBadSetIsAnInputError) {
  SglangReplanInputs b;
  EXPECT_THROW(ApplySglangSet(&b, "--tp", "4"), InputError);
  EXPECT_THROW(ApplySglangSet(&b, "--mem-fraction-static", "1.5"), InputError);
  EXPECT_THROW(ApplySglangSet(&b, "--mem-fraction-static", "abc"), InputError);
  EXPECT_THROW(ApplySglangSet(&b, "--page-size", "0"), InputError);
  EXPECT_THROW(ApplySglangSet(&b, "--kv-cache-dtype", "int3"), InputError);
}

TEST(LogReplan, ModelOutsideTheCatalogUsesTheLogsKvLine) {
  // The story baseline under an unknown model id: the stand-in carries the log's
  // 48,128 B per token, so the planner gives the same tokens as the catalog model.
  RunRecord r = StoryBaseline();
  r.model = "someone/unknown-model";
  std::string why;
  std::optional<SglangReplanInputs> b = SglangReplanInputsOf(r, &why);
  ASSERT_TRUE(b) << why;
  SglangReplanVerdict v = ReplanSglang(*b);
  EXPECT_EQ(v.cell_bytes, 48128);
  ASSERT_TRUE(v.tokens);
  EXPECT_NEAR(static_cast<double>(*v.tokens), 232407, 126);
  bool said = false;
  for (const std::string& n : b->notes)
    said |= n.find("not in kvplan's catalog") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(LogReplan, ReleaseFollowsTheLogsEra) {
  RunRecord r;
  std::string why;
  r.era = "2026 (elapsed= in the load/init lines)";
  EXPECT_EQ(SglangReleaseOfRun(r, &why), "0.5.10");
  r.kv_dtype = "torch.bfloat16";  // "dtype:" in the KV line: 2026-05 or newer
  EXPECT_EQ(SglangReleaseOfRun(r, &why), "main");
  r = RunRecord{};
  r.era = "v0.4.7-v0.5.x (type=, dtype= in Load weight end)";
  EXPECT_EQ(SglangReleaseOfRun(r, &why), "0.4.9");
  r.error = "Not enough memory. Please try to increase --mem-fraction-static. Current value: 0.5";
  EXPECT_EQ(SglangReleaseOfRun(r, &why), "0.5.6");
  r = RunRecord{};
  EXPECT_EQ(SglangReleaseOfRun(r, &why), "main");
  EXPECT_NE(why.find("assumes"), std::string::npos);
}

}  // namespace
}  // namespace kvplan
