// Collector prefixes learned from the log, wrapped lines re-joined, layout from rank tags.
#include "logs/line_prefix.h"

#include <string>

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "logs/log_scanner.h"

namespace kvplan {
namespace {

TEST(LinePrefixes, LearnsAPrefixAndStripsItFromLinesWithoutAnEngineStart) {
  LinePrefixes p;
  EXPECT_EQ(p.Strip("Aug 18 10:02:03 gpu-01 python3[1234]: INFO 08-18 10:02:03 [a.py:1] x"),
            "INFO 08-18 10:02:03 [a.py:1] x");
  EXPECT_EQ(p.Strip("Aug 18 10:02:04 gpu-01 python3[1234]: Traceback (most recent call last):"),
            "Traceback (most recent call last):");
  EXPECT_EQ(p.Strip("plain text"), "plain text");
}

TEST(LinePrefixes, MixedComposeServicesAndQuotes) {
  LinePrefixes p;
  EXPECT_EQ(p.Strip("sglang-1  | [2025-08-18 10:02:03 TP0] Load weight begin."),
            "[2025-08-18 10:02:03 TP0] Load weight begin.");
  EXPECT_EQ(p.Strip("router-1  | INFO:     Started server process"),
            "INFO:     Started server process");
  EXPECT_EQ(p.Strip("> (EngineCore_DP0 pid=1) INFO 08-18 10:02:03 [a.py:1] x"),
            "(EngineCore_DP0 pid=1) INFO 08-18 10:02:03 [a.py:1] x");
  EXPECT_EQ(p.Strip("sglang-1  |     File \"x.py\", line 1"), "    File \"x.py\", line 1");
}

TEST(LogScannerPrefixes, JournaldLogReadsLikeThePlainOne) {
  std::string plain =
      "$ python -m sglang.launch_server --model-path m --tp 2\n"
      "[2025-08-18 10:02:03 TP0] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, "
      "avail mem=60.00 GB, mem usage=15.00 GB.\n"
      "[2025-08-18 10:02:03 TP1] Load weight end. type=LlamaForCausalLM, dtype=torch.bfloat16, "
      "avail mem=60.10 GB, mem usage=15.00 GB.\n"
      "[2025-08-18 10:02:04 TP1] KV Cache is allocated. #tokens: 1000, K size: 1.00 GB, V size: "
      "1.00 GB\n";
  std::string journald;
  for (size_t at = 0; at < plain.size();) {
    size_t nl = plain.find('\n', at);
    journald += "Aug 18 10:02:03 host python3[77]: " + plain.substr(at, nl + 1 - at);
    at = nl + 1;
  }
  ScanResult a = ScanLogText(plain), b = ScanLogText(journald);
  ASSERT_EQ(b.runs.size(), 1u);
  EXPECT_EQ(b.runs[0].launch_command, a.runs[0].launch_command);
  EXPECT_DOUBLE_EQ(*b.runs[0].Figure("kv_tokens"), 1000);
  EXPECT_EQ(b.runs[0].RankCount(kStageLoadWeightEnd), 2);
}

TEST(LogScannerPrefixes, LayoutFromRankTagsWhenNoServerArgs) {
  ScanResult s = ScanLogText(
      "[2025-08-18 10:02:03 DP3 TP1] Load weight end. avail mem=60.00 GB, mem usage=15.00 GB.\n"
      "[2025-08-18 10:02:03 DP0 TP0] Load weight end. avail mem=60.00 GB, mem usage=15.00 GB.\n");
  ASSERT_EQ(s.runs.size(), 1u);
  const LoggedSetting* tp = s.runs[0].FindSetting("tp_size");
  const LoggedSetting* dp = s.runs[0].FindSetting("dp_size");
  ASSERT_NE(tp, nullptr);
  ASSERT_NE(dp, nullptr);
  EXPECT_EQ(tp->value, "2");
  EXPECT_EQ(dp->value, "4");
  EXPECT_EQ(tp->provenance, "derived");
  EXPECT_EQ(s.runs[0].FindSetting("pp_size"), nullptr);
}

TEST(LogScannerPrefixes, WrappedServerArgsAreRejoined) {
  ScanResult s = ScanLogText(
      "[2025-08-18 10:02:03] server_args=ServerArgs(model_path='m', tp_size=4, mem_fraction_st\n"
      "atic=0.8, chunked_prefill_size=8192)\n");
  ASSERT_EQ(s.runs.size(), 1u);
  EXPECT_TRUE(s.runs[0].settings_complete);
  EXPECT_EQ(s.runs[0].FindSetting("mem_fraction_static")->value, "0.8");
  EXPECT_EQ(s.runs[0].FindSetting("chunked_prefill_size")->value, "8192");
}

TEST(LogScannerPrefixes, AFileWithoutEngineLinesIsBadInput) {
  ScanResult s = ScanLogText("# kvplan\n\n    python -m sglang.launch_server --model-path m\n");
  EXPECT_THROW(ReadRunsOrThrow("README.md", s), InputError);
}

}  // namespace
}  // namespace kvplan
