#include "logs/line_joiner.h"

#include "logs/common_lines.h"
#include "logs/line_prefix.h"
#include "logs/text_scan.h"

namespace kvplan {
namespace {

constexpr size_t kMaxJoinedBytes = size_t{256} << 10;  // memory stays flat on garbage
constexpr int kMaxPieces = 64;
constexpr size_t kMinWrapWidth = 60;  // a shorter line was not wrapped by a terminal

// Brackets opened minus closed, outside Python string literals.
int BracketDepth(std::string_view s, int depth) {
  char quote = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if (c == ')' || c == ']' || c == '}')
      --depth;
  }
  return depth;
}

bool StartsStructure(std::string_view s) {
  return StartsWith(s, "Traceback (") || StartsWith(s, "During handling of") ||
         StartsWith(s, "The above exception") || IsExceptionLine(s);
}

}  // namespace

LineJoiner::Open LineJoiner::Opens(const LogLine& line, size_t width, int* depth) {
  std::string_view m = line.message;
  if (m.empty()) return Open::kNone;
  if ((m[0] == 's' && StartsWith(m, "server_args=ServerArgs(")) ||
      (m[0] == 'n' && StartsWith(m, "non-default args: {")) ||
      (m[0] == 'a' && StartsWith(m, "args: Namespace("))) {
    *depth = BracketDepth(m, 0);
    return *depth > 0 ? Open::kBrackets : Open::kNone;
  }
  if (width < kMinWrapWidth) return Open::kNone;
  if (IsExceptionLine(m) || StartsWith(m, "To serve at least one request")) return Open::kMessage;
  return Open::kNone;
}

bool LineJoiner::Continues(const Physical& p) const {
  if (p.text.empty() || pieces_ >= kMaxPieces || pending_.size() >= kMaxJoinedBytes) return false;
  if (StartsWithEngineLine(p.text) || StartsStructure(p.text)) return false;
  if (open_ == Open::kBrackets) return true;
  // A wrapped message goes on only while each piece filled the terminal's width.
  return p.text[0] != ' ' && p.text[0] != '\t' && last_width_ >= first_width_ &&
         !last_trailing_blank_;
}

void LineJoiner::Append(const Physical& p) {
  bool word_break = last_trailing_blank_ || last_width_ < first_width_;
  if (word_break && p.text[0] != ' ') pending_.push_back(' ');
  pending_.append(p.text.substr(0, kMaxJoinedBytes));
  last_width_ = p.width;
  last_trailing_blank_ = p.trailing_blank;
  ++pieces_;
  if (open_ == Open::kBrackets) depth_ = BracketDepth(p.text, depth_);
}

int LineJoiner::Flush(Line* out) {
  done_.swap(pending_);
  pending_.clear();
  open_ = Open::kNone;
  *out = {done_, SplitLogLine(done_), number_};
  return 1;
}

int LineJoiner::Push(const Physical& p, Line out[2]) {
  int n = 0;
  if (open_ != Open::kNone) {
    if (Continues(p)) {
      Append(p);
      if (open_ == Open::kBrackets && depth_ <= 0) n += Flush(out);
      return n;
    }
    n += Flush(out);
  }
  if (p.text.empty()) return n;  // a blank line ends a wrapped one and is nothing itself
  LogLine split = SplitLogLine(p.text);
  int depth = 0;
  Open open = Opens(split, p.width, &depth);
  if (open == Open::kNone) {
    out[n++] = {p.text, split, p.number};
    return n;
  }
  pending_.assign(p.text);
  open_ = open;
  depth_ = depth;
  first_width_ = last_width_ = p.width;
  last_trailing_blank_ = p.trailing_blank;
  number_ = p.number;
  pieces_ = 1;
  return n;
}

int LineJoiner::Finish(Line out[1]) { return open_ == Open::kNone ? 0 : Flush(out); }

}  // namespace kvplan
