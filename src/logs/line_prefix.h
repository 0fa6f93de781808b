// What a log collector or a paste puts in front of every engine line, learned
// from the log itself: journald's "Aug 18 10:02:03 host python3[1234]: ",
// docker compose's "svc-1  | ", `docker logs --timestamps`' ISO time, kubectl
// --prefix's "[pod/name/container] ", CI runner timestamps, e-mail and
// markdown quoting ("> ", "▎", "| "). No list of formats: a prefix is whatever
// precedes an engine's own line start ("[2025-...", "INFO 08-18 ...",
// "(EngineCore pid=...)", "[TP0]", "ValueError: "); its shape (words, digits, punctuation) is
// remembered, so the lines of the same source that carry no engine line start
// (tracebacks, exception lines, nvidia-smi tables, a launch command) lose it too.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

// Whether `s` starts the way an engine's logger starts a line.
bool StartsWithEngineLine(std::string_view s);

// Where the next vLLM record starts inside `line` (" INFO 06-09 05:30:58 [...", the records of a
// paste whose line breaks were lost, as GitHub renders a log pasted without a code fence):
// the offset of its level, or npos when `line` holds one record.
size_t NextJoinedVllmRecord(std::string_view line);

class LinePrefixes {
 public:
  // `line` without its collector prefix; `line` itself when it has none.
  std::string_view Strip(std::string_view line);
  // Whether a prefix shape has been learned.
  bool learned() const { return !shapes_.empty(); }

 private:
  std::string_view StripKnownShape(std::string_view line) const;
  void Learn(std::string_view prefix);

  std::vector<std::string> shapes_;  // learned prefix shapes, at most kMaxShapes
};

}  // namespace kvplan
