// The content digest of a log, computed while the log streams by, so that
// `kvplan ingest` recognises a log it has seen before without a second read.
// SHA-256 (OpenSSL's libcrypto): the digest decides that a log is "already
// ingested" and its launches are skipped, so two different logs must never
// share one, even when someone searches for such a pair.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

struct evp_md_ctx_st;  // OpenSSL's EVP_MD_CTX, seen only by content_hash.cc

namespace kvplan {

class ContentHasher {
 public:
  ContentHasher();
  ~ContentHasher();
  ContentHasher(const ContentHasher&) = delete;
  ContentHasher& operator=(const ContentHasher&) = delete;

  void Update(const char* data, size_t n);
  // 64 lowercase hex digits. Call once, after the last Update.
  std::string HexDigest();

 private:
  evp_md_ctx_st* ctx_;
};

// The SHA-256 of `bytes`, 64 lowercase hex digits.
std::string Sha256Hex(std::string_view bytes);

// The 128-bit non-cryptographic digest kvplan stored before run-store schema 3
// (32 hex digits). Kept only to recognise logs ingested by those versions.
class LegacyContentHasher {
 public:
  void Update(const char* data, size_t n);
  std::string HexDigest();

 private:
  void Block(uint64_t word);
  uint64_t a_ = 0x9e3779b97f4a7c15ULL, b_ = 0xc2b2ae3d27d4eb4fULL;
  uint64_t length_ = 0;
  unsigned char tail_[8] = {};
  size_t tail_len_ = 0;
};

}  // namespace kvplan
