#include "simulate/trace_reader.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/input_file.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// A trace is streamed (no size cap); one line may hold at most this much.
constexpr size_t kMaxLineBytes = 64 * 1024;
constexpr int64_t kReadChunk = 1 << 16;
// The latest arrival a trace may give: 1e12 ms is 31 years, and its value in
// microseconds (1e15) is still a double exact to well under a microsecond, so
// the clock, the latencies and the rates stay finite (1e308 ms overflowed to
// infinity and printed -nan).
constexpr double kMaxArrivalMs = 1e12;
// An optional column or key the row leaves out.
constexpr double kNotGiven = std::numeric_limits<double>::quiet_NaN();

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) {
    s.remove_suffix(1);
  }
  return s;
}

std::vector<std::string_view> SplitCommas(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  for (;;) {
    const size_t comma = line.find(',', start);
    out.push_back(Trim(line.substr(start, comma - start)));
    if (comma == std::string_view::npos) return out;
    start = comma + 1;
  }
}

bool ParseNumber(std::string_view s, double* v) {
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), *v);
  return ec == std::errc() && p == s.data() + s.size() && std::isfinite(*v);
}

}  // namespace

TraceReader::TraceReader(const std::string& path, std::optional<int64_t> prefix_len)
    : path_(QuoteForError(path)),
      file_(
          std::make_unique<InputFile>(path, InputKind{"trace", "a CSV or JSONL request trace", 0})),
      default_prefix_len_(prefix_len) {}

TraceReader::~TraceReader() = default;

void TraceReader::Fail(const std::string& what) const {
  throw InputError(fmt::format("--trace {} line {}: {}", path_, line_no_, what));
}

bool TraceReader::ReadLine(std::string* line) {
  for (;;) {
    const size_t nl = buffer_.find('\n', pos_);
    if (nl != std::string::npos || (eof_ && pos_ < buffer_.size())) {
      const size_t end = nl == std::string::npos ? buffer_.size() : nl;
      line->assign(buffer_, pos_, end - pos_);
      pos_ = end + 1;
      ++line_no_;
      return true;
    }
    if (eof_) return false;
    if (buffer_.size() - pos_ > kMaxLineBytes) {
      ++line_no_;
      Fail(fmt::format("a line longer than {} bytes", kMaxLineBytes));
    }
    buffer_.erase(0, pos_);
    pos_ = 0;
    const std::string more = file_->Read(kReadChunk);
    if (more.empty()) eof_ = true;
    buffer_ += more;
  }
}

void TraceReader::ParseHeader(const std::string& line) {
  const std::vector<std::string_view> cols = SplitCommas(line);
  for (size_t i = 0; i < cols.size(); ++i) {
    if (cols[i] == "arrival_ms") arrival_col_ = static_cast<int>(i);
    if (cols[i] == "input_tokens") input_col_ = static_cast<int>(i);
    if (cols[i] == "output_tokens") output_col_ = static_cast<int>(i);
    if (cols[i] == "prefix_group") group_col_ = static_cast<int>(i);
    if (cols[i] == "prefix_len") prefix_len_col_ = static_cast<int>(i);
  }
  if (arrival_col_ < 0 || input_col_ < 0 || output_col_ < 0) {
    Fail("the CSV header must name arrival_ms, input_tokens and output_tokens");
  }
}

double TraceReader::CheckedArrivalMs(double ms) const {
  if (!(ms >= 0 && ms <= kMaxArrivalMs)) {
    Fail(fmt::format("arrival_ms {} is out of range: it must be from 0 to {:g} ms", ms,
                     kMaxArrivalMs));
  }
  return ms;
}

