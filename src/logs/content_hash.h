// A fast 128-bit content hash of a log, computed while the log streams by, so
// that `kvplan ingest` recognises a log it has seen before without a second
// read. Not cryptographic: it only has to tell different logs apart.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace kvplan {

class ContentHasher {
 public:
  void Update(const char* data, size_t n);
  // 32 lowercase hex digits. Call once, after the last Update.
  std::string HexDigest();

 private:
  void Block(uint64_t word);
  uint64_t a_ = 0x9e3779b97f4a7c15ULL, b_ = 0xc2b2ae3d27d4eb4fULL;
  uint64_t length_ = 0;
  unsigned char tail_[8] = {};
  size_t tail_len_ = 0;
};

}  // namespace kvplan
