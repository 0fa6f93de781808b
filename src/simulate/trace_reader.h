// A request trace, streamed: CSV with a header naming arrival_ms,
// input_tokens and output_tokens (other columns, e.g. req, are ignored), or
// JSONL with one object per line holding those keys. Optional prefix_group (a
// whole number; empty or null: none) and prefix_len (the group's tokens at the
// start of input_tokens; else --prefix-len) say which requests share a prefix.
// Arrivals must not go
// backwards and lie from 0 to 1e12 ms. Every error is one InputError line naming the file and line.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "simulate/workload.h"

namespace kvplan {

class InputFile;

class TraceReader {
 public:
  // `prefix_len`: a group's prefix where the row gives none (--prefix-len).
  TraceReader(const std::string& path, std::optional<int64_t> prefix_len);
  ~TraceReader();
  TraceReader(const TraceReader&) = delete;
  TraceReader& operator=(const TraceReader&) = delete;

  std::optional<ArrivingRequest> Next();

 private:
  bool ReadLine(std::string* line);
  void ParseHeader(const std::string& line);
  ArrivingRequest ParseCsv(const std::string& line) const;
  ArrivingRequest ParseJson(const std::string& line) const;
  // `ms` when it is an arrival the simulation can hold (0 to kMaxArrivalMs).
  double CheckedArrivalMs(double ms) const;
  // Fills r's group and prefix from the row's values (NaN: not given).
  void SetPrefix(double group, double len, ArrivingRequest* r) const;
  [[noreturn]] void Fail(const std::string& what) const;

  std::string path_;  // escaped for messages
  std::unique_ptr<InputFile> file_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
  int64_t line_no_ = 0;
  bool json_ = false, started_ = false;
  int arrival_col_ = -1, input_col_ = -1, output_col_ = -1;
  int group_col_ = -1, prefix_len_col_ = -1;
  std::optional<int64_t> default_prefix_len_;
  double last_arrival_ms_ = 0;
};

}  // namespace kvplan
