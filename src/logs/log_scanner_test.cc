// Parser tests on synthetic logs of each era (tests/data/synthetic), written in
// the engines' exact formats, and on logs as people have them: several launches in
// one file, interleaved ranks, CRLF, ANSI colours, progress bars, cut lines.
#include "logs/log_scanner.h"

#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

std::string DataPath(const std::string& name) { return kvplan::testing::SyntheticData(name); }

std::string ReadData(const std::string& name) {
  std::ifstream in(DataPath(name), std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<RunRecord> Runs(const std::string& name) { return ScanLogFile(DataPath(name)).runs; }

std::vector<RunRecord> RealRuns(const std::string& name) {
  return ScanLogFile(kvplan::testing::RealData(name)).runs;
}

// Real public logs (tests/data/real/SOURCES.md): the figures are the ones each log prints.
TEST(RealSglangLogs, Pr17392DpAttentionFourRanks) {
  std::vector<RunRecord> runs = RealRuns("sglang/pr17392_qwen3_30b_a3b_dp4_dpattn.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.RankCount(kStageLoadWeightEnd), 4);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightEnd), 121.90);
  EXPECT_DOUBLE_EQ(*r.Figure("kv_tokens"), 1029388);
  EXPECT_DOUBLE_EQ(*r.Figure("k_size_gib"), 47.12);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageMemoryPoolEnd), 27.57);
  EXPECT_EQ(r.kv_dtype, "torch.bfloat16");
}

TEST(RealSglangLogs, Xinference3481Qwen3_14bSingleGpu) {
  std::vector<RunRecord> runs = RealRuns("sglang/xinference3481_qwen3_14b.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightEnd), 19.67);
  EXPECT_DOUBLE_EQ(*r.MinUsage(kStageLoadWeightEnd), 27.57);
  EXPECT_DOUBLE_EQ(*r.Figure("kv_tokens"), 91749);
  EXPECT_DOUBLE_EQ(*r.Figure("k_size_gib"), 7.00);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageGraphBegin), 4.64);
  EXPECT_EQ(r.cuda_graph_bs.back(), 160);
}

TEST(SglangLogs, StoryBaselineV049Tp8) {
  std::vector<RunRecord> runs = Runs("sglang/story_baseline_auto_mfs.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.engine, "sglang");
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_EQ(r.model, "Qwen/Qwen3-235B-A22B-FP8");
  EXPECT_EQ(r.model_class, "Qwen3MoeForCausalLM");
  EXPECT_EQ(r.gpu_name, "NVIDIA RTX PRO 6000 Blackwell Server Edition");
  EXPECT_EQ(r.gpu_count, 8);
  EXPECT_EQ(r.gpu_capacity_mib, 97887);
  EXPECT_TRUE(r.settings_complete);
  EXPECT_EQ(r.RankCount(kStageLoadWeightEnd), 8);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightBegin), 94.00);  // 93.999 printed with 2 decimals
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightEnd), 21.70);
  EXPECT_DOUBLE_EQ(*r.Figure("kv_tokens"), 232407);
  EXPECT_DOUBLE_EQ(*r.Figure("max_total_num_tokens"), 232407);
  EXPECT_DOUBLE_EQ(*r.Figure("available_gpu_mem_gib"), 9.08);
  EXPECT_EQ(r.cuda_graph_bs.back(), 256);
  const LoggedSetting* mfs = r.FindSetting("mem_fraction_static");
  ASSERT_NE(mfs, nullptr);
  EXPECT_EQ(mfs->value, "0.88");
  EXPECT_EQ(mfs->provenance, "auto");  // the launch command does not pass the flag
  EXPECT_EQ(r.FindSetting("tp_size")->provenance, "user");  // --tp 8
  EXPECT_EQ(r.FindSetting("json_model_override_args")->value, "{\"rope_scaling\": null}");
}

TEST(SglangLogs, StoryFailedRunKeepsTheEngineMessageAndTraceback) {
  std::vector<RunRecord> runs = Runs("sglang/story_mfs_0.55_failed.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_EQ(r.error,
            "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.");
  EXPECT_FALSE(r.traceback.empty());
  EXPECT_NE(r.traceback.back().find("raise RuntimeError("), std::string::npos);
  EXPECT_EQ(r.FindSetting("mem_fraction_static")->provenance, "user");
  EXPECT_EQ(r.FindSetting("cuda_graph_max_bs")->value, "128");
}

TEST(SglangLogs, V046SingleGpuWithProgressBars) {
  std::vector<RunRecord> runs = Runs("sglang/v0.4.6_qwen3_14b_single_gpu.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightBegin), 47.24);
  EXPECT_DOUBLE_EQ(*r.MinUsage(kStageGraphEnd), 0.56);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageGraphEnd), 4.08);
  EXPECT_EQ(r.FindSetting("mem_fraction_static")->provenance, "unknown");
}

