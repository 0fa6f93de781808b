// Decode reports read from whole logs (tests/data, synthetic logs in the
// engines' formats written by make_decode_logs.py) into each launch's record,
// and shown by `kvplan explain`. Expected figures are computed by hand from the
// lines in the logs, not taken from kvplan's output.
#include "explain/decode_report.h"

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "explain/explain.h"
#include "kvplan/explain.h"
#include "logs/log_scanner.h"
#include "logs/run_record_json.h"

namespace kvplan {
namespace {

// explain's text as the CLI prints it: the one result, rendered.
std::string ExplainText(const RunRecord& r, const std::string& path, int launches,
                        const ExplainOptions& o) {
  return RenderExplainText(ExplainRun(r, path, launches, o));
}

RunRecord Load(const std::string& name) {
  std::vector<RunRecord> runs =
      ScanLogFile(std::string(KVPLAN_SOURCE_DIR) + "/tests/data/" + name).runs;
  EXPECT_EQ(runs.size(), 1u);
  return runs.at(0);
}

std::string Explain(const RunRecord& r) { return ExplainText(r, "x.log", 1, {}); }

TEST(DecodeFromLogs, SglangTp2CountsEachStepOnceAndLeavesIdleOut) {
  RunRecord r = Load("sglang/decode_llama8b_no_spec.log");
  const DecodeSummary& d = r.decode;
  // 13 reports, each printed by TP0 and TP1 (TP1 first on every third): 13 counted.
  EXPECT_EQ(d.samples, 13);
  EXPECT_EQ(d.rank, "TP0");
  EXPECT_EQ(d.idle, 1);  // the last: gen throughput 0.00
  EXPECT_EQ(r.outcome, "ok");
  EXPECT_EQ(r.last_line, 48);  // the launch runs to its last decode report
  ASSERT_NE(d.MostCommon(), nullptr);
  EXPECT_EQ(d.MostCommon()->running_reqs, 1);
  EXPECT_EQ(d.MostCommon()->samples, 9);
  // TP0's 9 busy reports at 1 request, sorted: 80.86 80.91 80.95 81.14 [81.57] 81.67 82.02
  // 82.09 82.37 -> median 81.57.
  EXPECT_DOUBLE_EQ(d.MostCommon()->median_tok_s, 81.57);
  ASSERT_NE(d.Batch(4), nullptr);
  EXPECT_EQ(d.Batch(4)->samples, 3);
  EXPECT_FALSE(d.mean_accept_len);
  EXPECT_EQ(d.graph_reports, 12);
  EXPECT_EQ(d.graph_off, 0);
  EXPECT_FALSE(NothingAcceptedCause(r));
  std::string text = Explain(r);
  EXPECT_NE(text.find("Decode, measured (13 reports of TP0, lines 23-48; 1 idle left out)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("median     81.6 tok/s over 9 reports (most common)"), std::string::npos);
  EXPECT_EQ(text.find("speculation"), std::string::npos);
  EXPECT_EQ(text.find("WARNING"), std::string::npos);
}

TEST(DecodeFromLogs, SglangEagle3AcceptLength) {
  RunRecord r = Load("sglang/decode_llama8b_eagle3.log");
  EXPECT_EQ(SpeculationOf(r), "EAGLE3");
  EXPECT_EQ(DraftOf(r), "sgl-project/SpecForge-llama3-8B-eagle3");
  ASSERT_TRUE(r.decode.mean_accept_len);
  // TP0's 12 busy reports print accept len 2.35 2.26 2.36 2.29 2.24 2.27 2.25 2.34 2.31 2.28
  // 2.24 2.26 (sum 27.45): mean 2.2875.
  EXPECT_NEAR(*r.decode.mean_accept_len, 27.45 / 12, 1e-9);
  EXPECT_FALSE(NothingAcceptedCause(r));
  std::string text = Explain(r);
  EXPECT_NE(text.find("speculation  EAGLE3, mean accept length 2.29"), std::string::npos) << text;
  EXPECT_EQ(text.find("WARNING"), std::string::npos);
}

TEST(DecodeFromLogs, SglangEagleWithAnEagle3DraftNamesTheKnownCause) {
  RunRecord r = Load("sglang/decode_llama8b_eagle_with_eagle3_draft.log");
  ASSERT_TRUE(r.decode.mean_accept_len);
  EXPECT_DOUBLE_EQ(*r.decode.mean_accept_len, 1.0);
  std::optional<std::string> cause = NothingAcceptedCause(r);
  ASSERT_TRUE(cause);
  EXPECT_NE(cause->find("EAGLE-3 head (by its architecture)"), std::string::npos) << *cause;
  EXPECT_NE(cause->find("#21272"), std::string::npos);
  std::string text = Explain(r);
  EXPECT_NE(text.find("WARNING: no draft token is accepted (mean accept length 1.00"),
            std::string::npos)
      << text;
}

TEST(DecodeFromLogs, EagleWithAnUnknownDraftSaysWhatToCheck) {
  RunRecord r = Load("sglang/decode_llama8b_eagle_with_eagle3_draft.log");
  for (LoggedSetting& s : r.settings) {
    if (s.key == "speculative_draft_model_path") s.value = "/models/my-draft";
  }
  std::optional<std::string> cause = NothingAcceptedCause(r);
  ASSERT_TRUE(cause);
  EXPECT_NE(
      cause->find("Check that the draft /models/my-draft is not an EAGLE-3 head run as EAGLE"),
      std::string::npos)
      << *cause;
  // The same acceptance with EAGLE3 has no known cause to name.
  for (LoggedSetting& s : r.settings) {
    if (s.key == "speculative_algorithm") s.value = "EAGLE3";
  }
  cause = NothingAcceptedCause(r);
  ASSERT_TRUE(cause);
  EXPECT_EQ(cause->find("EAGLE-3 head"), std::string::npos);
  // Without speculation in the args there is nothing to warn about.
  r.settings.clear();
  EXPECT_FALSE(NothingAcceptedCause(r));
}

TEST(DecodeFromLogs, VllmV1SpecDecodingPerPosition) {
  RunRecord r = Load("vllm/v1_decode_eagle3.log");
  const DecodeSummary& d = r.decode;
  EXPECT_EQ(d.rank, "Engine 000");
  EXPECT_EQ(d.samples, 6);
  EXPECT_EQ(d.idle, 2);  // the first and last: 0.0 tokens/s
  EXPECT_EQ(SpeculationOf(r), "eagle3");
  EXPECT_EQ(DraftOf(r), "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B");
  // Mean acceptance length 2.41, 2.35, 2.47, 2.20 -> 2.3575; at 1 request 2.41.
  EXPECT_NEAR(*d.mean_accept_len, (2.41 + 2.35 + 2.47 + 2.20) / 4, 1e-9);
  EXPECT_NEAR(*d.Batch(1)->mean_accept_len, (2.41 + 2.35 + 2.47) / 3, 1e-9);
  EXPECT_DOUBLE_EQ(d.Batch(1)->median_tok_s, 180.4);  // 176.9, 180.4, 183.0
  ASSERT_EQ(d.per_position_acceptance.size(), 3u);
  EXPECT_NEAR(d.per_position_acceptance[0], (0.712 + 0.701 + 0.726 + 0.660) / 4, 1e-9);
  EXPECT_FALSE(d.GraphOffShare());  // vLLM does not say
  std::string text = Explain(r);
  EXPECT_NE(text.find("per-position acceptance  0.700, 0.434, 0.224"), std::string::npos) << text;
}

TEST(DecodeFromLogs, DecodeReportsSurviveTheRecordJson) {
  RunRecord r = Load("vllm/v1_decode_eagle3.log");
  RunRecord back = RunRecordFromJson(ToJson(r));
  EXPECT_EQ(ToJson(back.decode), ToJson(r.decode));
  // A record without decode reports writes no "decode" key (stored records and the
  // JSON of logs without reports stay as they were).
  RunRecord none = Load("sglang/story_baseline_auto_mfs.log");
  EXPECT_FALSE(ToJson(none).contains("decode"));
}

TEST(DecodeFromLogs, ReportsWithoutAStartupStillMakeARun) {
  std::string log =
      "[2025-11-06 12:11:03 TP0] Decode batch. #running-req: 1, #token: 206, token usage: 0.00, "
      "cuda graph: True, gen throughput (token/s): 656.23, #queue-req: 0\n"
      "[2025-11-06 12:11:04 TP0] Decode batch. #running-req: 1, #token: 246, token usage: 0.00, "
      "cuda graph: False, gen throughput (token/s): 6\n";  // cut
  std::vector<RunRecord> runs = ScanLogText(log).runs;
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].engine, "sglang");
  EXPECT_EQ(runs[0].outcome, "ok");  // it decoded, so it had started
  EXPECT_EQ(runs[0].decode.samples, 1);
  EXPECT_DOUBLE_EQ(runs[0].decode.Batch(1)->median_tok_s, 656.23);
  ASSERT_FALSE(runs[0].notes.empty());
  EXPECT_NE(runs[0].notes[0].find("skipped a cut or garbled SGLang Decode batch line"),
            std::string::npos);
}

TEST(DecodeFromLogs, EachLaunchKeepsItsOwnReports) {
  std::string log =
      "[2025-11-06 12:00:00] server_args=ServerArgs(model_path='m', tp_size=1)\n"
      "[2025-11-06 12:00:05] The server is fired up and ready to roll!\n"
      "[2025-11-06 12:01:00] Decode batch. #running-req: 1, #token: 10, token usage: 0.00, cuda "
      "graph: True, gen throughput (token/s): 80.00, #queue-req: 0, \n"
      "[2025-11-06 13:00:00] server_args=ServerArgs(model_path='m', tp_size=1, "
      "speculative_algorithm='EAGLE3')\n"
      "[2025-11-06 13:00:05] The server is fired up and ready to roll!\n"
      "[2025-11-06 13:01:00] Decode batch. #running-req: 1, #token: 10, token usage: 0.00, accept "
      "len: 2.10, accept rate: 0.52, cuda graph: True, gen throughput (token/s): 120.00, "
      "#queue-req: 0, \n";
  std::vector<RunRecord> runs = ScanLogText(log).runs;
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_DOUBLE_EQ(runs[0].decode.Batch(1)->median_tok_s, 80);
  EXPECT_FALSE(runs[0].decode.mean_accept_len);
  EXPECT_DOUBLE_EQ(runs[1].decode.Batch(1)->median_tok_s, 120);
  EXPECT_DOUBLE_EQ(*runs[1].decode.mean_accept_len, 2.10);
}

}  // namespace
}  // namespace kvplan
