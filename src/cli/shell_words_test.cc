#include "cli/shell_words.h"

#include <random>

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan::cli {
namespace {

using Kind = ShellToken::Kind;

std::vector<std::string> Words(std::string_view text) {
  std::vector<std::string> out;
  for (const ShellToken& t : TokenizeShell(text)) {
    out.push_back(t.kind == Kind::kWord ? t.text : "<" + t.text + ">");
  }
  return out;
}

using V = std::vector<std::string>;

TEST(TokenizeShell, SplitsOnRunsOfBlanks) {
  EXPECT_EQ(Words("  a   b\tc  "), (V{"a", "b", "c"}));
  EXPECT_EQ(Words(""), V{});
}

TEST(TokenizeShell, Quotes) {
  EXPECT_EQ(Words(R"(a 'b c' "d e" f'g h'i)"), (V{"a", "b c", "d e", "fg hi"}));
  EXPECT_EQ(Words(R"('' "")"), (V{"", ""}));  // empty quoted words survive
  EXPECT_EQ(Words(R"('{"a": 1}')"), (V{R"({"a": 1})"}));
  EXPECT_EQ(Words(R"("a\"b\\c\d")"), (V{R"(a"b\c\d)"}));  // \d stays two characters
  EXPECT_EQ(Words(R"('a\b')"), (V{R"(a\b)"}));            // no escapes in single quotes
  EXPECT_EQ(Words("'a # b' c#d"), (V{"a # b", "c#d"}));
}

TEST(TokenizeShell, BackslashEscapesAndContinuations) {
  EXPECT_EQ(Words(R"(a\ b)"), (V{"a b"}));
  EXPECT_EQ(Words("a \\\n  b"), (V{"a", "b"}));
  EXPECT_EQ(Words("a \\\r\n  b\r\n"), (V{"a", "b", "<\n>"}));
  EXPECT_EQ(Words("a \\   \n  b"), (V{"a", "b"}));  // blanks after the backslash
  EXPECT_EQ(Words("ab\\\ncd"), (V{"abcd"}));        // a continuation joins, as in sh
  EXPECT_EQ(Words("a \\"), (V{"a"}));
  EXPECT_EQ(Words("\"a\\\nb\""), (V{"ab"}));
}

TEST(TokenizeShell, CommentsRunToTheEndOfTheLine) {
  EXPECT_EQ(Words("# launch it\na b # the model\nc"), (V{"<\n>", "a", "b", "<\n>", "c"}));
}

TEST(TokenizeShell, OperatorsAndRedirections) {
  EXPECT_EQ(Words("a 2>&1 | tee log &"), (V{"a", "<>&>", "1", "<|>", "tee", "log", "<&>"}));
  EXPECT_EQ(Words("a>out.log;b&&c||d"),
            (V{"a", "<>>", "out.log", "<;>", "b", "<&&>", "c", "<||>", "d"}));
  EXPECT_EQ(Words("a &>> x.log"), (V{"a", "<&>>>", "x.log"}));
  EXPECT_EQ(Words("a '2'>x"), (V{"a", "2", "<>>", "x"}));  // a quoted 2 is a word
  EXPECT_EQ(Words("a '|' \\&"), (V{"a", "|", "&"}));
}

TEST(TokenizeShell, UnterminatedQuotesAreErrors) {
  EXPECT_THROW(TokenizeShell("a 'b c"), InputError);
  const std::string what = testing::InputErrorOf([&] { TokenizeShell("ab \"cd"); });
  EXPECT_EQ(what,
            "unterminated double quote in the launch command (opened at character 4); "
            "close it");
}

TEST(ClassifyWords, OnlyWholeOperatorWords) {
  std::vector<ShellToken> t =
      ClassifyWords({"a", "\\", "2>&1", "|", "tee", ">", "f", "<|im_end|>", ">g", "a b"});
  ASSERT_EQ(t.size(), 9u);
  EXPECT_EQ(t[1].kind, Kind::kRedirect);
  EXPECT_FALSE(t[1].takes_target);
  EXPECT_EQ(t[2].kind, Kind::kSeparator);
  EXPECT_EQ(t[4].kind, Kind::kRedirect);
  EXPECT_TRUE(t[4].takes_target);
  // A word that merely starts like a redirection was quoted by the user: keep it.
  EXPECT_EQ(t[6].kind, Kind::kWord);
  EXPECT_EQ(t[7].kind, Kind::kWord);
  EXPECT_EQ(t[8].text, "a b");
}

TEST(SplitCommands, DropsRedirectionsAndSplitsOnSeparators) {
  std::vector<ShellCommand> c = SplitCommands(TokenizeShell("a b > log 2>&1 | tee x\n\nc"));
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0].words, (V{"a", "b"}));
  EXPECT_EQ(c[0].separator_before, "");
  EXPECT_EQ(c[1].words, (V{"tee", "x"}));
  EXPECT_EQ(c[1].separator_before, "|");
  EXPECT_EQ(c[2].words, (V{"c"}));
  EXPECT_EQ(c[2].separator_before, "\n");
}

// Property: quoting any words the way a shell user would (single quotes, ' as '\'')
// and splitting the result gives the words back.
TEST(TokenizeShell, QuotedWordsRoundTrip) {
  std::mt19937 rng(12345);
  const std::string alphabet = "ab -_=,.:/'\"\\$#&|;<>(){}[]*?\t\n\r";
  for (int trial = 0; trial < 500; ++trial) {
    V words(1 + rng() % 6);
    std::string line;
    for (std::string& w : words) {
      for (size_t k = rng() % 8; k > 0; --k) w += alphabet[rng() % alphabet.size()];
      std::string quoted = "'";
      for (char c : w) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      line += (line.empty() ? "" : "  ") + quoted + "'";
    }
    EXPECT_EQ(Words(line), words) << line;
  }
}

// Property: any input either splits or is rejected with InputError; nothing else escapes.
TEST(TokenizeShell, ArbitraryInputNeverCrashes) {
  std::mt19937 rng(678);
  const std::string alphabet = "a1 '\"\\#&|;<>\n\r\t=-";
  for (int trial = 0; trial < 2000; ++trial) {
    std::string text;
    for (size_t k = rng() % 24; k > 0; --k) text += alphabet[rng() % alphabet.size()];
    try {
      SplitCommands(TokenizeShell(text));
    } catch (const InputError&) {
    }
  }
}

}  // namespace
}  // namespace kvplan::cli
