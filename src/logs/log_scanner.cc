#include "logs/log_scanner.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/core.h>

#include "base/input_file.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"
#include "logs/common_lines.h"
#include "logs/content_hash.h"
#include "logs/decode_handler.h"
#include "logs/log_line.h"
#include "logs/provenance.h"
#include "logs/run_builder.h"
#include "logs/sglang_lines.h"
#include "logs/vllm_lines.h"

namespace kvplan {
namespace {

void ScanOneLine(std::string_view raw, int64_t number, RunBuilder& b, std::string* scratch) {
  std::string_view clean = StripAnsi(raw, scratch);
  while (!clean.empty() && (clean.back() == ' ' || clean.back() == '\t')) clean.remove_suffix(1);
  if (clean.empty()) return;
  LogLine line = SplitLogLine(clean);
  b.BeginLine(line, number);
  // Inside a traceback every line belongs to it, up to the exception line.
  if (b.in_traceback()) {
    if (!IsExceptionLine(line.message)) {
      HandleCommonLine(line.message, clean, b);
      return;
    }
    b.EndTraceback();
  }
  if (HandleSglangLine(line.message, b)) return;
  if (HandleVllmLine(line.message, b)) return;
  if (HandleDecodeLine(line.message, b)) return;
  HandleCommonLine(line.message, clean, b);
}

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

}  // namespace

ScanResult ScanLog(LineReader& reader, const ScanOptions& options) {
  ContentHasher hasher;
  reader.set_hasher(&hasher);
  RunBuilder builder;
  ScanResult result;
  std::string scratch;
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
    ScanOneLine(raw, reader.line_number(), builder, &scratch);
    if (options.progress && reader.bytes_read() >= next_progress) {
      options.progress(reader.bytes_read());
      next_progress = reader.bytes_read() + options.progress_every;
    }
  }
  result.runs = builder.Finish(ended_mid_line, saw_cut_line);
  for (RunRecord& r : result.runs) AssignProvenance(&r);
  result.content_hash = hasher.HexDigest();
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
  static const InputKind kLog{"log", "a readable SGLang or vLLM log", 0};
  InputFile file(path, kLog);
#ifdef POSIX_FADV_SEQUENTIAL
  ::posix_fadvise(file.fd(), 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
  LineReader reader = LineReader::FromFd(file.fd(), options.buffer_bytes);
  return ScanLog(reader, options);
}

std::vector<RunRecord> ReadRunsOrThrow(const std::string& path, const ScanResult& scanned) {
  if (!scanned.runs.empty()) return scanned.runs;
  const std::string name = EscapeForError(path);
  if (scanned.bytes == 0) throw InputError(fmt::format("log {} is empty", name));
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
      "log {} holds no SGLang or vLLM start-up line (server_args=, Load weight, KV Cache, "
      "Available KV cache memory, ...); expected an engine's start-up log",
      name));
}

}  // namespace kvplan
