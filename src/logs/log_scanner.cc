#include "logs/log_scanner.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/core.h>

#include "base/input_file.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"
#include "logs/common_lines.h"
#include "logs/content_hash.h"
#include "logs/decode_handler.h"
#include "logs/line_joiner.h"
#include "logs/line_prefix.h"
#include "logs/log_line.h"
#include "logs/provenance.h"
#include "logs/run_builder.h"
#include "logs/sglang_lines.h"
#include "logs/trtllm_lines.h"
#include "logs/vllm_lines.h"

namespace kvplan {
namespace {

void ScanOneLine(const LineJoiner::Line& joined, RunBuilder& b) {
  const LogLine& line = joined.split;
  b.BeginLine(line, joined.number);
  // Inside a traceback every line belongs to it, up to the exception line.
  if (b.in_traceback()) {
    if (!IsExceptionLine(line.message)) {
      HandleCommonLine(line.message, joined.text, b);
      return;
    }
    b.EndTraceback();
  }
  if (HandleSglangLine(line.message, b)) return;
  if (HandleVllmLine(line.message, b)) return;
  if (HandleTrtllmLine(line.message, b)) return;
  if (HandleDecodeLine(line.message, b)) return;
  HandleCommonLine(line.message, joined.text, b);
}

// One physical line: colours off, the collector's prefix off, then re-joined
// with the pieces a terminal wrapped it into. The lines before the first one
// that teaches a prefix (an nvidia-smi table, the launch command) wait in a
// bounded buffer until one does, so they lose the same prefix.
class LineCleaner {
 public:
  explicit LineCleaner(RunBuilder& b) : b_(b) {}
  void Feed(std::string_view raw, int64_t number) {
    std::string_view clean = StripAnsi(raw, &scratch_);
    if (!head_done_) {
      prefixes_.Strip(clean);  // learning only
      head_bytes_ += clean.size();
      head_.push_back({std::string(clean), number});
      if (prefixes_.learned() || head_.size() >= kHeadLines || head_bytes_ >= kHeadBytes) {
        ReplayHead();
      }
      return;
    }
    Clean(clean, number);
  }
  void Finish() {
    ReplayHead();
    LineJoiner::Line out[1];
    if (joiner_.Finish(out) == 1) ScanOneLine(out[0], b_);
  }

 private:
  static constexpr size_t kHeadLines = 400, kHeadBytes = size_t{1} << 20;

  void ReplayHead() {
    head_done_ = true;
    for (const auto& [text, number] : head_) Clean(text, number);
    head_.clear();
    head_.shrink_to_fit();
  }
  void Clean(std::string_view clean, int64_t number) {
    LineJoiner::Physical p{{}, clean.size(), false, number};
    while (!clean.empty() && (clean.back() == ' ' || clean.back() == '\t')) {
      clean.remove_suffix(1);
      p.trailing_blank = true;
    }
    std::string_view rest = prefixes_.Strip(clean);
    // A long line may be several records whose line breaks a paste lost; a short one is one.
    while (true) {
      size_t next = rest.size() > kJoinedRecordsMinBytes ? NextJoinedVllmRecord(rest)
                                                         : std::string_view::npos;
      p.text = rest.substr(0, next);
      while (next != std::string_view::npos && !p.text.empty() && p.text.back() == ' ') {
        p.text.remove_suffix(1);
      }
      LineJoiner::Line out[2];
      int n = joiner_.Push(p, out);
      for (int i = 0; i < n; ++i) ScanOneLine(out[i], b_);
      if (next == std::string_view::npos) break;
      rest = rest.substr(next);
    }
  }
  // Two vLLM records ("INFO 06-09 05:30:55 [x.py:1] " is 38 bytes, with their messages) are
  // longer than this; one wrapped line's pieces are not split.
  static constexpr size_t kJoinedRecordsMinBytes = 120;

  RunBuilder& b_;
  std::string scratch_;
  LinePrefixes prefixes_;
  LineJoiner joiner_;
  std::vector<std::pair<std::string, int64_t>> head_;
  size_t head_bytes_ = 0;
  bool head_done_ = false;
};

// C0 control bytes other than tab, backspace and ESC (ANSI colours) appear in
// no engine's log; random binary data has them on nearly every line.
bool HoldsControlBytes(std::string_view line) {
  for (char ch : line) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\b' && c != 0x1b) || c == 0x7f) return true;
  }
  return false;
}

// A log must end: after this many bytes with no engine line and mostly binary
// lines, the input is binary junk, not a log, and reading stops.
constexpr int64_t kBinaryProbeBytes = int64_t{1} << 20;

// Decided once, when the first kBinaryProbeBytes are in: binary junk later in
// a real log (a crash dump) does not stop the reading.
bool LooksBinary(const LineReader& reader, int64_t junk_lines) {
  return junk_lines * 2 > reader.line_number();
}

// A run read from engine lines, not only from a launch command or a traceback
// (a README or a shell transcript that merely mentions the engines).
bool HoldsStartUpLines(const RunRecord& r) {
  return !r.engine.empty() || !r.settings.empty() || !r.timeline.empty() || !r.figures.empty();
}

// Whether the window for the first sign of a launch has passed with none: checked
// only while nothing has been read, so a log with a launch is read to its end.
bool NoLaunchWithin(const ScanOptions& o, const LineReader& reader, const RunBuilder& b) {
  return o.first_launch_within > 0 && reader.bytes_read() >= o.first_launch_within &&
         b.NothingRead();
}

}  // namespace

