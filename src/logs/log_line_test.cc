#include "logs/log_line.h"

#include <string>

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(LogLine, SglangPrefixWithRanks) {
  LogLine l =
      SplitLogLine("[2026-05-01 10:00:00 DP1 TP2 EP2] Load weight begin. avail mem=1.00 GB");
  EXPECT_EQ(l.time, "2026-05-01 10:00:00");
  EXPECT_EQ(l.rank, "DP1 TP2 EP2");
  EXPECT_EQ(l.message, "Load weight begin. avail mem=1.00 GB");
  LogLine single = SplitLogLine("[2025-07-05 10:11:12.345] Memory pool end. avail mem=5.27 GB");
  EXPECT_EQ(single.time, "2025-07-05 10:11:12.345");
  EXPECT_EQ(single.rank, "");
}

TEST(LogLine, VllmPrefixesOfBothEras) {
  LogLine v1 = SplitLogLine(
      "(EngineCore_DP0 pid=6880) INFO 10-31 15:07:49 [gpu_worker.py:298] Available KV cache "
      "memory: 1.71 GiB");
  EXPECT_EQ(v1.rank, "EngineCore_DP0");
  EXPECT_EQ(v1.level, "INFO");
  EXPECT_EQ(v1.time, "10-31 15:07:49");
  EXPECT_EQ(v1.message, "Available KV cache memory: 1.71 GiB");
  LogLine v0 = SplitLogLine("INFO 01-16 09:40:00 worker.py:238] model weights take 19.86GiB");
  EXPECT_EQ(v0.message, "model weights take 19.86GiB");
}

TEST(LogLine, ContainerTimestampAndUnprefixedLines) {
  LogLine l = SplitLogLine("2025-07-05T10:11:12.123456789Z [2025-07-05 10:11:12 TP3] hello");
  EXPECT_EQ(l.rank, "TP3");
  EXPECT_EQ(l.message, "hello");
  EXPECT_EQ(SplitLogLine("[...] trimmed").message, "[...] trimmed");
  EXPECT_EQ(SplitLogLine("  File \"x.py\", line 3").message, "  File \"x.py\", line 3");
}

// Forms found in the real-log corpus (tests/data/real/corpus.tsv).
TEST(LogLine, CiTimestampInBracketsBeforeTheProcessTag) {
  LogLine l = SplitLogLine(
      "[2025-08-12T08:42:39Z] (EngineCore_0 pid=13564) INFO 08-12 01:42:39 "
      "[gpu_model_runner.py:1985] Model loading took 2.8871 GiB and 5.965132 seconds");
  EXPECT_EQ(l.rank, "EngineCore_0");
  EXPECT_EQ(l.level, "INFO");
  EXPECT_EQ(l.message, "Model loading took 2.8871 GiB and 5.965132 seconds");
  EXPECT_EQ(SplitLogLine("[2025-03-27 21:33:31 TP0] hi").rank, "TP0");  // SGLang's own bracket
}

TEST(LogLine, TensorRtLlmPrefixAndInlineCodeQuote) {
  LogLine t = SplitLogLine("[TensorRT-LLM][INFO] Using 10718 tokens in paged KV cache.");
  EXPECT_EQ(t.level, "INFO");
  EXPECT_EQ(t.message, "Using 10718 tokens in paged KV cache.");
  EXPECT_EQ(SplitLogLine("`ValueError: x`").message, "ValueError: x`");
  EXPECT_EQ(SplitLogLine("```bash").message, "```bash");  // a fence is not a quote
}

TEST(LogLine, StripsAnsiColours) {
  std::string scratch;
  EXPECT_EQ(StripAnsi("\x1b[32mINFO\x1b[0m done", &scratch), "INFO done");
  std::string_view plain = "no colour";
  EXPECT_EQ(StripAnsi(plain, &scratch).data(), plain.data());
}

}  // namespace
}  // namespace kvplan
