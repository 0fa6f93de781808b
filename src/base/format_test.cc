// FormatGiB prints as Python's f"{gib:.{digits}f}" does (the engines' own log
// lines): the exact binary value rounded half to even, the sign kept. The
// expected strings are what python3 prints for the same value.
#include "base/format.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/units.h"

namespace kvplan {
namespace {

TEST(FormatGiB, RoundsAsPythonFormatDoes) {
  EXPECT_EQ(FormatGiB(kGiB / 8), "0.12 GiB");             // f"{0.125:.2f}": a tie goes to even
  EXPECT_EQ(FormatGiB(3 * kGiB / 8), "0.38 GiB");         // f"{0.375:.2f}"
  EXPECT_EQ(FormatGiB(-(kGiB + kGiB / 2)), "-1.50 GiB");  // f"{-1.5:.2f}"
  EXPECT_EQ(FormatGiB(GiBToBytes(-20.603), 3), "-20.603 GiB");
  EXPECT_EQ(FormatGiB(0, 0), "0 GiB");
}

TEST(DisplayWidth, CountsCodePointsNotBytes) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("GiB"), 3u);
  EXPECT_EQ(DisplayWidth("\xc3\xa9t\xc3\xa9"), 3u);  // "été": 5 bytes, 3 columns
  EXPECT_EQ(DisplayWidth("\xe2\x89\xa4"), 1u);       // "≤"
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// The words of `text` in order, whatever the line breaks and indentation.
std::string Words(const std::string& text) {
  std::string words, word;
  for (char c : text + " ") {
    if (c == ' ' || c == '\n') {
      if (!word.empty()) words += (words.empty() ? "" : " ") + word;
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

TEST(WrapText, KeepsEveryWordAndStaysInsideTheWidth) {
  const std::string text =
      "  Not enough memory. Please try to increase --mem-fraction-static. Current value: "
      "self.server_args.mem_fraction_static=0.55 and then some more words to wrap twice";
  const std::string wrapped = WrapText(text, 2, 40);
  EXPECT_EQ(Words(wrapped), Words(text));
  for (const std::string& line : Lines(wrapped)) {
    // One word (the 41-character flag expression) is longer than a line: it stands alone.
    if (line.find("self.server_args") == std::string::npos) {
      EXPECT_LE(DisplayWidth(line), 40u) << line;
    }
    EXPECT_EQ(line.rfind("  ", 0), 0u) << line;  // the indent, on every line
  }
  EXPECT_EQ(WrapText("short", 4, 40), "short\n");
}

TEST(WrapText, CountsCodePointsNotBytes) {
  // 30 three-byte characters in words of 5: 35 columns fit in 40, though 95 bytes do not.
  std::string w = "→→→→→";
  const std::string text = w + " " + w + " " + w + " " + w + " " + w + " " + w;
  EXPECT_EQ(Lines(WrapText(text, 0, 40)).size(), 1u);
}

TEST(TextTable, WrapsOnlyTheLastColumnUnderItself) {
  TextTable t({"flag", "value", "effect"});
  t.AddRow({"--mem-fraction-static", "0.770",
            "minimum viable (1 - post/pre = 0.7692); starts: rest_memory 0.077 GiB, 1,180 KV "
            "tokens, max_running_requests 590"});
  t.AddRow({"--tp", "4", "short"});
  const std::vector<std::string> lines = Lines(t.Render(2, 80));
  // The effect column starts at 2 + 21 + 2 + 5 + 2 = 32, leaving 48 columns for its 113
  // characters: three lines.
  ASSERT_EQ(lines.size(), 5u);  // header, a row on three lines, a short row
  const size_t column = lines[0].find("effect");
  EXPECT_EQ(lines[1].find("minimum"), column);
  EXPECT_EQ(column, 32u);
  EXPECT_EQ(lines[2].find_first_not_of(' '), column);  // the continuations, under their column
  EXPECT_EQ(lines[3].find_first_not_of(' '), column);
  for (const std::string& line : lines) EXPECT_LE(DisplayWidth(line), 80u) << line;
  EXPECT_EQ(lines[4], "  --tp                   4      short");
  // Wide enough: one line per row, as before.
  EXPECT_EQ(Lines(t.Render(2, 200)).size(), 3u);
}

}  // namespace
}  // namespace kvplan
