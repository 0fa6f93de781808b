// FormatGiB prints as Python's f"{gib:.{digits}f}" does (the engines' own log
// lines): the exact binary value rounded half to even, the sign kept. The
// expected strings are what python3 prints for the same value.
#include "base/format.h"

#include <gtest/gtest.h>

#include "base/units.h"

namespace kvplan {
namespace {

TEST(FormatGiB, RoundsAsPythonFormatDoes) {
  EXPECT_EQ(FormatGiB(kGiB / 8), "0.12 GiB");             // f"{0.125:.2f}": a tie goes to even
  EXPECT_EQ(FormatGiB(3 * kGiB / 8), "0.38 GiB");         // f"{0.375:.2f}"
  EXPECT_EQ(FormatGiB(-(kGiB + kGiB / 2)), "-1.50 GiB");  // f"{-1.5:.2f}"
  EXPECT_EQ(FormatGiB(GiBToBytes(-20.603), 3), "-20.603 GiB");
  EXPECT_EQ(FormatGiB(0, 0), "0 GiB");
}

TEST(DisplayWidth, CountsCodePointsNotBytes) {
  EXPECT_EQ(DisplayWidth(""), 0u);
  EXPECT_EQ(DisplayWidth("GiB"), 3u);
  EXPECT_EQ(DisplayWidth("\xc3\xa9t\xc3\xa9"), 3u);  // "été": 5 bytes, 3 columns
  EXPECT_EQ(DisplayWidth("\xe2\x89\xa4"), 1u);       // "≤"
}

}  // namespace
}  // namespace kvplan
