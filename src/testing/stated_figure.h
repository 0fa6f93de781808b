// For table-driven tests: a row states only the figures its hand computation gives; the ones
// it leaves unset are not checked.
#pragma once

#include <gtest/gtest.h>

#include <optional>

namespace kvplan::testing {

template <typename Actual, typename Expected>
void ExpectStated(const char* what, const Actual& actual, const std::optional<Expected>& expected) {
  if (expected) {
    EXPECT_EQ(actual, *expected) << what;
  }
}

inline void ExpectStated(const char* what, double actual, const std::optional<double>& expected) {
  if (expected) {
    EXPECT_DOUBLE_EQ(actual, *expected) << what;
  }
}

}  // namespace kvplan::testing
