// Re-plans of pasted excerpts (no server_args, no Load weight begin line) from
// the real logs under tests/data/real/, each checked against the KV tokens the
// log itself prints (tests/data/real/SOURCES.md lists them).
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "explain/explain.h"
#include "explain/log_file.h"
#include "kvplan/error.h"
#include "kvplan/explain.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using testing::RealData;

SglangExplain SglangOf(const ExplainResult& e) {
  EXPECT_TRUE(e.sglang.has_value());
  return e.sglang.value_or(SglangExplain{});
}

ExplainResult ExplainRealLog(const std::string& name, const std::string& gpu = "") {
  ExplainRequest request;
  request.log_path = RealData(name);
  request.gpu = gpu;
  return ExplainLog(request);
}

double Miss(const SglangExplain& s, double logged_tokens) {
  EXPECT_TRUE(s.verdict.tokens.has_value()) << s.unavailable;
  return std::fabs(static_cast<double>(s.verdict.tokens.value_or(0)) - logged_tokens) /
         logged_tokens;
}

const ReplanInput* FractionInput(const SglangExplain& s) {
  for (const ReplanInput& in : s.provenance) {
    if (in.name == "mem_fraction_static") return &in;
  }
  return nullptr;
}

TEST(ExcerptReplan, Qwen3_14bOnA48GbCardLandsOnTheLoggedTokens_xinference3481) {
  // The log: avail mem=19.67 GB, mem usage=27.57 GB; #tokens: 91749, K/V size 7.00 GB.
  SglangExplain s = SglangOf(ExplainRealLog("sglang/xinference3481_qwen3_14b.log"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.pre_gib, 19.67 + 27.57);
  EXPECT_NE(s.pre_source.find("derived"), std::string::npos) << s.pre_source;
  const ReplanInput* mfs = FractionInput(s);
  ASSERT_NE(mfs, nullptr);
  // 1 - (19.67 - 14.00) / 47.24 = 0.880: SGLang's 0.88 for TP 1, a default rule.
  EXPECT_NEAR(mfs->value, 0.88, 1e-9);
  EXPECT_EQ(mfs->provenance, "assumed");
  EXPECT_LT(Miss(s, 91749), 0.005);
  EXPECT_EQ(s.logged_tokens, 91749);
}

TEST(ExcerptReplan, GpuFlagGivesTheCapacityTheDefaultRulesRead_xinference3481) {
  SglangExplain s = SglangOf(ExplainRealLog("sglang/xinference3481_qwen3_14b.log", "rtx-a6000"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  const ReplanInput* mfs = FractionInput(s);
  ASSERT_NE(mfs, nullptr);
  EXPECT_NE(mfs->how.find("49140 MiB (--gpu)"), std::string::npos) << mfs->how;
  EXPECT_LT(Miss(s, 91749), 0.005);
}

TEST(ExcerptReplan, DpAttentionRanksTakeTheMinPostLoadFree_pr17392) {
  // Four load lines (121.95, 121.90, 121.90, 122.14 GB; usage 16.39 GB), #tokens 1029388.
  SglangExplain s = SglangOf(ExplainRealLog("sglang/pr17392_qwen3_30b_a3b_dp4_dpattn.log"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.post_gib, 121.90);
  EXPECT_DOUBLE_EQ(s.pre_gib, 121.90 + 16.39);
  EXPECT_LT(Miss(s, 1029388), 0.005);
  EXPECT_TRUE(s.check.circular);  // 0.80 is no default rule: the user set it
}

TEST(ExcerptReplan, ABareKvLineSaysWhichFigureIsMissingInOneLine) {
  // The log is one line: #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB.
  ExplainResult e = ExplainRealLog("sglang/vllm_issue21348_qwen3_235b_tp4_kv.log");
  SglangExplain s = SglangOf(e);
  EXPECT_NE(s.unavailable.find("--post-load-free-gib"), std::string::npos) << s.unavailable;
  EXPECT_EQ(s.logged_tokens, 367404);
  std::string text = RenderExplainText(e);
  EXPECT_NE(text.find("  not possible: no post-load free memory"), std::string::npos) << text;
  EXPECT_NE(text.find("#tokens: 367,404"), std::string::npos) << text;
  EXPECT_NE(RenderExplainJson(e).find("\"logged_kv_tokens\": 367404"), std::string::npos);
}

// The real log up to (and with) its Load weight end line: no KV line to imply a fraction.
std::string UpToTheLoadLine(const std::string& name) {
  std::ifstream in(RealData(name));
  std::string line, out;
  while (std::getline(in, line)) {
    out += line + "\n";
    if (line.find("Load weight end") != std::string::npos) break;
  }
  return out;
}

TEST(ExcerptReplan, WithoutAKvLineTheModelAndThenTheFractionAreNamed_xinference3481) {
  std::vector<RunRecord> runs =
      LoadLogText(UpToTheLoadLine("sglang/xinference3481_qwen3_14b.log")).runs;
  ASSERT_EQ(runs.size(), 1u);
  // type=Qwen3ForCausalLM only: the catalog's Qwen3 models differ in geometry, and no KV
  // line sizes a stand-in, so the model is the missing figure.
  SglangExplain bare = SglangOf(ExplainRun(runs[0], "excerpt", 1, {}));
  EXPECT_NE(bare.unavailable.find("no model"), std::string::npos) << bare.unavailable;
  EXPECT_NE(bare.unavailable.find("--model"), std::string::npos) << bare.unavailable;
  // Given a model (set here by the test, as a --model would), the fraction is next: no
  // server_args, no KV line, no GPU.
  runs[0].model = "Qwen/Qwen3-8B";
  SglangExplain no_gpu = SglangOf(ExplainRun(runs[0], "excerpt", 1, {}));
  EXPECT_NE(no_gpu.unavailable.find("no mem_fraction_static"), std::string::npos)
      << no_gpu.unavailable;
  EXPECT_NE(no_gpu.unavailable.find("--gpu"), std::string::npos) << no_gpu.unavailable;
  // With the card's capacity the default rule stands in: assumed, nothing to check against.
  runs[0].gpu_capacity_mib = 49140;
  SglangExplain with_gpu = SglangOf(ExplainRun(runs[0], "excerpt", 1, {}));
  ASSERT_TRUE(with_gpu.unavailable.empty()) << with_gpu.unavailable;
  ASSERT_NE(FractionInput(with_gpu), nullptr);
  EXPECT_EQ(FractionInput(with_gpu)->provenance, "assumed");
  EXPECT_TRUE(with_gpu.verdict.tokens.has_value());
  EXPECT_EQ(with_gpu.check.kind, SglangLogCheck::kNone);
}

TEST(ExcerptReplan, Gemma3ExcerptsFractionIsNoDefaultRuleAndSaysSo_pr4826) {
  // "avail mem=131.08 GB, mem usage=8.13 GB"; "#tokens: 834615, K size: 54.12 GB, V size:
  // 54.12 GB": the pool implies 0.836, which no default rule gives for the ~141 GiB card the
  // figures fit: derived, and the check is said to be a consistency check only.
  SglangExplain s = SglangOf(ExplainRealLog("sglang/pr4826_gemma3_kv_and_capture.log"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.pre_gib, 131.08 + 8.13);
  ASSERT_NE(FractionInput(s), nullptr);
  EXPECT_EQ(FractionInput(s)->provenance, "derived");
  EXPECT_TRUE(s.check.circular);
  EXPECT_LT(Miss(s, 834615), 0.005);
}

TEST(ExcerptReplan, B200Qwen3_32bExcerptLandsWithinHalfAPercent_pr22537) {
  // TP0's "avail mem=160.78 GB, mem usage=15.50 GB" and "#tokens: 2206208, K size: 67.33 GB".
  SglangExplain s = SglangOf(ExplainRealLog("sglang/pr22537_b200_qwen3_32b_tp4.log"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_EQ(FractionInput(s)->provenance, "assumed");
  EXPECT_LT(Miss(s, 2206208), 0.005);
}

TEST(ExcerptReplan, VllmTextShowsCountsAsPeopleWriteThem_pr13596) {
  // The log prints "GPU KV cache size: 2,042,016 tokens"; the text must not say 2.04202e+06.
  std::string text = RenderExplainText(ExplainRealLog("vllm/pr13596_v1_kv_tokens.log"));
  EXPECT_NE(text.find("gpu_kv_cache_tokens      2,042,016"), std::string::npos) << text;
  EXPECT_EQ(text.find("e+0"), std::string::npos) << text;
}

TEST(ExcerptReplan, VllmV0TextShowsEveryBudgetTermTheJsonHas_pr14447) {
  ExplainResult e = ExplainRealLog("vllm/pr14447_v0_workers_profiling.log");
  std::string text = RenderExplainText(e);
  for (const char* line : {"total_gpu_memory_gib     23.58", "gpu_memory_utilization   0.99",
                           "non_torch_memory_gib     0.2", "activation_peak_gib      0.37",
                           "available_kv_cache_gib   1.57"}) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
  EXPECT_NE(text.find("the budget sum only"), std::string::npos) << text;
  EXPECT_NE(RenderExplainJson(e).find("\"budget_only\": true"), std::string::npos);
}

TEST(ExcerptReplan, ANegativeProfiledValueImpliesTheFractionTheRunHad_sglang7691) {
  // sglang issue #7691 (ROCm DeepSeek-R1, DP8, v0.4.8.post1): "avail mem=21.73 GB, mem
  // usage=166.59 GB" and "max_total_tokens=131072 is larger than the profiled value -561981"
  // on every rank; its user believed mem_fraction_static was 0.95.
  SglangExplain s =
      SglangOf(ExplainRealLog("sglang/issue7691_rocm_dsr1_dp8_negative_profiled_value.log"));
  ASSERT_TRUE(s.unavailable.empty()) << s.unavailable;
  EXPECT_DOUBLE_EQ(s.pre_gib, 21.73 + 166.59);
  const ReplanInput* mfs = FractionInput(s);
  ASSERT_NE(mfs, nullptr);
  // MLA cell (512 + 64) x 61 layers x 2 B = 70,272 B: rest = -561981 x 70272 B = -36.78 GiB,
  // so 1 - (21.73 + 36.78) / 188.32 = 0.689, not 0.95.
  EXPECT_NEAR(mfs->value, 0.69, 0.005);
  EXPECT_NE(mfs->how.find("profiled value -561,981"), std::string::npos) << mfs->how;
  EXPECT_FALSE(s.verdict.ok);  // and the re-plan fails as the run did
  ASSERT_TRUE(s.verdict.tokens.has_value());
  EXPECT_NEAR(static_cast<double>(*s.verdict.tokens), -561981, 561981 * 0.005);
}

TEST(ExcerptReplan, SetOnALogThatCannotBeReplannedNamesTheMissingFigure) {
  ExplainRequest request;
  request.log_path = RealData("sglang/vllm_issue21348_qwen3_235b_tp4_kv.log");
  request.sets = {"mem-fraction-static=0.8"};
  const std::string what = testing::InputErrorOf([&] { ExplainLog(request); });
  EXPECT_NE(what.find("--post-load-free-gib"), std::string::npos) << what;
}

TEST(ExcerptReplan, AVllmV1InfoExcerptChecksTheCellAgainstTheLoggedTokens_vllm21348) {
  // The log: "Available KV cache memory: 8.11 GiB" (one worker's), "GPU KV cache size: 178,880
  // tokens" (the min over workers). Its lines name neither the model nor the layout; the issue
  // does (Qwen3-235B-A22B-FP8, --tensor-parallel-size 4), set here as a pasted command would.
  std::ifstream in(RealData("vllm/issue21348_qwen3_235b_tp4_kv.log"));
  std::stringstream log;
  log << in.rdbuf();
  std::vector<RunRecord> runs = LoadLogText(log.str()).runs;
  ASSERT_EQ(runs.size(), 1u);
  RunRecord r = runs[0];
  r.model = "Qwen/Qwen3-235B-A22B-FP8";
  r.settings.push_back({"tensor_parallel_size", "4", "user", "the issue's launch command"});
  ExplainResult e = ExplainRun(r, "issue21348", 1, {});
  ASSERT_TRUE(e.vllm.has_value());
  const VllmExplain& v = *e.vllm;
  ASSERT_TRUE(v.unavailable.empty()) << v.unavailable;
  EXPECT_TRUE(v.kv_only);
  EXPECT_EQ(v.logged_tokens, 178880);
  ASSERT_TRUE(v.verdict.tokens.has_value());
  // 94 layers x 512 B per token per rank (4 KV heads / TP 4 x 128 x 2 x 2 B) over 8.11 GiB:
  // 180,928 tokens, 1.1 % above the min over workers the engine reports. The check says so.
  EXPECT_NEAR(static_cast<double>(*v.verdict.tokens), 178880, 0.02 * 178880);
  std::string text = RenderExplainText(e);
  EXPECT_NE(text.find("the log 178,880"), std::string::npos) << text;
  EXPECT_NE(text.find("one worker's"), std::string::npos) << text;
  EXPECT_EQ(text.find("available_kv_cache_memory: 8.11 - "), std::string::npos) << text;
  // --set cannot change a budget whose terms the log does not print.
  ExplainOptions set;
  set.sets = {{"gpu_memory_utilization", "0.95"}};
  EXPECT_THROW(ExplainRun(r, "issue21348", 1, set), InputError);
}

}  // namespace
}  // namespace kvplan
