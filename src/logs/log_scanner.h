// Reads a whole start-up log (SGLang, vLLM or TensorRT-LLM, any era) into run records, one
// per launch, streaming it line by line with a fixed buffer: memory does not
// grow with the log, and a gigabyte log scans at disk speed.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/line_reader.h"
#include "logs/run_record.h"

namespace kvplan {

struct ScanOptions {
  // Called every `progress_every` bytes with the bytes read so far.
  std::function<void(int64_t bytes)> progress;
  int64_t progress_every = int64_t{32} << 20;
  size_t buffer_bytes = size_t{1} << 20;  // also the longest line kept whole
  // Launches kept from one log: each holds its settings, figures and decode
  // summary (about 30 KB), so a 2 GB log of 300,000 restarts took 9 GB. Past
  // this many the log is refused (ReadRunsOrThrow), never cut silently.
  size_t max_runs = 1000;
  // The SHA-256 of the bytes read (ScanResult::content_hash), which only the store needs
  // (ingest's identity of a log, diff --last-good's "not this same log"): a third of the
  // scan's time, so the verbs that only read a log leave it off.
  bool hash_content = true;
  // A log whose first this many bytes hold nothing of a launch is refused there
  // (ReadRunsOrThrow) rather than read to its end: a 2 GB text that is no engine's log
  // took 5 s to refuse, and a refusal must come within 2 s (issue 13). 0: read it all.
  int64_t first_launch_within = int64_t{256} << 20;
};

struct ScanResult {
  std::vector<RunRecord> runs;
  std::string content_hash;  // of the bytes read; empty unless ScanOptions::hash_content
  int64_t bytes = 0;
  int64_t lines = 0;
  int64_t binary_lines = 0;        // lines holding NUL bytes
  bool stopped_as_binary = false;  // reading stopped early: binary data, not a log
  size_t stopped_at_max_runs = 0;  // reading stopped early at this many launches (max_runs)
  // Reading stopped early: nothing of a launch in this many bytes (first_launch_within).
  int64_t stopped_without_launch = 0;
};

ScanResult ScanLog(LineReader& reader, const ScanOptions& options = {});
ScanResult ScanLogText(std::string_view text, const ScanOptions& options = {});
// Throws InputError when the file cannot be opened.
ScanResult ScanLogFile(const std::string& path, const ScanOptions& options = {});

// The runs of a log; throws InputError naming the file when it holds no SGLang
// or vLLM start-up line at all.
std::vector<RunRecord> ReadRunsOrThrow(const std::string& path, const ScanResult& scanned);

}  // namespace kvplan
