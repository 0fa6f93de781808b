#include "logs/line_prefix.h"

#include <algorithm>
#include <array>

#include "base/text.h"
#include "logs/common_lines.h"
#include "logs/log_line.h"

namespace kvplan {
namespace {

constexpr size_t kMaxPrefixBytes = 160;  // journald with a long host name is ~70
constexpr size_t kMaxPrefixWords = 10;
constexpr size_t kMaxShapes = 16;  // sources in one file: compose services, pods

bool IsWord(char c) {
  return IsAsciiDigit(c) || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool IsBlank(char c) { return c == ' ' || c == '\t'; }

// The bytes an engine line can start with; everything else is skipped cheaply.
constexpr std::array<bool, 256> FirstBytes() {
  std::array<bool, 256> t{};
  t['['] = t['('] = true;
  for (unsigned char c = 'A'; c <= 'Z'; ++c) t[c] = true;  // levels, exception names
  return t;
}
constexpr std::array<bool, 256> kFirst = FirstBytes();

// What may end a prefix: a blank, a column bar, a colon, a bracket, a quote
// marker, or the last byte of a UTF-8 character (the "▎" of a pasted quote).
bool EndsPrefix(unsigned char c) {
  return c == ' ' || c == '\t' || c == '|' || c == ':' || c == ']' || c == '>' || c >= 0x80;
}

// "INFO 08-18 10:02:03 [...]" (vLLM), "INFO ... [...]" (its time elided by the one who pasted
// it) and "INFO:     Started server" (uvicorn).
bool StartsWithLevel(std::string_view s) {
  static constexpr std::string_view kLevels[] = {"INFO", "WARNING", "ERROR", "DEBUG", "CRITICAL"};
  for (std::string_view level : kLevels) {
    if (s.substr(0, level.size()) != level) continue;
    std::string_view rest = s.substr(level.size());
    if (rest.size() >= 4 && rest[0] == ' ' && IsAsciiDigit(rest[1]) && IsAsciiDigit(rest[2]) &&
        rest[3] == '-') {
      return true;
    }
    if (rest.substr(0, 1) == " " && rest.substr(1).starts_with(kElidedVllmTime)) return true;
    return rest.size() >= 2 && rest[0] == ':' && rest[1] == ' ';
  }
  return false;
}

// "(EngineCore_DP0 pid=6880) ", "(VllmWorker rank=3 pid=12) ", "(RayWorkerWrapper pid=1) ".
bool StartsWithProcessTag(std::string_view s) {
  std::string_view head = s.substr(0, 96);
  size_t close = head.find(')');
  return close != std::string_view::npos && close > 1 && IsWord(s[1]) &&
         head.substr(0, close).find(" pid=") != std::string_view::npos;
}

// "[2025-08-18 10:02:03 TP0] " (SGLang) and a bare rank tag "[TP0] ".
bool StartsWithBracketTag(std::string_view s) {
  if (s.size() < 4) return false;
  if (IsAsciiDigit(s[1]))
    return s.size() > 5 && IsAsciiDigit(s[2]) && IsAsciiDigit(s[4]) && s[5] == '-';
  std::string_view tag = s.substr(1, 2);
  return (tag == "TP" || tag == "DP" || tag == "PP" || tag == "EP") && IsAsciiDigit(s[3]);
}

// The shape of a prefix: a run of word bytes is 'w', a run of blanks is ' ',
// any other byte stands for itself. Host names, pids and times of one source
// share a shape.
std::string ShapeOf(std::string_view prefix) {
  std::string shape;
  for (size_t i = 0; i < prefix.size();) {
    char c = prefix[i];
    if (IsWord(c) || IsBlank(c)) {
      bool word = IsWord(c);
      while (i < prefix.size() && (word ? IsWord(prefix[i]) : IsBlank(prefix[i]))) ++i;
      shape.push_back(word ? 'w' : ' ');
      continue;
    }
    shape.push_back(c);
    ++i;
  }
  return shape;
}

// How many bytes of `line` a prefix of `shape` covers; 0 when it does not fit.
// The shape's last blank takes one byte, so a message's own indentation stays.
size_t MatchShape(std::string_view line, std::string_view shape) {
  size_t i = 0;
  for (size_t k = 0; k < shape.size(); ++k) {
    char want = shape[k];
    if (i >= line.size()) return 0;
    if (want == 'w' || want == ' ') {
      bool word = want == 'w';
      if (word ? !IsWord(line[i]) : !IsBlank(line[i])) return 0;
      if (!word && k + 1 == shape.size()) return i + 1;
      while (i < line.size() && (word ? IsWord(line[i]) : IsBlank(line[i]))) ++i;
      continue;
    }
    if (line[i] != want) return 0;
    ++i;
  }
  return i;
}

// Only a prefix with a mark of its own (a digit run, a bar, a colon, a quote)
// is remembered: a bare "word " would match half the lines of any log.
bool Memorable(std::string_view prefix) {
  size_t words = 0;
  bool marked = false;
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (!IsWord(prefix[i]) && !IsBlank(prefix[i])) marked = true;
    if (IsBlank(prefix[i]) && i > 0 && !IsBlank(prefix[i - 1])) ++words;
  }
  return marked && words <= kMaxPrefixWords;
}

}  // namespace

bool StartsWithEngineLine(std::string_view s) {
  if (s.empty() || !kFirst[static_cast<unsigned char>(s[0])]) return false;
  if (s[0] == '[') return StartsWithBracketTag(s);
  if (s[0] == '(') return StartsWithProcessTag(s);
  // "ValueError: ..." on its own, as a compose or journald line carries it, and the traceback
  // before it ("[rank0]: Traceback (most recent call last):", torch's per-rank prefix).
  return StartsWithLevel(s) || IsExceptionLine(s) ||
         (s[0] == 'T' && s.substr(0, 34) == "Traceback (most recent call last):");
}

namespace {

// Whether a vLLM record ("INFO 06-09 05:30:58 [...") starts at `at` of `line`, after a blank.
bool VllmRecordAt(std::string_view line, size_t at) {
  static constexpr std::string_view kLevels[] = {"INFO ", "WARNING ", "ERROR ", "DEBUG "};
  if (at > 0 && line[at - 1] != ' ') return false;
  for (std::string_view level : kLevels) {
    if (line.substr(at, level.size()) != level) continue;
    std::string_view t = line.substr(at + level.size());  // "06-09 05:30:58 ["
    return t.size() >= 9 && IsAsciiDigit(t[0]) && IsAsciiDigit(t[1]) && t[2] == '-' &&
           IsAsciiDigit(t[3]) && IsAsciiDigit(t[4]) && t[5] == ' ' && IsAsciiDigit(t[6]) &&
           IsAsciiDigit(t[7]) && t[8] == ':';
  }
  return false;
}

}  // namespace

size_t NextJoinedVllmRecord(std::string_view line) {
  // The line's own record first (after its process tag, if any), then the one after it.
  bool first_seen = false;
  for (size_t at = 0; at + 14 < line.size(); ++at) {
    char c = line[at];
    if ((c != 'I' && c != 'W' && c != 'E' && c != 'D') || !VllmRecordAt(line, at)) continue;
    if (first_seen) return at;
    first_seen = true;
  }
  return std::string_view::npos;
}

std::string_view LinePrefixes::Strip(std::string_view line) {
  if (line.empty() || StartsWithEngineLine(line)) return line;
  size_t end = std::min(line.size(), kMaxPrefixBytes);
  for (size_t i = 1; i < end; ++i) {
    if (!kFirst[static_cast<unsigned char>(line[i])]) continue;
    if (!EndsPrefix(static_cast<unsigned char>(line[i - 1]))) continue;
    if (!StartsWithEngineLine(line.substr(i))) continue;
    Learn(line.substr(0, i));
    return line.substr(i);
  }
  return StripKnownShape(line);
}

std::string_view LinePrefixes::StripKnownShape(std::string_view line) const {
  for (const std::string& shape : shapes_) {
    if (size_t n = MatchShape(line, shape); n > 0) return line.substr(n);
  }
  return line;
}

void LinePrefixes::Learn(std::string_view prefix) {
  for (const std::string& s : shapes_) {
    if (MatchShape(prefix, s) == prefix.size()) return;  // the common case: no allocation
  }
  if (shapes_.size() >= kMaxShapes || !Memorable(prefix)) return;
  std::string shape = ShapeOf(prefix);
  for (const std::string& s : shapes_) {
    if (s == shape) return;
  }
  shapes_.push_back(std::move(shape));
}

}  // namespace kvplan
