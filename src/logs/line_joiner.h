// Re-joins an engine line that a terminal or an issue tracker broke over
// several lines: a long server_args=ServerArgs(...) or non-default args {...}
// (open brackets until the last piece), or an exception or memory verdict cut
// at the terminal's width ("(4.26 GiB KV cach" / "e is needed, ..."), whose
// figures would otherwise be lost. A piece as wide as the first line is a hard
// wrap and joins without a blank; a shorter one was broken at a word.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "logs/log_line.h"

namespace kvplan {

class LineJoiner {
 public:
  struct Line {
    std::string_view text;  // the engine line, collector prefix removed
    LogLine split;          // SplitLogLine(text)
    int64_t number = 0;     // its first physical line
  };
  struct Physical {
    std::string_view text;  // without collector prefix and trailing blanks
    size_t width = 0;       // the physical line's width before either was removed
    bool trailing_blank = false;
    int64_t number = 0;
  };

  // Feeds one physical line; writes the lines now complete to `out` (at most
  // two) and returns how many. Views stay valid until the next call.
  int Push(const Physical& p, Line out[2]);
  // The line still held at the end of the log, if any.
  int Finish(Line out[1]);

 private:
  enum class Open { kNone, kBrackets, kMessage };
  static Open Opens(const LogLine& line, size_t width, int* depth);
  bool Continues(const Physical& p) const;
  void Append(const Physical& p);
  int Flush(Line* out);

  std::string pending_, done_;
  Open open_ = Open::kNone;
  int depth_ = 0;  // brackets still open in pending_
  size_t first_width_ = 0, last_width_ = 0;
  bool last_trailing_blank_ = false;
  int64_t number_ = 0;
  int pieces_ = 0;
};

}  // namespace kvplan
