#include "base/untrusted_text.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(UntrustedText, EscapesControlBytesAndInvalidUtf8) {
  EXPECT_EQ(EscapeForError("a\nb\tc\x1b[31m\x7f"), "a\\nb\\tc\\x1b[31m\\x7f");
  EXPECT_EQ(EscapeForError(std::string("x\0y", 3)), "x\\x00y");
  EXPECT_EQ(EscapeForError("caf\xc3\xa9 \xff\xc3"), "caf\xc3\xa9 \\xff\\xc3");
  EXPECT_EQ(EscapeForError("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
  EXPECT_EQ(QuoteForError("say \"hi\" \\"), "\"say \\\"hi\\\" \\\\\"");
  EXPECT_EQ(EscapeForError("plain/path.json"), "plain/path.json");
}

TEST(UntrustedText, CutsLongTextToABoundedLine) {
  const std::string big(209'000'000 / 1000, 'x');
  const std::string e = EscapeForError(big);
  EXPECT_EQ(e.size(), kQuotedTextMax + 3);
  EXPECT_EQ(e.substr(e.size() - 3), "...");
  EXPECT_EQ(EscapeForError(std::string(kQuotedTextMax, 'y')).find("..."), std::string::npos);
  // Escapes grow the text, but at most 4 bytes per input character.
  EXPECT_LE(EscapeForError(std::string(100000, '\1')).size(), 4 * kQuotedTextMax + 3);
}

}  // namespace
}  // namespace kvplan
