// One assertion for a whole KvScope (kind, GPUs per pool, pools), so the three
// engines' scope tests read as one line per case and a failure prints all three.
#pragma once

#include <gtest/gtest.h>

#include "kvplan/plan.h"

namespace kvplan::testing {

inline ::testing::AssertionResult ScopeIs(const KvScope& s, KvScope::Kind kind, int gpus,
                                          int pools) {
  if (s.kind == kind && s.gpus == gpus && s.pools == pools) {
    return ::testing::AssertionSuccess();
  }
  return ::testing::AssertionFailure()
         << "scope is " << KvScopeName(s.kind) << " of " << s.gpus << " GPU(s), " << s.pools
         << " pool(s); expected " << KvScopeName(kind) << " of " << gpus << ", " << pools;
}

}  // namespace kvplan::testing
