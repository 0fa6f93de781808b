// Reads a log line by line through one fixed buffer, so memory stays the same
// however long the log is. Logs as people have them: \n, \r\n, and bare \r
// (progress bars redraw themselves with \r; each redraw is a line here). A line
// longer than the buffer is cut, flagged, and the rest of it skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string_view>
#include <vector>

#include "kvplan/error.h"

namespace kvplan {

class ContentHasher;

// The input failed to read (an I/O error, not its end). Thrown by
// LineReader::Next, so that no reader can take a partial read for a whole log.
class LogReadError : public InputError {
 public:
  LogReadError(int error_number, int64_t bytes_read);
  int error_number() const { return errno_; }
  int64_t bytes_read() const { return bytes_read_; }

 private:
  int errno_;
  int64_t bytes_read_;
};

class LineReader {
 public:
  // `read` fills up to n bytes and returns how many (0 at the end), or
  // kReadFailed with errno set when the input cannot be read.
  static constexpr size_t kReadFailed = static_cast<size_t>(-1);
  using ReadFn = std::function<size_t(char* buf, size_t n)>;
  LineReader(ReadFn read, size_t buffer_bytes = size_t{1} << 20);

  // Reads a file descriptor (not owned).
  static LineReader FromFd(int fd, size_t buffer_bytes = size_t{1} << 20);
  // Reads text in memory (tests, fuzzers). `text` must outlive the reader.
  static LineReader FromText(std::string_view text, size_t buffer_bytes = size_t{1} << 20);

  // Every byte read is also fed to `hasher` (may be null).
  void set_hasher(ContentHasher* hasher) { hasher_ = hasher; }

  // The next line, without its terminator; false at the end of input. The
  // view stays valid until the next call. Throws LogReadError when a read fails.
  bool Next(std::string_view* line);

  bool last_truncated() const { return last_truncated_; }        // cut at the buffer size
  bool last_unterminated() const { return last_unterminated_; }  // input ended mid-line
  int64_t line_number() const { return line_number_; }           // 1-based, of the last line
  int64_t bytes_read() const { return bytes_read_; }

 private:
  bool Fill();  // reads more after compacting; false at the end of input, throws on error
  bool SkipRestOfLine();

  ReadFn read_;
  ContentHasher* hasher_ = nullptr;
  std::vector<char> buf_;
  size_t begin_ = 0, end_ = 0;
  size_t newline_ = 0;  // cached position of the next '\n' in [begin_, end_), or end_ when unknown
  bool newline_known_ = false;
  bool newline_is_eof_ = false;  // newline_ marks the end of input, not a '\n'
  bool eof_ = false;
  bool skipping_ = false;  // discarding the rest of a cut line
  bool last_truncated_ = false, last_unterminated_ = false;
  int64_t line_number_ = 0, bytes_read_ = 0;
};

}  // namespace kvplan
