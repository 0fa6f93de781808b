// SGLang release names -> the era whose rules they follow.
#include <charconv>

#include <fmt/core.h>

#include "engines/sglang/era.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Parses "0.5.3", "0.5.3.post1", "v0.4.6.post2", "0.5.0rc1" into a key.
bool ParseVersion(const std::string& s, int64_t* key) {
  int parts[3] = {0, 0, 0};
  int post = 0;
  const char* p = s.data();
  const char* end = s.data() + s.size();
  for (int i = 0; i < 3; ++i) {
    auto [next, ec] = std::from_chars(p, end, parts[i]);
    if (ec != std::errc() || parts[i] < 0) return false;
    p = next;
    if (i < 2) {
      if (p == end || *p != '.') return false;
      ++p;
    }
  }
  if (p != end) {
    std::string rest(p, end);
    if (rest.rfind(".post", 0) == 0) {
      auto [next, ec] = std::from_chars(p + 5, end, post);
      if (ec != std::errc() || next != end) return false;
    } else if (rest.rfind("rc", 0) != 0) {
      return false;  // "rc" builds precede the release; treat as the release
    }
  }
  *key = SglangVersionKey(parts[0], parts[1], parts[2], post);
  return true;
}

}  // namespace

std::vector<std::string> SglangVersions() {
  return {"0.4.6", "0.4.6.post2", "0.4.7", "0.4.7.post1", "0.4.9",  "0.5.2",  "0.5.3", "0.5.5",
          "0.5.6", "0.5.6.post2", "0.5.9", "0.5.14",      "0.5.15", "0.5.19", "main"};
}

const SglangEra& SglangEraFor(const std::string& version, std::string* canonical, int64_t* key) {
  std::string v = version;
  if (!v.empty() && (v[0] == 'v' || v[0] == 'V')) v.erase(0, 1);
  if (v.empty() || v == "main" || v == "latest") {
    *canonical = "main";
    *key = SglangVersionKey(0, 5, 999);
    return SglangEra2026Mid();
  }
  int64_t k = 0;
  if (!ParseVersion(v, &k)) {
    throw InputError(fmt::format(
        "unknown SGLang version '{}' (expected a release like 0.5.3 or 0.4.6.post2, or main)",
        version));
  }
  *canonical = v;
  *key = k;
  if (k < SglangVersionKey(0, 4, 6)) {
    throw InputError(fmt::format(
        "SGLang {} predates the oldest modelled release 0.4.6; its memory rules are not modelled",
        v));
  }
  if (k < SglangVersionKey(0, 4, 6, 2)) return SglangEraV0_4_6();
  if (k < SglangVersionKey(0, 4, 7, 1)) return SglangEraV0_4_6Post2();
  if (k < SglangVersionKey(0, 5, 3)) return SglangEraV0_4_7Post1();
  if (k < SglangVersionKey(0, 5, 7)) return SglangEraV0_5_3();
  if (k < SglangVersionKey(0, 5, 15)) return SglangEra2026Early();
  return SglangEra2026Mid();
}

}  // namespace kvplan
