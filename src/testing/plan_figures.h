// For tests: a plan's printed figure by key.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "kvplan/plan.h"

namespace kvplan::testing {

// The figure `key` of a plan; a test failure and NaN (which fails any numeric
// expectation after it) when the plan has no such figure.
inline double PlanFigure(const PlanResult& r, const std::string& key) {
  const Figure* f = r.FindFigure(key);
  EXPECT_NE(f, nullptr) << key;
  return f != nullptr ? f->value : NAN;
}

}  // namespace kvplan::testing
