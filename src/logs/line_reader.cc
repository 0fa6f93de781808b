#include "logs/line_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/core.h>

#include "logs/content_hash.h"

namespace kvplan {

LogReadError::LogReadError(int error_number, int64_t bytes_read)
    : InputError(
          fmt::format("read error after {} bytes: {}", bytes_read, std::strerror(error_number))),
      errno_(error_number),
      bytes_read_(bytes_read) {}

LineReader::LineReader(ReadFn read, size_t buffer_bytes)
    : read_(std::move(read)), buf_(buffer_bytes < 64 ? 64 : buffer_bytes) {}

LineReader LineReader::FromFd(int fd, size_t buffer_bytes) {
  return LineReader(
      [fd](char* buf, size_t n) -> size_t {
        for (;;) {
          ssize_t got = ::read(fd, buf, n);
          if (got >= 0) return static_cast<size_t>(got);
          if (errno != EINTR) return kReadFailed;
        }
      },
      buffer_bytes);
}

LineReader LineReader::FromText(std::string_view text, size_t buffer_bytes) {
  size_t pos = 0;
  return LineReader(
      [text, pos](char* buf, size_t n) mutable -> size_t {
        size_t take = std::min(n, text.size() - pos);
        std::memcpy(buf, text.data() + pos, take);
        pos += take;
        return take;
      },
      buffer_bytes);
}

bool LineReader::Fill() {
  if (eof_) return false;
  if (begin_ > 0) {
    std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    if (newline_known_) newline_ -= begin_;
    begin_ = 0;
  }
  if (end_ == buf_.size()) return false;
  size_t got = read_(buf_.data() + end_, buf_.size() - end_);
  if (got == kReadFailed) throw LogReadError(errno, bytes_read_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  if (hasher_ != nullptr) hasher_->Update(buf_.data() + end_, got);
  bytes_read_ += static_cast<int64_t>(got);
  end_ += got;
  return true;
}

bool LineReader::SkipRestOfLine() {
  for (;;) {
    const char* nl =
        static_cast<const char*>(std::memchr(buf_.data() + begin_, '\n', end_ - begin_));
    if (nl != nullptr) {
      begin_ = static_cast<size_t>(nl - buf_.data()) + 1;
      skipping_ = false;
      newline_known_ = false;
      return true;
    }
    begin_ = end_ = 0;
    if (!Fill()) return false;
  }
}

bool LineReader::Next(std::string_view* line) {
  last_truncated_ = last_unterminated_ = false;
  if (skipping_ && !SkipRestOfLine()) return false;
  for (;;) {
    if (!newline_known_) {
      const char* nl =
          static_cast<const char*>(std::memchr(buf_.data() + begin_, '\n', end_ - begin_));
      if (nl != nullptr) {
        newline_ = static_cast<size_t>(nl - buf_.data());
        newline_known_ = true;
      }
    }
    if (newline_known_) break;
    size_t pending = end_ - begin_;
    if (pending == buf_.size()) {  // a line longer than the buffer: cut it
      *line = std::string_view(buf_.data(), pending);
      const char* cr = static_cast<const char*>(std::memchr(line->data(), '\r', line->size()));
      if (cr != nullptr) *line = line->substr(0, static_cast<size_t>(cr - line->data()));
      last_truncated_ = true;
      skipping_ = true;
      begin_ = end_;
      ++line_number_;
      return true;
    }
    if (!Fill()) {
      if (end_ == begin_) return false;
      // The input ends without a line break.
      newline_ = end_;
      newline_known_ = true;
      newline_is_eof_ = true;
      break;
    }
  }
  const char* start = buf_.data() + begin_;
  size_t len = newline_ - begin_;
  const char* cr = static_cast<const char*>(std::memchr(start, '\r', len));
  ++line_number_;
  size_t skip = newline_is_eof_ ? 0 : 1;
  if (cr == nullptr) {
    *line = std::string_view(start, len);
    last_unterminated_ = newline_is_eof_;
    begin_ = newline_ + skip;
    newline_known_ = newline_is_eof_ = false;
    return true;
  }
  size_t cut = static_cast<size_t>(cr - start);
  *line = std::string_view(start, cut);
  if (cut + 1 == len) {  // CRLF
    begin_ = newline_ + skip;
    newline_known_ = newline_is_eof_ = false;
  } else {
    begin_ += cut + 1;  // a progress-bar redraw; the same '\n' is still ahead
  }
  return true;
}

}  // namespace kvplan
