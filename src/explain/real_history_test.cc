// The run history on real logs (tests/data/real/): `runs` shows the log's own layout and
// start time, `diff --last-good` refuses to pair through empty fields, and `diff` names
// what the runs are before what they set, in A's engine's words.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "explain/log_file.h"
#include "kvplan/diff.h"
#include "kvplan/history.h"
#include "store/run_store.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

RunRecord RealRun(const std::string& name) { return LoadLog(testing::RealData(name)).runs.back(); }

TEST(RealHistory, RunsShowsTpFromRankTagsAndNoIngestTimeAsStart_pr11716) {
  // Eight "[TP0]".."[TP7]" ranks and no server_args line.
  HistoryListing h;
  h.runs.push_back({1, "hash", "pr11716.log", "2026-12-01T00:00:00Z",
                    RealRun("sglang/pr11716_tp8_init_and_load_begin.log")});
  std::string text = RenderHistoryText(h);
  EXPECT_NE(text.find("    8  "), std::string::npos) << text;
  EXPECT_EQ(text.find("2026-12-01T00:00:00Z"), std::string::npos) << text;
}

TEST(RealHistory, LastGoodRefusesALogWithoutModelOrGpu_issue21348) {
  // One KV line: no model, no GPU. An empty field would match any other such run.
  DiffRequest request;
  request.logs = {testing::RealData("vllm/issue21348_qwen3_235b_tp4_kv.log")};
  request.last_good = true;
  std::string db = ::testing::TempDir() + "/real_history_last_good.db";
  std::remove(db.c_str());
  { RunStore created(db, StoreAccess::kWrite); }  // an empty history: the log is the question
  request.db = db;
  const std::string what = testing::InputErrorOf([&] { DiffLogs(request); });
  EXPECT_NE(what.find("prints no model, GPU"), std::string::npos) << what;
  EXPECT_NE(what.find("no successful run like"), std::string::npos) << what;
}

TEST(RealHistory, DiffNamesTheModelFirstAndSpeaksVllm) {
  DiffRequest request;
  // facebook/opt-125m (blocks and weights) against Qwen/Qwen3.5-2B (a banner and args).
  request.logs = {testing::RealData("vllm/pr3120_v0_opt125m_weights_mb_blocks.log"),
                  testing::RealData("vllm/issue46169_rocm_v023_banner_hang.log")};
  std::string text = RenderDiffText(DiffLogs(request));
  size_t model = text.find("   model: ");
  ASSERT_NE(model, std::string::npos) << text;
  EXPECT_LT(model, text.find("Effective settings")) << text;
  EXPECT_NE(text.find("opt-125m -> Qwen/Qwen3.5-2B"), std::string::npos) << text;
  EXPECT_EQ(text.find("SGLang"), std::string::npos) << text;
  EXPECT_EQ(text.find("Load weight"), std::string::npos) << text;
  EXPECT_EQ(text.find("mem_fraction_static"), std::string::npos) << text;
}

}  // namespace
}  // namespace kvplan
