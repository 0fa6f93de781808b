#include "base/checked_math.h"

#include <limits>

#include <fmt/core.h>

#include "kvplan/error.h"

namespace kvplan {

void ThrowOverflow(std::string_view what) {
  throw InputError(
      fmt::format("{} overflows 64-bit integers: the input's figures are impossible", what));
}

int CheckedInt(int64_t v, std::string_view what) {
  if (v < std::numeric_limits<int>::min() || v > std::numeric_limits<int>::max()) {
    throw InputError(fmt::format("{} is {}, out of range (at most {})", what, v,
                                 std::numeric_limits<int>::max()));
  }
  return static_cast<int>(v);
}

int64_t CheckedAtMost(int64_t v, int64_t hi, std::string_view what) {
  if (v > hi) throw InputError(fmt::format("{} {} is too large (at most {})", what, v, hi));
  return v;
}

}  // namespace kvplan
