// How PyTorch's CUDA caching allocator rounds one tensor's allocation
// (c10/cuda/CUDACachingAllocator.cpp @v2.8.0, the allocator vLLM and SGLang run on): what the
// engines' load-time memory figures count beyond the tensor's own bytes.
#pragma once

#include <cstdint>

namespace kvplan {

struct AllocatorSlack {
  int64_t allocated = 0;  // counted by torch.cuda.memory_allocated (vLLM's weight figure)
  int64_t reserved = 0;   // counted by the device's free memory (SGLang's weight figure)
  AllocatorSlack& operator+=(const AllocatorSlack& o) {
    allocated += o.allocated;
    reserved += o.reserved;
    return *this;
  }
};

// The slack of one fresh allocation of `bytes` (a weight tensor created at model load):
// every block is rounded up to 512 bytes (round_size); a request of 10 MiB or more gets its own
// segment rounded up to 2 MiB (get_allocation_size), and the segment's tail stays inside the
// block (so is counted as allocated) unless it is over 1 MiB (should_split). Smaller requests
// share 2 MiB and 20 MiB segments, whose unused tails are not charged to any one tensor.
AllocatorSlack TensorAllocatorSlack(int64_t bytes);

}  // namespace kvplan
