// Integers read back from stored JSON (the run history's records). nlohmann
// converts a float or an out-of-range number to an integer with a plain cast,
// undefined for 1e300 into int64, so a damaged or foreign row must be refused
// here instead: InputError naming the field.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "kvplan/error.h"

namespace kvplan {

template <class T>
T CheckedIntFromJson(const nlohmann::json& v, const char* key) {
  if (v.is_number_unsigned()) {
    if (v.get<uint64_t>() <= static_cast<uint64_t>(std::numeric_limits<T>::max())) {
      return static_cast<T>(v.get<uint64_t>());
    }
  } else if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    if (i >= std::numeric_limits<T>::min() && i <= std::numeric_limits<T>::max()) {
      return static_cast<T>(i);
    }
  }
  throw InputError(std::string("stored run record is not readable: \"") + key +
                   "\" is not an integer in range");
}

template <class T>
T IntAt(const nlohmann::json& j, const char* key) {
  return CheckedIntFromJson<T>(j.at(key), key);
}

template <class T>
std::vector<T> IntsAt(const nlohmann::json& j, const char* key) {
  std::vector<T> out;
  for (const nlohmann::json& v : j.at(key)) out.push_back(CheckedIntFromJson<T>(v, key));
  return out;
}

}  // namespace kvplan
