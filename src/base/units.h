// Byte quantities. kvplan keeps bytes as int64 internally; GiB (2^30, what
// SGLang and vLLM print as "GB"/"GiB") and MiB appear only at the edges.
#pragma once

#include <cmath>
#include <cstdint>

namespace kvplan {

inline constexpr int64_t kKiB = int64_t{1} << 10;
inline constexpr int64_t kMiB = int64_t{1} << 20;
inline constexpr int64_t kGiB = int64_t{1} << 30;

inline double ToGiB(int64_t bytes) {
  return static_cast<double>(bytes) / static_cast<double>(kGiB);
}
inline double ToMiB(int64_t bytes) {
  return static_cast<double>(bytes) / static_cast<double>(kMiB);
}

// Python's int(x) for a finite double: truncation toward zero.
inline int64_t TruncToInt64(double x) { return static_cast<int64_t>(std::trunc(x)); }

// GiB given by a user or printed in a log, to bytes (Python int(gib * 2**30)).
inline int64_t GiBToBytes(double gib) { return TruncToInt64(gib * static_cast<double>(kGiB)); }

// A GiB figure a log printed rounded (e.g. "K size: 1.23 GB"), to the nearest byte:
// the log's figure is itself rounded, so truncating would bias it downward.
inline int64_t GiBToNearestBytes(double gib) {
  return static_cast<int64_t>(std::llround(gib * static_cast<double>(kGiB)));
}

// Python floor division for integers (rounds toward negative infinity).
inline int64_t FloorDiv(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Python's -(-a // b): ceiling division for integers of any sign (b > 0 in
// every engine rule; the engines write it as (a + b - 1) // b or
// math.ceil(a / b)).
inline int64_t CeilDiv(int64_t a, int64_t b) { return -FloorDiv(-a, b); }

}  // namespace kvplan
