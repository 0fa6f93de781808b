#include "base/text.h"

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(WithThousands, GroupsDigits) {
  EXPECT_EQ(WithThousands(0), "0");
  EXPECT_EQ(WithThousands(999), "999");
  EXPECT_EQ(WithThousands(1000), "1,000");
  EXPECT_EQ(WithThousands(159171), "159,171");
  EXPECT_EQ(WithThousands(-314803), "-314,803");
  EXPECT_EQ(WithThousands(INT64_MIN), "-9,223,372,036,854,775,808");
}

TEST(ToUpper, AsciiOnly) {
  EXPECT_EQ(ToUpper("eagle3"), "EAGLE3");
  EXPECT_EQ(ToUpper("NextN-mtp_1"), "NEXTN-MTP_1");
  EXPECT_EQ(ToUpper(""), "");
  EXPECT_EQ(ToUpper("\xe9"
                    "a"),
            "\xe9"
            "A");  // bytes above 127 are left alone
}

}  // namespace
}  // namespace kvplan