TEST(SglangLogs, DpAttention2026WithCrlfAndAnsi) {
  std::vector<RunRecord> runs = Runs("sglang/2026_dp_attention_qwen3_30b_a3b_crlf_ansi.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_EQ(r.RankCount(kStageLoadWeightEnd), 4);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageLoadWeightEnd), 121.90);
  EXPECT_DOUBLE_EQ(*r.MinAvail(kStageGraphBegin), 27.47);  // behind an ANSI colour code
  EXPECT_EQ(r.kv_dtype, "torch.bfloat16");
  EXPECT_EQ(r.FindSetting("served_model_name")->value, "qwen3-30b 'moe'");
  EXPECT_NE(r.era.find("2026"), std::string::npos);
}

TEST(VllmLogs, V1OkWithNonDefaultArgs) {
  std::vector<RunRecord> runs = Runs("vllm/v1_qwen3_8b_h100_ok.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.engine, "vllm");
  EXPECT_EQ(r.version, "0.10.1.1");
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_EQ(r.model, "Qwen/Qwen3-8B");
  EXPECT_DOUBLE_EQ(*r.Figure("weights_gib"), 15.2683);
  EXPECT_DOUBLE_EQ(*r.Figure("available_kv_cache_gib"), 49.89);
  EXPECT_DOUBLE_EQ(*r.Figure("gpu_kv_cache_tokens"), 363296);  // "363,296"
  EXPECT_DOUBLE_EQ(*r.Figure("max_concurrency_tokens"), 32768);
  EXPECT_DOUBLE_EQ(*r.Figure("max_concurrency"), 11.09);
  EXPECT_DOUBLE_EQ(*r.Figure("cuda_graph_mem_gib"), 0.61);
  const LoggedSetting* util = r.FindSetting("gpu_memory_utilization");
  ASSERT_NE(util, nullptr);
  EXPECT_EQ(util->value, "0.85");
  EXPECT_EQ(util->provenance, "user");
}

TEST(VllmLogs, V0FailureAfterTraceback) {
  std::vector<RunRecord> runs = Runs("vllm/v0_llama31_8b_rtx3090_len29000_failed.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_EQ(r.version, "0.6.4.post1");
  EXPECT_EQ(r.error.rfind("ValueError: The model's max seq len (29000)", 0), 0u);
  ASSERT_TRUE(r.Figure("max_tokens_in_kv_cache"));
  EXPECT_DOUBLE_EQ(*r.Figure("max_tokens_in_kv_cache"), 23648);
  EXPECT_DOUBLE_EQ(*r.Figure("kv_cache_size_gib"), 2.89);
}

TEST(MixedLogs, OneFileHoldingSeveralLaunchesGivesSeveralRuns) {
  std::string text = ReadData("sglang/story_mfs_0.55_failed.log") +
                     ReadData("sglang/story_baseline_auto_mfs.log") +
                     ReadData("vllm/v1_qwen3_8b_h100_ok.log");
  std::vector<RunRecord> runs = ScanLogText(text).runs;
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].outcome, "failed");
  EXPECT_EQ(runs[1].outcome, "ok");
  EXPECT_EQ(runs[1].launch_index, 1);
  EXPECT_EQ(runs[2].engine, "vllm");
  EXPECT_LT(runs[0].last_line, runs[1].first_line);
}

TEST(MixedLogs, RelaunchWithoutServerArgsSplitsOnRepeatedWeightLoad) {
  std::string text =
      "[2025-01-01 00:00:00] Load weight begin. avail mem=40.00 GB\n"
      "[2025-01-01 00:00:01] Load weight end. type=X, dtype=torch.bfloat16, avail mem=20.00 GB, "
      "mem usage=20.00 GB.\n"
      "[2025-01-01 00:00:01] RuntimeError: Not enough memory. Please try to increase "
      "--mem-fraction-static.\n"
      "[2025-01-01 00:01:00] Load weight begin. avail mem=40.00 GB\n"
      "[2025-01-01 00:01:01] Load weight end. type=X, dtype=torch.bfloat16, avail mem=20.00 GB, "
      "mem usage=20.00 GB.\n";
  std::vector<RunRecord> runs = ScanLogText(text).runs;
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].outcome, "failed");
  EXPECT_EQ(runs[1].outcome, "incomplete");
}

TEST(MixedLogs, ALogCutMidLineIsMarkedIncomplete) {
  std::string text = ReadData("sglang/story_baseline_auto_mfs.log");
  text.resize(text.find("Memory pool end") + 12);
  std::vector<RunRecord> runs = ScanLogText(text).runs;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].outcome, "incomplete");
  bool mid_line = false;
  for (const std::string& n : runs[0].notes) mid_line |= n.find("mid-line") != std::string::npos;
  EXPECT_TRUE(mid_line);
}

TEST(MixedLogs, ServerArgsCutOffKeepsWhatWasRead) {
  std::string text =
      "[2025-01-01 00:00:00] server_args=ServerArgs(model_path='m', tp_size=2, mem_fr";
  std::vector<RunRecord> runs = ScanLogText(text).runs;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].settings_complete);
  EXPECT_EQ(runs[0].FindSetting("tp_size")->value, "2");
  EXPECT_EQ(runs[0].outcome, "incomplete");
}

