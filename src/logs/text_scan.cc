#include "logs/text_scan.h"

#include <charconv>
#include <string>

#include "base/text.h"

namespace kvplan {
namespace {

// ",ddd" after an integer part, not followed by a fourth digit.
bool IsThousandsSeparator(std::string_view s, size_t i, const std::string& digits) {
  if (i + 3 >= s.size()) return false;
  if (digits.empty() || digits.find('.') != std::string::npos) return false;
  for (size_t k = 1; k <= 3; ++k) {
    if (!IsAsciiDigit(s[i + k])) return false;
  }
  return i + 4 >= s.size() || !IsAsciiDigit(s[i + 4]);
}

}  // namespace

std::optional<double> TakeNumber(std::string_view* s) {
  size_t i = 0;
  while (i < s->size() && (*s)[i] == ' ') ++i;
  size_t start = i;
  std::string digits;
  for (; i < s->size(); ++i) {
    char c = (*s)[i];
    if (IsAsciiDigit(c) || c == '.' || ((c == '-' || c == '+') && i == start)) {
      digits.push_back(c);
    } else if (c == ',' && IsThousandsSeparator(*s, i, digits)) {
      continue;  // a thousands separator: ",ddd" not followed by a fourth digit
    } else if ((c == 'e' || c == 'E') && !digits.empty() && i + 1 < s->size() &&
               ((*s)[i + 1] == '-' || (*s)[i + 1] == '+' ||
                ((*s)[i + 1] >= '0' && (*s)[i + 1] <= '9'))) {
      digits.push_back(c);
      digits.push_back((*s)[++i]);
    } else {
      break;
    }
  }
  if (!digits.empty() && digits.back() == '.') digits.pop_back();  // "took 67.7 GB." style
  if (digits.empty() || digits == "-" || digits == "+") return std::nullopt;
  double v = 0;
  const char* b = digits.data() + (digits[0] == '+' ? 1 : 0);
  auto [p, ec] = std::from_chars(b, digits.data() + digits.size(), v);
  if (ec != std::errc()) return std::nullopt;
  (void)p;
  *s = s->substr(i);
  return v;
}

std::optional<double> NumberAfter(std::string_view s, std::string_view key) {
  size_t at = s.find(key);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view rest = s.substr(at + key.size());
  return TakeNumber(&rest);
}

std::optional<int64_t> IntegerAfter(std::string_view s, std::string_view key) {
  std::optional<double> v = NumberAfter(s, key);
  if (!v || *v > 9.0e18 || *v < -9.0e18) return std::nullopt;
  return static_cast<int64_t>(*v);
}

std::vector<int64_t> IntListAfter(std::string_view s, std::string_view key) {
  std::vector<int64_t> out;
  size_t at = s.find(key);
  if (at == std::string_view::npos) return out;
  std::string_view rest = s.substr(at + key.size());
  while (!rest.empty() && rest[0] == ' ') rest.remove_prefix(1);
  if (rest.empty() || rest[0] != '[') return out;
  rest.remove_prefix(1);
  for (;;) {
    while (!rest.empty() && (rest[0] == ' ' || rest[0] == ',')) rest.remove_prefix(1);
    if (rest.empty()) return {};
    if (rest[0] == ']') return out;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
    if (ec != std::errc()) return {};
    out.push_back(v);
    rest.remove_prefix(static_cast<size_t>(p - rest.data()));
  }
}

}  // namespace kvplan
