// Hostile inputs (tests/data/synthetic/hostile, plus a 100 MB single line made at test
// time): each gives a clear InputError or a partial record marked incomplete;
// never a crash or a hang.
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "explain/explain.h"
#include "explain/run_diff.h"
#include "explain/stand_in_model.h"
#include "kvplan/diff.h"
#include "kvplan/error.h"
#include "kvplan/explain.h"
#include "logs/log_scanner.h"
#include "logs/run_record_json.h"
#include "testing/explain_text.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using testing::ExplainText;

std::string Hostile(const std::string& name) {
  return kvplan::testing::SyntheticData("hostile/" + name);
}

// Scans `path` and renders every run: returns the runs, or throws InputError.
std::vector<RunRecord> ScanAndRender(const std::string& path) {
  ScanResult r = ScanLogFile(path);
  std::vector<RunRecord> runs = ReadRunsOrThrow(path, r);
  for (const RunRecord& run : runs) {
    EXPECT_FALSE(DumpJson(ToJson(run)).empty());
    ExplainOptions o;
    EXPECT_FALSE(ExplainText(run, path, static_cast<int>(runs.size()), o).empty());
    EXPECT_FALSE(RenderDiffText(DiffRuns(run, "A", run, "B")).empty());
  }
  return runs;
}

// Found by log_scanner_fuzz (a mutated SGLang log: a KV line whose sizes and token count
// imply a 65 MB cell, over a tp_size of 2,027): re-planned with --set or diffed, the stand-in
// model's hidden size overflowed an int. Such a cell is no model's, so the re-plan goes on as if
// the log named none: explain and diff answer; --set says in one line what is missing.
TEST(Hostile, FuzzFoundKvCellTooLargeForAStandInIsNotPlanned) {
  EXPECT_FALSE(StandInCanCarry(65'496'018, 2, 1));
  EXPECT_FALSE(StandInCanCarry(16'000'000, 2, 2027));
  EXPECT_TRUE(StandInCanCarry(70'272, 2, 8));
  const std::string path = Hostile("fuzz_kv_cell_overflows_stand_in.log");
  ScanResult r = ScanLogFile(path);
  std::vector<RunRecord> runs = ReadRunsOrThrow(path, r);
  ASSERT_FALSE(runs.empty());
  for (const RunRecord& run : runs) {
    EXPECT_FALSE(ExplainText(run, path, static_cast<int>(runs.size()), {}).empty());
    EXPECT_FALSE(RenderDiffText(DiffRuns(runs.front(), "A", run, "B")).empty());
    // --set asks for a re-plan the log cannot give: one line says which input is missing.
    ExplainOptions o;
    o.sets.push_back({"--mem-fraction-static", "0.5"});
    const std::string what = testing::InputErrorOf(
        [&] { (void)ExplainText(run, path, static_cast<int>(runs.size()), o); });
    EXPECT_NE(what.find("cannot re-plan"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos);
  }
}

TEST(Hostile, BinaryJunkIsAClearError) {
  const std::string what =
      testing::InputErrorOf([&] { ScanAndRender(Hostile("binary_junk.bin")); });
  EXPECT_NE(what.find("binary_junk.bin"), std::string::npos);
  EXPECT_EQ(what.find('\n'), std::string::npos);  // one line
}

TEST(Hostile, DeeplyNestedReprKeepsTheOtherArguments) {
  std::vector<RunRecord> runs = ScanAndRender(Hostile("deeply_nested_repr.log"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_FALSE(runs[0].settings_complete);
  ASSERT_NE(runs[0].FindSetting("mem_fraction_static"), nullptr);
  EXPECT_EQ(runs[0].FindSetting("mem_fraction_static")->value, "0.8");
  EXPECT_EQ(runs[0].outcome, "incomplete");
}

TEST(Hostile, InvalidUtf8SurvivesIntoJsonAndTheFailureIsRead) {
  std::vector<RunRecord> runs = ScanAndRender(Hostile("invalid_utf8.log"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].outcome, "failed");
  EXPECT_DOUBLE_EQ(*runs[0].MinAvail(kStageLoadWeightEnd), 20.0);
}

TEST(Hostile, LogEndingMidLineIsIncomplete) {
  std::vector<RunRecord> runs = ScanAndRender(Hostile("ends_mid_line.log"));
  ASSERT_EQ(runs.size(), 1u);
  EXPECT_EQ(runs[0].outcome, "incomplete");
  EXPECT_FALSE(runs[0].notes.empty());
}

TEST(Hostile, GarbledNumbersDoNotInventFigures) {
  std::vector<RunRecord> runs = ScanAndRender(Hostile("garbled_numbers.log"));
  ASSERT_FALSE(runs.empty());
  const RunRecord& r = runs[0];
  EXPECT_FALSE(r.Figure("k_size_gib"));  // "K size: ," has no number
  EXPECT_TRUE(r.cuda_graph_bs.empty());  // the list is cut
}

TEST(Hostile, HundredMegabyteSingleLineIsCutNotLoaded) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("kvplan-longline-" + std::to_string(::getpid()) + ".log"))
                         .string();
  {
    FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fputs("[2025-07-21 08:51:01] server_args=ServerArgs(model_path='m', tp_size=1, x='", f);
    std::string chunk(1 << 20, 'a');
    for (int i = 0; i < 100; ++i) std::fwrite(chunk.data(), 1, chunk.size(), f);
    std::fputs(
        "', mem_fraction_static=0.8)\n[2025-07-21 08:51:12] Load weight begin. avail mem=40.00 "
        "GB\n",
        f);
    std::fclose(f);
  }
  ScanResult r = ScanLogFile(path);
  std::filesystem::remove(path);
  ASSERT_EQ(r.runs.size(), 1u);
  EXPECT_GT(r.bytes, 100 << 20);
  EXPECT_FALSE(r.runs[0].settings_complete);  // the args line was cut at the buffer size
  EXPECT_EQ(r.runs[0].FindSetting("tp_size")->value, "1");
  EXPECT_DOUBLE_EQ(*r.runs[0].MinAvail(kStageLoadWeightBegin), 40.0);  // the next line is read
  bool cut_note = false;
  for (const std::string& n : r.runs[0].notes) cut_note |= n.find("was cut") != std::string::npos;
  EXPECT_TRUE(cut_note);
}

TEST(Hostile, EmptyFileIsAClearError) {
  std::string path = (std::filesystem::temp_directory_path() /
                      ("kvplan-empty-" + std::to_string(::getpid()) + ".log"))
                         .string();
  std::fclose(std::fopen(path.c_str(), "wb"));
  EXPECT_THROW(ScanAndRender(path), InputError);
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace kvplan