// Synthetic: journald-shaped lines of no engine, `bytes` of them.
std::string OtherLines(size_t bytes) {
  const std::string line = "Dec 01 12:00:00 host systemd[1]: Started Session 42 of user root.\n";
  std::string text;
  while (text.size() < bytes) text += line;
  return text;
}

ScanOptions Window(int64_t bytes) {
  ScanOptions o;
  o.buffer_bytes = 4096;  // the window is checked line by line, whatever the buffer
  o.first_launch_within = bytes;
  return o;
}

TEST(MixedLogs, TextWithoutALaunchIsRefusedAtTheWindowNotReadToItsEnd) {
  const std::string text = OtherLines(200'000);
  ScanResult r = ScanLogText(text, Window(64 << 10));
  EXPECT_EQ(r.stopped_without_launch, 64 << 10);
  EXPECT_GE(r.bytes, 64 << 10);
  EXPECT_LT(r.bytes, 64 << 10 | 8192);  // stopped within a buffer of the window
  try {
    ReadRunsOrThrow("other.log", r);
    FAIL() << "expected a refusal";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("first 64.0 KiB hold no SGLang"), std::string::npos)
        << e.what();
  }
  // Without the window the same text is read to its end and refused for what it lacks.
  ScanResult whole = ScanLogText(text, Window(0));
  EXPECT_EQ(whole.stopped_without_launch, 0);
  EXPECT_EQ(whole.bytes, static_cast<int64_t>(text.size()));
  EXPECT_THROW(ReadRunsOrThrow("other.log", whole), InputError);
}

TEST(MixedLogs, ALaunchInsideTheWindowIsReadToTheLogsEnd) {
  // The story's baseline launch, then more unrelated text than the window: all of it is read,
  // and the launch is kept whole.
  const std::string launch = ReadData("sglang/story_baseline_auto_mfs.log");
  const std::string text = OtherLines(1000) + launch + OtherLines(200'000);
  ScanResult r = ScanLogText(text, Window(64 << 10));
  EXPECT_EQ(r.stopped_without_launch, 0);
  EXPECT_EQ(r.bytes, static_cast<int64_t>(text.size()));
  ASSERT_EQ(ReadRunsOrThrow("story.log", r).size(), ScanLogText(launch).runs.size());
}

TEST(MixedLogs, ALaunchAfterTheWindowIsRefusedSayingWhy) {
  const std::string text = OtherLines(100'000) + ReadData("sglang/story_baseline_auto_mfs.log");
  ScanResult r = ScanLogText(text, Window(64 << 10));
  EXPECT_EQ(r.stopped_without_launch, 64 << 10);
  EXPECT_THROW(ReadRunsOrThrow("late.log", r), InputError);
  EXPECT_FALSE(ScanLogText(text, Window(0)).runs.empty());  // the launch is there
}

TEST(MixedLogs, TheContentHashIsOnlyComputedWhenAsked) {
  const std::string launch = ReadData("sglang/story_baseline_auto_mfs.log");
  EXPECT_EQ(ScanLogText(launch).content_hash.size(), 64u);  // SHA-256, hex
  ScanOptions o;
  o.hash_content = false;
  ScanResult r = ScanLogText(launch, o);
  EXPECT_TRUE(r.content_hash.empty());
  EXPECT_EQ(r.runs.size(), ScanLogText(launch).runs.size());
}

TEST(MixedLogs, NoEngineLinesIsAClearInputError) {
  ScanResult junk = ScanLogText(std::string("hello\0world\n\x01\x02\xff\xfe", 16));
  ASSERT_TRUE(junk.runs.empty());
  EXPECT_THROW(ReadRunsOrThrow("junk.bin", junk), InputError);
  EXPECT_THROW(ScanLogFile("/nonexistent/kvplan.log"), InputError);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

TEST(VllmLogs, NewestFormatWithWorkerTagsAndCombinedCapacityLine) {
  std::vector<RunRecord> runs = Runs("vllm/v0_27_tp2_newest_format.log");
  ASSERT_EQ(runs.size(), 1u);
  const RunRecord& r = runs[0];
  EXPECT_EQ(r.version, "0.27.1");
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_DOUBLE_EQ(*r.Figure("weights_gib"), 30.59);             // "%s GiB memory" form
  EXPECT_DOUBLE_EQ(*r.Figure("available_kv_cache_gib"), 37.13);  // first worker's
  EXPECT_DOUBLE_EQ(*r.Figure("gpu_kv_cache_tokens"), 304128);
  EXPECT_DOUBLE_EQ(*r.Figure("max_concurrency_tokens"), 40960);
  EXPECT_DOUBLE_EQ(*r.Figure("max_concurrency"), 7.43);
  EXPECT_EQ(r.RankCount(kStageLoadWeightEnd), 2);  // Worker_TP0 and Worker_TP1
  EXPECT_EQ(r.FindSetting("tensor_parallel_size")->provenance, "user");
  EXPECT_EQ(r.FindSetting("api_key")->value, "[REDACTED]");
}

}  // namespace
}  // namespace kvplan
