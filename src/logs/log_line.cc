#include "logs/log_line.h"

#include <cstring>

#include "base/text.h"
#include "logs/text_scan.h"

namespace kvplan {
namespace {

// "2025-07-05T10:11:12.123456789Z " as docker/kubectl --timestamps write it, and
// "[2025-08-12T08:42:32Z] " as a CI runner (Buildkite) writes it.
std::string_view SkipContainerTimestamp(std::string_view s) {
  bool bracket = !s.empty() && s[0] == '[';
  std::string_view t = bracket ? s.substr(1) : s;
  if (t.size() < 20 || !IsAsciiDigit(t[0]) || t[4] != '-' || t[10] != 'T') return s;
  size_t sp = s.find(bracket ? "] " : " ");
  if (sp == std::string_view::npos || sp > 40) return s;
  return s.substr(sp + (bracket ? 2 : 1));
}

// "`ValueError: ...`": a line quoted as inline code in an issue's prose.
std::string_view SkipInlineCodeMark(std::string_view s) {
  return s.size() > 1 && s[0] == '`' && s[1] != '`' ? s.substr(1) : s;
}

// TensorRT-LLM's C++ logger: "[TensorRT-LLM][INFO] msg".
bool TakeTrtllmPrefix(std::string_view s, LogLine* out) {
  static constexpr std::string_view kTag = "[TensorRT-LLM]";
  if (!StartsWith(s, kTag)) return false;
  std::string_view rest = s.substr(kTag.size());
  size_t close = rest.find(']');
  if (rest.empty() || rest[0] != '[' || close == std::string_view::npos || close > 12) return false;
  out->level = rest.substr(1, close - 1);
  rest = rest.substr(close + 1);
  out->message = StartsWith(rest, " ") ? rest.substr(1) : rest;
  return true;
}

// TensorRT-LLM's Python logger (tensorrt_llm/logger.py, 1.x): "[TRT-LLM] [I] msg", after
// trtllm-serve's "[07/08/2025-19:47:15] " and with the rank once set: "[TRT-LLM] [RANK 1] [E] ".
bool TakeTrtllmPythonPrefix(std::string_view s, LogLine* out) {
  std::string_view time;
  if (s.size() > 21 && s[0] == '[' && IsAsciiDigit(s[1]) && s[3] == '/' && s[20] == ']') {
    time = s.substr(1, 19);  // "MM/DD/YYYY-HH:MM:SS"
    s = s.substr(s[21] == ' ' ? 22 : 21);
  }
  static constexpr std::string_view kTag = "[TRT-LLM] ";
  if (!StartsWith(s, kTag)) return false;
  s = s.substr(kTag.size());
  if (StartsWith(s, "[RANK ")) {
    size_t close = s.find("] ");
    if (close == std::string_view::npos) return false;
    s = s.substr(close + 2);
  }
  if (s.size() < 4 || s[0] != '[' || s[2] != ']' || s[3] != ' ') return false;
  out->time = time;
  out->level = s.substr(1, 1);
  out->message = s.substr(4);
  return true;
}

// "(EngineCore_DP0 pid=6880) " / "(VllmWorker TP0 pid=12) " -> "EngineCore_DP0" / "VllmWorker TP0".
std::string_view TakeProcessTag(std::string_view* s) {
  if (s->empty() || (*s)[0] != '(') return {};
  size_t close = s->find(") ");
  if (close == std::string_view::npos || close > 96) return {};
  std::string_view inside = s->substr(1, close - 1);
  size_t pid = inside.find(" pid=");
  if (pid == std::string_view::npos) return {};
  *s = s->substr(close + 2);
  return inside.substr(0, pid);
}

// vLLM: "INFO 10-31 15:07:49 [gpu_worker.py:298] msg" or "INFO 01-16 09:40:00 worker.py:238] msg",
// and a pasted excerpt whose author elided the time: "INFO ... [gpu_worker.py:489] msg".
bool TakeVllmPrefix(std::string_view s, LogLine* out) {
  static constexpr std::string_view kLevels[] = {"INFO ", "WARNING ", "ERROR ", "DEBUG ",
                                                 "CRITICAL "};
  for (std::string_view level : kLevels) {
    if (!StartsWith(s, level)) continue;
    std::string_view rest = s.substr(level.size());
    bool elided = StartsWith(rest, kElidedVllmTime);
    if (!elided && (rest.size() < 15 || !IsAsciiDigit(rest[0]) || rest[2] != '-')) return false;
    size_t close = rest.find("] ");
    if (close == std::string_view::npos || close > 96) return false;
    size_t time_end = rest.find(' ', 6);  // after "MM-DD HH:MM:SS"
    out->level = level.substr(0, level.size() - 1);
    if (!elided) out->time = rest.substr(0, time_end);
    out->message = rest.substr(close + 2);
    return true;
  }
  return false;
}

// vLLM's source tag alone, the level and time cut off by the one who pasted the line:
// "[kv_cache_utils.py:868] Maximum concurrency for 100,000 tokens per request: 2.31x".
bool TakeVllmSourceTag(std::string_view s, LogLine* out) {
  size_t close = s.find("] ");
  if (s.empty() || s[0] != '[' || close == std::string_view::npos || close > 64) return false;
  std::string_view tag = s.substr(1, close - 1);
  size_t colon = tag.rfind(".py:");
  if (colon == std::string_view::npos || colon + 4 >= tag.size()) return false;
  for (char c : tag.substr(colon + 4)) {
    if (!IsAsciiDigit(c)) return false;
  }
  out->message = s.substr(close + 2);
  return true;
}

// SGLang: "[2025-07-05 10:11:12(.123)?( DPn)?( PPn)?( TPn)?( EPn)?] msg".
bool TakeSglangPrefix(std::string_view s, LogLine* out) {
  if (s.size() < 22 || s[0] != '[' || !IsAsciiDigit(s[1]) || s[5] != '-') return false;
  size_t close = s.find("] ");
  size_t bare_close = s.find(']');
  if (close == std::string_view::npos) {
    if (bare_close + 1 != s.size()) return false;  // "[...]" alone on a line
    close = bare_close;
  }
  if (close > 80) return false;
  std::string_view inside = s.substr(1, close - 1);
  size_t date_end = inside.find(' ');
  if (date_end == std::string_view::npos) return false;
  size_t time_end = inside.find(' ', date_end + 1);
  out->time = inside.substr(0, time_end);
  out->rank = time_end == std::string_view::npos ? std::string_view{} : inside.substr(time_end + 1);
  out->message = close + 2 <= s.size() ? s.substr(close + 2) : std::string_view{};
  return true;
}

}  // namespace

LogLine SplitLogLine(std::string_view line) {
  LogLine out;
  std::string_view s = SkipContainerTimestamp(SkipInlineCodeMark(line));
  // Ray nests its workers' tags in the engine core's: "(EngineCore_DP0 pid=1)
  // (RayWorkerWrapper pid=2) INFO ..."; the innermost names the process.
  std::string_view tag = TakeProcessTag(&s);
  for (std::string_view inner = TakeProcessTag(&s); !inner.empty(); inner = TakeProcessTag(&s)) {
    tag = inner;
  }
  out.message = s;
  if (!TakeVllmPrefix(s, &out) && !TakeTrtllmPrefix(s, &out) && !TakeTrtllmPythonPrefix(s, &out)) {
    if (!TakeSglangPrefix(s, &out)) TakeVllmSourceTag(s, &out);
  }
  if (!tag.empty()) out.rank = tag;
  return out;
}

std::string_view StripAnsi(std::string_view line, std::string* scratch) {
  if (std::memchr(line.data(), '\x1b', line.size()) == nullptr) return line;
  scratch->clear();
  for (size_t i = 0; i < line.size(); ++i) {
    if (line[i] != '\x1b') {
      scratch->push_back(line[i]);
      continue;
    }
    // CSI: ESC '[' parameters... final byte in 0x40-0x7e.
    if (i + 1 < line.size() && line[i + 1] == '[') {
      size_t j = i + 2;
      while (j < line.size() && !(line[j] >= 0x40 && line[j] <= 0x7e)) ++j;
      i = j;
    } else {
      ++i;  // two-byte escape
    }
  }
  return *scratch;
}

}  // namespace kvplan
