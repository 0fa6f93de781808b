// TensorAllocatorSlack: the caching allocator's block and segment sizes for one tensor.
#include "catalog/allocator_rounding.h"

#include "base/units.h"

namespace kvplan {
namespace {

// c10/cuda/CUDACachingAllocator.cpp @v2.8.0: kMinBlockSize, kSmallSize, kMinLargeAlloc,
// kRoundLarge.
constexpr int64_t kMinBlockSize = 512;
constexpr int64_t kSmallSize = 1 * kMiB;
constexpr int64_t kMinLargeAlloc = 10 * kMiB;
constexpr int64_t kRoundLarge = 2 * kMiB;

int64_t RoundUp(int64_t x, int64_t to) { return (x + to - 1) / to * to; }

}  // namespace

AllocatorSlack TensorAllocatorSlack(int64_t bytes) {
  // Past 2^60 bytes no device holds the tensor; the rounding would only overflow.
  if (bytes <= 0 || bytes > (int64_t{1} << 60)) return {};
  const int64_t block = RoundUp(bytes, kMinBlockSize);
  AllocatorSlack s{block - bytes, block - bytes};
  if (block < kMinLargeAlloc) return s;
  const int64_t tail = RoundUp(block, kRoundLarge) - block;
  if (tail <= kSmallSize) s.allocated += tail;  // should_split: remaining > kSmallSize
  s.reserved += tail;
  return s;
}

}  // namespace kvplan
