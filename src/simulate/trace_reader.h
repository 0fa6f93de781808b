// A request trace, streamed: CSV with a header naming arrival_ms,
// input_tokens and output_tokens (other columns, e.g. req, are ignored), or
// JSONL with one object per line holding those keys. Arrivals must not go
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
  explicit TraceReader(const std::string& path);
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
  [[noreturn]] void Fail(const std::string& what) const;

  std::string path_;  // escaped for messages
  std::unique_ptr<InputFile> file_;
  std::string buffer_;
  size_t pos_ = 0;
  bool eof_ = false;
  int64_t line_no_ = 0;
  bool json_ = false, started_ = false;
  int arrival_col_ = -1, input_col_ = -1, output_col_ = -1;
  double last_arrival_ms_ = 0;
};

}  // namespace kvplan
