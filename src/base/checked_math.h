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

}  // namespace kvplan
