#include "base/units.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

// Python's // rounds toward negative infinity; C++'s / toward zero. The
// engines' token counts go negative when rest_memory does, so the difference
// shows in the "Not enough memory" cases.
TEST(FloorDiv, MatchesPythonForNegativeNumerators) {
  EXPECT_EQ(FloorDiv(7, 2), 3);
  EXPECT_EQ(FloorDiv(-7, 2), -4);
  EXPECT_EQ(FloorDiv(-8, 2), -4);
  EXPECT_EQ(FloorDiv(0, 5), 0);
}

TEST(GiBToBytes, TruncatesLikePythonInt) {
  EXPECT_EQ(GiBToBytes(1.0), kGiB);
  EXPECT_EQ(GiBToBytes(-1.5), -(kGiB + kGiB / 2));
  EXPECT_EQ(GiBToBytes(0.1), 107374182);  // int(0.1 * 2**30) in Python
}

}  // namespace
}  // namespace kvplan
