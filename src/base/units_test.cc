// The Python-compatible arithmetic the engine rules are written in, checked
// against what CPython 3 prints for the same expression (the values in the
// comments are `python3 -c "print(...)"` output; Python's // and int() are
// documented in "Binary arithmetic operations" and "int(x)" of the language
// and library references).
#include "base/units.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

// Python's // rounds toward negative infinity; C++'s / toward zero. The
// engines' token counts go negative when rest_memory does, so the difference
// shows in the "Not enough memory" cases.
TEST(FloorDiv, MatchesPythonForEverySignCombination) {
  EXPECT_EQ(FloorDiv(7, 2), 3);    // 7 // 2
  EXPECT_EQ(FloorDiv(-7, 2), -4);  // -7 // 2
  EXPECT_EQ(FloorDiv(7, -2), -4);  // 7 // -2
  EXPECT_EQ(FloorDiv(-7, -2), 3);  // -7 // -2
  EXPECT_EQ(FloorDiv(-8, 2), -4);  // exact: no rounding
  EXPECT_EQ(FloorDiv(0, 5), 0);
  EXPECT_EQ(FloorDiv(-1, 3), -1);  // a small negative rest is -1 page, not 0
  EXPECT_EQ(FloorDiv(-(int64_t{1} << 62), 3), -1537228672809129302);  // (-2**62) // 3
}

// CeilDiv is documented for a non-negative numerator and a positive divisor,
// where it equals Python's -(-a // b).
TEST(CeilDiv, MatchesPythonNegatedFloorDivision) {
  EXPECT_EQ(CeilDiv(7, 2), 4);                                   // -(-7 // 2)
  EXPECT_EQ(CeilDiv(0, 3), 0);                                   // -(-0 // 3)
  EXPECT_EQ(CeilDiv(1, 3), 1);                                   // -(-1 // 3)
  EXPECT_EQ(CeilDiv(6, 3), 2);                                   // exact
  EXPECT_EQ(CeilDiv((int64_t{1} << 40) + 1, 1 << 20), 1048577);  // -(-(2**40+1) // 2**20)
}

// Python's int(x) truncates toward zero, for either sign.
TEST(TruncToInt64, TruncatesTowardZeroLikePythonInt) {
  EXPECT_EQ(TruncToInt64(2.9), 2);    // int(2.9)
  EXPECT_EQ(TruncToInt64(-2.9), -2);  // int(-2.9), where floor would give -3
  EXPECT_EQ(TruncToInt64(-0.5), 0);   // int(-0.5)
  EXPECT_EQ(TruncToInt64(1e15 + 0.5), 1000000000000000);
  EXPECT_EQ(TruncToInt64(-1e15 - 0.5), -1000000000000000);
}

// GiB to bytes as the engines write it: int(gib * 2**30).
TEST(GiBToBytes, TruncatesLikePythonInt) {
  EXPECT_EQ(GiBToBytes(1.0), kGiB);
  EXPECT_EQ(GiBToBytes(-1.5), -1610612736);      // int(-1.5 * 2**30)
  EXPECT_EQ(GiBToBytes(0.1), 107374182);         // int(0.1 * 2**30)
  EXPECT_EQ(GiBToBytes(-0.1), -107374182);       // int(-0.1 * 2**30): toward zero
  EXPECT_EQ(GiBToBytes(23.58), 25318832209);     // int(23.58 * 2**30), vLLM issue #10517's total
  EXPECT_EQ(GiBToBytes(-20.603), -22122302799);  // int(-20.603 * 2**30), the story's rest
  EXPECT_EQ(GiBToBytes(1e-10), 0);               // int(1e-10 * 2**30)
}

}  // namespace
}  // namespace kvplan
