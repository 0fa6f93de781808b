// TensorAllocatorSlack against hand arithmetic on c10/cuda/CUDACachingAllocator.cpp's sizes.
#include "catalog/allocator_rounding.h"

#include <gtest/gtest.h>

#include "base/units.h"

namespace kvplan {
namespace {

TEST(AllocatorRounding, SmallAndMidSizedTensorsRoundTo512Bytes) {
  EXPECT_EQ(TensorAllocatorSlack(100).allocated, 412);
  EXPECT_EQ(TensorAllocatorSlack(100).reserved, 412);
  EXPECT_EQ(TensorAllocatorSlack(9216).allocated, 0);  // a 4608-wide bf16 bias: 18 blocks
  // 7.875 MiB (Qwen2.5-7B's qkv_proj at TP4) is carved from a shared 20 MiB segment.
  EXPECT_EQ(TensorAllocatorSlack(1152LL * 3584 * 2).allocated, 0);
  EXPECT_EQ(TensorAllocatorSlack(1152LL * 3584 * 2).reserved, 0);
  EXPECT_EQ(TensorAllocatorSlack(0).allocated, 0);
}

TEST(AllocatorRounding, LargeTensorsGetTwoMibSegments) {
  // Qwen2.5-7B's qkv_proj at TP1, 4608 x 3584 bf16 = 31.5 MiB: a 32 MiB segment whose 0.5 MiB
  // tail is not split off, so memory_allocated counts it too.
  AllocatorSlack qkv = TensorAllocatorSlack(4608LL * 3584 * 2);
  EXPECT_EQ(qkv.allocated, kMiB / 2);
  EXPECT_EQ(qkv.reserved, kMiB / 2);
  // Its o_proj, 24.5 MiB: the 1.5 MiB tail is split off (free, so not allocated) but reserved.
  AllocatorSlack o = TensorAllocatorSlack(3584LL * 3584 * 2);
  EXPECT_EQ(o.allocated, 0);
  EXPECT_EQ(o.reserved, 3 * kMiB / 2);
  // A 1 MiB tail is not over kSmallSize: kept in the block.
  EXPECT_EQ(TensorAllocatorSlack(259 * kMiB).allocated, kMiB);
  EXPECT_EQ(TensorAllocatorSlack(12 * kMiB).reserved, 0);  // already a whole segment
}

}  // namespace
}  // namespace kvplan
