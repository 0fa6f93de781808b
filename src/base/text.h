// Number and name formatting shared by the engines' explanations and the reports.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace kvplan {

// 1234567 -> "1,234,567"
std::string WithThousands(int64_t n);

// '0'..'9' only: log figures are ASCII, and <cctype>'s isdigit depends on the locale.
inline bool IsAsciiDigit(char c) { return c >= '0' && c <= '9'; }

// ASCII upper case: engine flag values such as "eagle3" -> "EAGLE3".
std::string ToUpper(std::string_view s);

}  // namespace kvplan
