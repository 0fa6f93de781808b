#include "logs/line_reader.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "logs/content_hash.h"

namespace kvplan {
namespace {

std::vector<std::string> Lines(std::string_view text, size_t buffer = 64) {
  LineReader r = LineReader::FromText(text, buffer);
  std::vector<std::string> out;
  std::string_view line;
  while (r.Next(&line)) out.emplace_back(line);
  return out;
}

TEST(LineReader, SplitsOnLfCrlfAndProgressBarCarriageReturns) {
  EXPECT_EQ(Lines("a\nb\r\nc\rd\n"), (std::vector<std::string>{"a", "b", "c", "d"}));
  EXPECT_EQ(Lines("x\n\ny"), (std::vector<std::string>{"x", "", "y"}));
}

TEST(LineReader, FlagsALogThatEndsMidLine) {
  LineReader r = LineReader::FromText("one\ntwo", 64);
  std::string_view line;
  ASSERT_TRUE(r.Next(&line));
  EXPECT_FALSE(r.last_unterminated());
  ASSERT_TRUE(r.Next(&line));
  EXPECT_EQ(line, "two");
  EXPECT_TRUE(r.last_unterminated());
  EXPECT_FALSE(r.Next(&line));
}

TEST(LineReader, CutsLinesLongerThanTheBufferAndResumesAfterThem) {
  std::string text = std::string(1000, 'x') + "\nshort\n";
  LineReader r = LineReader::FromText(text, 64);
  std::string_view line;
  ASSERT_TRUE(r.Next(&line));
  EXPECT_EQ(line.size(), 64u);
  EXPECT_TRUE(r.last_truncated());
  ASSERT_TRUE(r.Next(&line));
  EXPECT_EQ(line, "short");
  EXPECT_FALSE(r.Next(&line));
}

TEST(LineReader, LinesStraddlingBufferRefillsStayWhole) {
  std::string text;
  for (int i = 0; i < 200; ++i) text += "line number " + std::to_string(i) + "\r\n";
  std::vector<std::string> lines = Lines(text, 40);
  ASSERT_EQ(lines.size(), 200u);
  EXPECT_EQ(lines[137], "line number 137");
}

TEST(ContentHash, DependsOnEveryByteNotOnChunking) {
  std::string text(1000, 'a');
  ContentHasher whole, pieces, other;
  whole.Update(text.data(), text.size());
  for (size_t i = 0; i < text.size(); i += 7) {
    pieces.Update(text.data() + i, std::min<size_t>(7, text.size() - i));
  }
  text[500] = 'b';
  other.Update(text.data(), text.size());
  std::string h = whole.HexDigest();
  EXPECT_EQ(h.size(), 32u);
  EXPECT_EQ(h, pieces.HexDigest());
  EXPECT_NE(h, other.HexDigest());
}

}  // namespace
}  // namespace kvplan
