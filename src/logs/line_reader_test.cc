#include "logs/line_reader.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
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
  EXPECT_EQ(h.size(), 64u);  // SHA-256 since run-store schema 3
  EXPECT_EQ(h, pieces.HexDigest());
  EXPECT_NE(h, other.HexDigest());
}

TEST(ContentHash, IsSha256) {
  // FIPS 180-2's test vector for "abc".
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(Sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

// The digests kvplan stored before schema 3, as the old ContentHasher printed
// them: the store still recognises logs ingested then.
TEST(ContentHash, LegacyDigestIsUnchanged) {
  std::string text(1000, 'a');
  LegacyContentHasher h;
  h.Update(text.data(), 3);
  h.Update(text.data() + 3, text.size() - 3);
  EXPECT_EQ(h.HexDigest(), "d8fce59b3e95563da2da3e773322dbed");
  EXPECT_EQ(LegacyContentHasher().HexDigest(), "181b84d0dd79da11af3dba62e1605c99");
}

// A read that fails is an error, never the end of the log: a consumer cannot
// mistake the lines before it for the whole log.
TEST(LineReader, AReadErrorThrowsInsteadOfEndingTheInput) {
  std::string text = "one\ntwo\nthree\n";
  int calls = 0;
  LineReader r(
      [&](char* buf, size_t n) -> size_t {
        if (calls++ > 0) {
          errno = EIO;
          return LineReader::kReadFailed;
        }
        size_t take = std::min<size_t>(n, 8);  // "one\ntwo\n"
        std::memcpy(buf, text.data(), take);
        return take;
      },
      64);
  std::string_view line;
  ASSERT_TRUE(r.Next(&line));
  EXPECT_EQ(line, "one");
  ASSERT_TRUE(r.Next(&line));
  EXPECT_EQ(line, "two");
  try {
    r.Next(&line);
    FAIL() << "expected LogReadError";
  } catch (const LogReadError& e) {
    EXPECT_EQ(e.error_number(), EIO);
    EXPECT_EQ(e.bytes_read(), 8);
    EXPECT_NE(std::string(e.what()).find("read error after 8 bytes"), std::string::npos);
  }
}

TEST(LineReader, ReadingADirectoryIsAReadError) {
  int fd = ::open("/", O_RDONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  LineReader r = LineReader::FromFd(fd, 64);
  std::string_view line;
  EXPECT_THROW(r.Next(&line), LogReadError);
  ::close(fd);
}

}  // namespace
}  // namespace kvplan
