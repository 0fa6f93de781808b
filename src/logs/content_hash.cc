#include "logs/content_hash.h"

#include <openssl/evp.h>

#include <cstring>
#include <new>

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

ContentHasher::ContentHasher() : ctx_(EVP_MD_CTX_new()) {
  if (ctx_ == nullptr || EVP_DigestInit_ex(ctx_, EVP_sha256(), nullptr) != 1) {
    EVP_MD_CTX_free(ctx_);
    throw std::bad_alloc();
  }
}

ContentHasher::~ContentHasher() { EVP_MD_CTX_free(ctx_); }

void ContentHasher::Update(const char* data, size_t n) {
  if (n > 0) EVP_DigestUpdate(ctx_, data, n);
}

std::string ContentHasher::HexDigest() {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  EVP_DigestFinal_ex(ctx_, md, &len);
  std::string hex;
  hex.reserve(2 * len);
  for (unsigned int i = 0; i < len; ++i) hex += fmt::format("{:02x}", md[i]);
  return hex;
}

std::string Sha256Hex(std::string_view bytes) {
  ContentHasher h;
  h.Update(bytes.data(), bytes.size());
  return h.HexDigest();
}

void LegacyContentHasher::Block(uint64_t word) {
  // Two lanes with different multipliers give 128 bits of state.
  a_ = Rotl(a_ ^ (word * 0x87c37b91114253d5ULL), 31) * 0x4cf5ad432745937fULL + 0x52dce729;
  b_ = Rotl(b_ ^ (word * 0x4cf5ad432745937fULL), 29) * 0x87c37b91114253d5ULL + 0x38495ab5;
}

void LegacyContentHasher::Update(const char* data, size_t n) {
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

std::string LegacyContentHasher::HexDigest() {
  uint64_t w = 0;
  std::memcpy(&w, tail_, tail_len_);
  Block(w ^ (static_cast<uint64_t>(tail_len_) << 56));
  uint64_t h1 = Mix(a_ ^ length_), h2 = Mix(b_ + h1);
  h1 = Mix(h1 + h2);
  return fmt::format("{:016x}{:016x}", h1, h2);
}

}  // namespace kvplan
