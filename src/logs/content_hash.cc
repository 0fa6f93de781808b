#include "logs/content_hash.h"

#include <cstring>

#include <fmt/core.h>

namespace kvplan {
namespace {

uint64_t Rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

// The finaliser of MurmurHash3 (public domain): spreads every input bit.
uint64_t Mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

}  // namespace

void ContentHasher::Block(uint64_t word) {
  // Two lanes with different multipliers give 128 bits of state.
  a_ = Rotl(a_ ^ (word * 0x87c37b91114253d5ULL), 31) * 0x4cf5ad432745937fULL + 0x52dce729;
  b_ = Rotl(b_ ^ (word * 0x4cf5ad432745937fULL), 29) * 0x87c37b91114253d5ULL + 0x38495ab5;
}

void ContentHasher::Update(const char* data, size_t n) {
  length_ += n;
  while (n > 0 && tail_len_ > 0) {
    tail_[tail_len_++] = static_cast<unsigned char>(*data++);
    --n;
    if (tail_len_ == 8) {
      uint64_t w;
      std::memcpy(&w, tail_, 8);
      Block(w);
      tail_len_ = 0;
    }
  }
  while (n >= 8) {
    uint64_t w;
    std::memcpy(&w, data, 8);
    Block(w);
    data += 8;
    n -= 8;
  }
  std::memcpy(tail_, data, n);
  tail_len_ = n;
}

std::string ContentHasher::HexDigest() {
  uint64_t w = 0;
  std::memcpy(&w, tail_, tail_len_);
  Block(w ^ (static_cast<uint64_t>(tail_len_) << 56));
  uint64_t h1 = Mix(a_ ^ length_), h2 = Mix(b_ + h1);
  h1 = Mix(h1 + h2);
  return fmt::format("{:016x}{:016x}", h1, h2);
}

}  // namespace kvplan
