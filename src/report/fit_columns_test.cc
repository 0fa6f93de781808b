// Text output keeps to 100 columns (issue 11 item 4): the wrapping pass, and
// every README example's output as checked in (the readme_examples test keeps
// README.md byte-identical to what kvplan prints).
#include "report/fit_columns.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "base/format.h"
#include "kvplan/history.h"
#include "kvplan/render.h"

namespace kvplan {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(FitColumns, LinesThatFitAreUnchanged) {
  const std::string text = "Settings\n  a  b\n\n" + std::string(100, 'x') + "\nlast";
  EXPECT_EQ(FitToColumns(text), text);
}

TEST(FitColumns, LongLinesWrapUnderTheirLastCell) {
  const std::string why(30, 'w');
  const std::string row =
      "  mem_fraction_static        0.88       auto     " + why + " " + why + " " + why + " " + why;
  const std::string fitted = FitToColumns(row + "\n");
  const auto lines = Lines(fitted);
  ASSERT_GE(lines.size(), 2u);
  EXPECT_EQ(lines[0].rfind("  mem_fraction_static        0.88       auto     ", 0), 0u);
  for (size_t i = 1; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i].find_first_not_of(' '), 49u) << lines[i];  // under the "why" column
  }
  for (const std::string& l : lines) EXPECT_LE(DisplayWidth(l), kTextColumns) << l;
  EXPECT_EQ(HangingIndent("  check: matches kvplan's model"), 4u);
  EXPECT_EQ(HangingIndent("  pre      47.24 GiB  derived: post-load free"), 22u);
}

TEST(FitColumns, RunsTableOfWideInputsKeepsTo100Columns) {
  HistoryListing h;
  h.db_path = "runs.db";
  StoredRun s;
  s.id = 12345;
  s.log_path = "/a/very/long/path/" + std::string(120, 'p') + "/server.log";
  s.record.engine = "sglang";
  s.record.model = "some-organisation-with-a-long-name/a-model-with-an-even-longer-name";
  s.record.gpu_name = "NVIDIA RTX PRO 6000 Blackwell Server Edition";
  s.record.started_at = "2025-07-21 08:51:01";
  s.record.outcome = "failed";
  h.runs = {s};
  for (const std::string& l : Lines(RenderHistoryText(h))) {
    // A path longer than a line stays whole (WrapText never breaks a word).
    if (l.find(std::string(120, 'p')) != std::string::npos) continue;
    EXPECT_LE(DisplayWidth(l), kTextColumns) << l;
  }
}

// Every ```console block of README.md that runs `kvplan ...`: its output lines.
// `models` (its table is the catalog helper's) and --json output are exempt.
TEST(FitColumns, EveryReadmeExampleKeepsTo100Columns) {
  std::ifstream in(std::string(KVPLAN_SOURCE_DIR) + "/README.md");
  ASSERT_TRUE(in) << "README.md";
  bool in_block = false, exempt = false;
  int checked = 0;
  for (std::string line; std::getline(in, line);) {
    if (!in_block && line == "```console") {
      in_block = true;
      exempt = false;
      continue;
    }
    if (in_block && line == "```") {
      in_block = false;
      continue;
    }
    if (!in_block) continue;
    if (line.rfind("$ kvplan ", 0) == 0) {
      exempt = line.rfind("$ kvplan models", 0) == 0 || line.find("--json") != std::string::npos;
      continue;
    }
    if (exempt) continue;
    ++checked;
    EXPECT_LE(DisplayWidth(line), kTextColumns) << line;
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace kvplan
