// `kvplan diff` on the synthetic decode logs (tests/data/make_decode_logs.py):
// the measured decode side by side and the one line that says which difference
// makes B slower. The tok/s figures are the medians of TP0's reports at 1
// request, read off the logs by hand: 81.57 (no speculation), 53.9x (EAGLE3),
// 41.1x (EAGLE with an EAGLE-3 draft).
#include "explain/decode_diff.h"

#include <string>

#include <gtest/gtest.h>

#include "explain/run_diff.h"
#include "kvplan/diff.h"
#include "logs/log_scanner.h"
#include "report/diff_render.h"

namespace kvplan {
namespace {

RunRecord Load(const std::string& name) {
  return ScanLogFile(std::string(KVPLAN_SOURCE_DIR) + "/tests/data/sglang/" + name).runs.at(0);
}

TEST(DecodeDiff, SpeculationOnInBIsNamedAsWhyItIsSlower) {
  RunRecord a = Load("decode_llama8b_no_spec.log"), b = Load("decode_llama8b_eagle3.log");
  EXPECT_EQ(CommonBatch(a, b), 1);
  std::string v = DecodeVerdict(DiffRuns(a, "A", b, "B"));
  EXPECT_EQ(v.rfind("B decodes 53.", 0), 0u) << v;
  EXPECT_NE(v.find("against A's 81.6 at 1 running request: B runs EAGLE3 with accept length 2.29 "
                   "and A no speculation"),
            std::string::npos)
      << v;
  // The reverse is faster: nothing to explain.
  EXPECT_EQ(DecodeVerdict(DiffRuns(b, "A", a, "B")), "");
}

TEST(DecodeDiff, NothingAcceptedNamesTheKnownCause) {
  RunRecord a = Load("decode_llama8b_no_spec.log");
  RunRecord b = Load("decode_llama8b_eagle_with_eagle3_draft.log");
  std::string v = DecodeVerdict(DiffRuns(a, "A", b, "B"));
  EXPECT_NE(v.find("B's drafts are never accepted"), std::string::npos) << v;
  EXPECT_NE(v.find("#21272"), std::string::npos) << v;
}

TEST(DecodeDiff, AcceptLengthDropBetweenTwoSpeculativeRuns) {
  RunRecord a = Load("decode_llama8b_eagle3.log");
  RunRecord b = Load("decode_llama8b_eagle_with_eagle3_draft.log");
  std::string v = DecodeVerdict(DiffRuns(a, "A", b, "B"));
  EXPECT_NE(v.find("B's accept length fell from 2.29 to 1.00 (speculative_algorithm EAGLE3 -> "
                   "EAGLE)"),
            std::string::npos)
      << v;
  std::string text = RenderDiffText(DiffRuns(a, "A", b, "B"));
  size_t section = text.find("Decode, measured side by side");
  ASSERT_NE(section, std::string::npos) << text;
  EXPECT_LT(text.find("Memory timeline side by side"), section);
  EXPECT_NE(text.find("mean accept length                        2.29      1.00"),
            std::string::npos)
      << text;
}

TEST(DecodeDiff, AcceptDropAtTheSameSpeedIsStillReported) {
  RunRecord a = Load("decode_llama8b_eagle3.log");
  RunRecord b = a;
  b.decode.mean_accept_len = 1.8;
  EXPECT_EQ(DecodeVerdict(DiffRuns(a, "A", b, "B"))
                .rfind("B accepts fewer draft tokens: accept length 2.29 -> 1.80", 0),
            0u);
}

TEST(DecodeDiff, NoReportsNoSection) {
  RunRecord a = Load("story_baseline_auto_mfs.log");
  EXPECT_EQ(DecodeDiffText(DiffRuns(a, "A", a, "B")), "");
  EXPECT_EQ(RenderDiffText(DiffRuns(a, "A", a, "A")).find("Decode, measured"), std::string::npos);
  // One side only: shown, without a verdict.
  RunRecord b = Load("decode_llama8b_no_spec.log");
  std::string text = DecodeDiffText(DiffRuns(a, "A", b, "B"));
  EXPECT_NE(text.find("decode reports counted                       0        13"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("=>"), std::string::npos);
  EXPECT_FALSE(CommonBatch(a, b));
}

}  // namespace
}  // namespace kvplan
