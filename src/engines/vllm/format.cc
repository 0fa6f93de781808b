#include <cmath>
#include <string>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"

namespace kvplan {
namespace {

std::string StripZeros(std::string s) {
  if (s.find('.') == std::string::npos) return s + ".0";
  while (s.size() > 2 && s.back() == '0' && s[s.size() - 2] != '.') s.pop_back();
  return s;
}

}  // namespace

std::string PyRound2(double x) { return StripZeros(fmt::format("{:.2f}", x)); }

std::string PyFloat(double x) {
  // Shortest round-trip form, as Python prints floats.
  for (int prec = 1; prec <= 17; ++prec) {
    std::string s = fmt::format("{:.{}g}", x, prec);
    if (std::stod(s) == x) {
      if (s.find('e') != std::string::npos) return s;
      return StripZeros(s);
    }
  }
  return fmt::format("{}", x);
}

std::string Gib2(int64_t bytes) { return fmt::format("{:.2f}", ToGiB(bytes)); }

}  // namespace kvplan