ScanResult ScanLog(LineReader& reader, const ScanOptions& options) {
  ContentHasher hasher;
  if (options.hash_content) reader.set_hasher(&hasher);
  RunBuilder builder;
  LineCleaner cleaner(builder);
  ScanResult result;
  std::string_view raw;
  bool ended_mid_line = false, saw_cut_line = false;
  int64_t next_progress = options.progress_every;
  int64_t control_lines = 0;  // in the probe: lines with control bytes but no NUL
  bool probed = false;        // the first kBinaryProbeBytes have been judged
  int64_t consumed = 0;       // bytes of the lines read so far, in the probe
  while (reader.Next(&raw)) {
    if (reader.last_truncated()) saw_cut_line = true;
    ended_mid_line = reader.last_unterminated();
    const bool nul = !raw.empty() && std::memchr(raw.data(), '\0', raw.size()) != nullptr;
    result.binary_lines += nul;
    if (!probed) {
      control_lines += !nul && HoldsControlBytes(raw);
      consumed += static_cast<int64_t>(raw.size()) + 1;
      if (consumed >= kBinaryProbeBytes) {
        probed = true;
        result.stopped_as_binary = LooksBinary(reader, result.binary_lines + control_lines);
        if (result.stopped_as_binary) break;
      }
    }
    if (nul) continue;  // binary junk: no engine writes NUL bytes
    cleaner.Feed(raw, reader.line_number());
    if (NoLaunchWithin(options, reader, builder)) {
      result.stopped_without_launch = options.first_launch_within;
      break;
    }
    if (builder.closed_runs() >= options.max_runs) {  // launch max_runs + 1 began
      result.stopped_at_max_runs = options.max_runs;
      break;
    }
    if (options.progress && reader.bytes_read() >= next_progress) {
      options.progress(reader.bytes_read());
      next_progress = reader.bytes_read() + options.progress_every;
    }
  }
  cleaner.Finish();
  result.runs = builder.Finish(ended_mid_line, saw_cut_line);
  for (RunRecord& r : result.runs) AssignProvenance(&r);
  if (options.hash_content) result.content_hash = hasher.HexDigest();
  reader.set_hasher(nullptr);
  result.bytes = reader.bytes_read();
  result.lines = reader.line_number();
  if (options.progress) options.progress(result.bytes);
  return result;
}

ScanResult ScanLogText(std::string_view text, const ScanOptions& options) {
  LineReader reader = LineReader::FromText(text, options.buffer_bytes);
  return ScanLog(reader, options);
}

ScanResult ScanLogFile(const std::string& path, const ScanOptions& options) {
  // A regular file only: a FIFO would wait forever, /dev/zero never ends.
  static const InputKind kLog{"log", "a readable SGLang, vLLM or TensorRT-LLM log", 0};
  InputFile file(path, kLog);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(file.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  LineReader reader = LineReader::FromFd(file.fd(), options.buffer_bytes);
  return ScanLog(reader, options);
}

std::vector<RunRecord> ReadRunsOrThrow(const std::string& path, const ScanResult& scanned) {
  if (scanned.stopped_at_max_runs > 0) {
    throw InputError(fmt::format(
        "log {} holds more than {} launches; kvplan reads at most {} from one log (split it at "
        "the launch lines)",
        EscapeForError(path), scanned.stopped_at_max_runs, scanned.stopped_at_max_runs));
  }
  for (const RunRecord& r : scanned.runs) {
    if (HoldsStartUpLines(r)) return scanned.runs;
  }
  const std::string name = EscapeForError(path);
  if (scanned.bytes == 0) throw InputError(fmt::format("log {} is empty", name));
  if (scanned.stopped_without_launch > 0) {
    throw InputError(fmt::format(
        "log {}: its first {} hold no SGLang, vLLM or TensorRT-LLM line, launch command or "
        "traceback, so it was not read further; expected an engine's log (one whose start-up "
        "comes later: cut the log there, e.g. with tail -n +LINE)",
        name, DescribeBytes(scanned.stopped_without_launch)));
  }
  if (scanned.stopped_as_binary) {
    throw InputError(fmt::format(
        "log {}: the first {} are binary data (most lines hold NUL or control bytes); expected "
        "a text log",
        name, DescribeBytes(kBinaryProbeBytes)));
  }
  if (scanned.binary_lines * 2 > scanned.lines) {
    throw InputError(fmt::format(
        "log {} looks like binary data ({} of {} lines hold NUL bytes); expected a text log", name,
        scanned.binary_lines, scanned.lines));
  }
  throw InputError(fmt::format(
      "log {} holds no SGLang, vLLM or TensorRT-LLM start-up line (server_args=, Load weight, "
      "KV Cache, Available KV cache memory, [MemUsageChange], ...); expected an engine's "
      "start-up log",
      name));
}

}  // namespace kvplan
