// Small helpers to pull figures out of a log message without regexes: find a
// key, read the number after it. Numbers may carry thousands separators
// (vLLM V1 prints "1,029,388").
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace kvplan {

inline bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}
inline bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// The number right after the first `key` in `s` ("avail mem=" -> 19.67).
std::optional<double> NumberAfter(std::string_view s, std::string_view key);
// The integer right after `key`; thousands separators allowed.
std::optional<int64_t> IntegerAfter(std::string_view s, std::string_view key);
// Reads a number at the start of `s` (leading spaces skipped); advances `s`.
std::optional<double> TakeNumber(std::string_view* s);
// "[1, 2, 4]" right after `key` -> {1, 2, 4}; empty when absent or malformed.
std::vector<int64_t> IntListAfter(std::string_view s, std::string_view key);

}  // namespace kvplan