void TraceReader::SetPrefix(double group, double len, ArrivingRequest* r) const {
  const bool has_group = !std::isnan(group), has_len = !std::isnan(len);
  if (!has_group) {
    if (has_len) Fail("prefix_len needs a prefix_group on the same row");
    return;
  }
  if (!(group >= 0 && group <= 1e15 && group == std::floor(group))) {
    Fail("prefix_group must be a whole number >= 0 (empty: no group)");
  }
  if (!has_len && !default_prefix_len_) {
    Fail("prefix_group needs the group's prefix length: a prefix_len column or --prefix-len");
  }
  const double n = has_len ? len : static_cast<double>(*default_prefix_len_);
  if (!(n >= 1 && n == std::floor(n) && n <= static_cast<double>(r->input_tokens))) {
    Fail(fmt::format("prefix_len {} must be a whole number from 1 to input_tokens ({})", n,
                     r->input_tokens));
  }
  r->prefix_group = static_cast<int64_t>(group);
  r->prefix_len = static_cast<int64_t>(n);
}

ArrivingRequest TraceReader::ParseCsv(const std::string& line) const {
  const std::vector<std::string_view> cols = SplitCommas(line);
  const int need = std::max({arrival_col_, input_col_, output_col_});
  const int prefix_cols = std::max(group_col_, prefix_len_col_);
  if (static_cast<int>(cols.size()) <= need) {
    Fail(fmt::format("{} columns, the header has at least {}", cols.size(), need + 1));
  }
  double arrival = 0, in = 0, out = 0;
  if (!ParseNumber(cols[arrival_col_], &arrival) || !ParseNumber(cols[input_col_], &in) ||
      !ParseNumber(cols[output_col_], &out)) {
    Fail("arrival_ms, input_tokens and output_tokens must be numbers");
  }
  if (in < 1 || out < 1 || in != std::floor(in) || out != std::floor(out) || in > 1e9 ||
      out > 1e9) {
    Fail("input_tokens and output_tokens must be whole numbers >= 1");
  }
  ArrivingRequest r{CheckedArrivalMs(arrival) * 1000.0, static_cast<int64_t>(in),
                    static_cast<int64_t>(out)};
  // An empty cell or a row that stops before the column: not given.
  auto cell = [&](int col, const char* name) {
    if (col < 0 || col >= static_cast<int>(cols.size()) || cols[col].empty()) return kNotGiven;
    double v = 0;
    if (!ParseNumber(cols[col], &v)) Fail(fmt::format("{} must be a number or empty", name));
    return v;
  };
  if (prefix_cols >= 0)
    SetPrefix(cell(group_col_, "prefix_group"), cell(prefix_len_col_, "prefix_len"), &r);
  return r;
}

ArrivingRequest TraceReader::ParseJson(const std::string& line) const {
  const nlohmann::json j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object()) Fail("not a JSON object");
  auto number = [&](const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || !it->is_number()) Fail(fmt::format("needs a number \"{}\"", key));
    return it->get<double>();
  };
  const double arrival = number("arrival_ms");
  const double in = number("input_tokens");
  const double out = number("output_tokens");
  if (in < 1 || out < 1 || in != std::floor(in) || out != std::floor(out) || in > 1e9 ||
      out > 1e9) {
    Fail("input_tokens and output_tokens must be whole numbers >= 1");
  }
  ArrivingRequest r{CheckedArrivalMs(arrival) * 1000.0, static_cast<int64_t>(in),
                    static_cast<int64_t>(out)};
  auto optional_number = [&](const char* key) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) return kNotGiven;
    if (!it->is_number()) Fail(fmt::format("\"{}\" must be a number or null", key));
    return it->get<double>();
  };
  SetPrefix(optional_number("prefix_group"), optional_number("prefix_len"), &r);
  return r;
}

std::optional<ArrivingRequest> TraceReader::Next() {
  std::string line;
  while (ReadLine(&line)) {
    if (Trim(line).empty()) continue;
    if (!started_) {
      started_ = true;
      json_ = Trim(line).front() == '{';
      if (!json_) {
        ParseHeader(line);
        continue;
      }
    }
    const ArrivingRequest r = json_ ? ParseJson(line) : ParseCsv(line);
    if (r.arrival_us / 1000.0 < last_arrival_ms_) Fail("arrival_ms goes backwards");
    last_arrival_ms_ = r.arrival_us / 1000.0;
    return r;
  }
  if (!started_) throw InputError(fmt::format("--trace {}: no requests", path_));
  return std::nullopt;
}

}  // namespace kvplan
