// Checked int64 arithmetic for figures that come from input (config.json
// dimensions, safetensors offsets): an impossible config is an InputError,
// never signed overflow (undefined behaviour) or a wrapped, negative size.
#pragma once

#include <cstdint>
#include <string_view>

namespace kvplan {

// Throws InputError "<what> overflows 64-bit integers: the input's figures are impossible".
[[noreturn]] void ThrowOverflow(std::string_view what);

inline int64_t CheckedMul(int64_t a, int64_t b, std::string_view what) {
  int64_t r = 0;
  if (__builtin_mul_overflow(a, b, &r)) ThrowOverflow(what);
  return r;
}

inline int64_t CheckedAdd(int64_t a, int64_t b, std::string_view what) {
  int64_t r = 0;
  if (__builtin_add_overflow(a, b, &r)) ThrowOverflow(what);
  return r;
}

// `v` as an int when it fits, else InputError naming `what`: no silent narrowing.
int CheckedInt(int64_t v, std::string_view what);

// The largest count of tokens or requests kvplan takes from a flag or a file
// (a context, a batch, a token budget, a number of requests): 10x the longest
// context of any released model, and small enough that a product of two
// counts and a per-element size (4 B x rows x context) stays exact in int64.
inline constexpr int64_t kMaxInputCount = 100'000'000;

// `v` when it is at most `hi`, else InputError "<what> <v> is too large (at
// most <hi>)": a 2^40 context is refused instead of planned on wrapped figures.
int64_t CheckedAtMost(int64_t v, int64_t hi, std::string_view what);

}  // namespace kvplan
