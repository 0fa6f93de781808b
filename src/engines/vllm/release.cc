#include "engines/vllm/release.h"

#include <cctype>
#include <iterator>
#include <tuple>

#include <fmt/core.h>

#include "engines/common/flag_table.h"
#include "engines/common/suggested_flags.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Reads the leading decimal number at s[*pos]; -1 when there is none.
int ReadNumber(const std::string& s, size_t* pos) {
  if (*pos >= s.size() || !std::isdigit(static_cast<unsigned char>(s[*pos]))) return -1;
  int n = 0;
  while (*pos < s.size() && std::isdigit(static_cast<unsigned char>(s[*pos]))) {
    n = n * 10 + (s[*pos] - '0');
    if (n > 100000) return -1;
    ++*pos;
  }
  return n;
}

// A dev build X.Y.Z.devN (setup.py's setuptools-scm version, e.g. 0.10.2.dev123+g...) is N commits
// after the tag before X.Y.Z, so it runs that release's rules: Z - 1, or for Z = 0 the last patch
// of the previous minor (99 stands for "the last one": eras compare, never name, patches). An
// rcN.devM build keeps the release it previews.
void FollowedRelease(VllmRelease* r) {
  if (r->patch > 0) {
    --r->patch;
  } else if (r->minor > 0) {
    --r->minor;
    r->patch = 99;
  }
}

// A build from a checkout with no release tag in its history: setuptools-scm then numbers it
// 0.1.devN, N the commits in its history (git rev-list --count), so the release it follows is the
// newest one with at most N commits. The counts are of each tag in vllm-project/vllm's history
// (read from the CentML/vllm snapshot, which carries the upstream tags; data/flags/README.md); a
// build off main counts only a few cherry-picks fewer than the tag did. 0.1.dev7548 (the build
// issue 11 names) follows 0.9.2: 7502 <= 7548 < 7926 (v0.10.0), a main of July 2025.
struct TaggedRelease {
  int minor, patch;
  int commits;
};
// kvplan: data table
constexpr TaggedRelease kTaggedReleases[] = {
    {6, 0, 2555},   {6, 3, 2987},   {6, 6, 3921},   {7, 0, 4321},   {7, 3, 4708},   {8, 0, 5233},
    {8, 5, 6127},   {9, 0, 6775},   {9, 2, 7502},   {10, 0, 7926},  {10, 1, 8656},  {10, 2, 9401},
    {11, 0, 9965},  {12, 0, 11861}, {13, 0, 12291}, {14, 0, 12951}, {15, 0, 13289}, {16, 0, 13751},
    {17, 0, 14447}, {18, 0, 14900}, {19, 0, 15355}, {20, 0, 16107}, {20, 1, 16136}};

// The release an untagged 0.1.devN build follows; throws when N is outside the table.
void UntaggedDevRelease(const std::string& version, int commits, VllmRelease* r) {
  const TaggedRelease* found = nullptr;
  for (const TaggedRelease& t : kTaggedReleases) {
    if (t.commits <= commits) found = &t;
  }
  constexpr const TaggedRelease& kLast = kTaggedReleases[std::size(kTaggedReleases) - 1];
  if (found == nullptr || commits > kLast.commits + 2000) {
    throw InputError(fmt::format(
        "vLLM version '{}' is a build with no release tag in its history (setuptools-scm's "
        "0.1.devN, N = {} commits), which kvplan maps only from 0.6.0 ({} commits) to about "
        "0.{}.{} ({}); give the release it was built from, e.g. --engine vllm@0.{}.{}",
        version, commits, kTaggedReleases[0].commits, kLast.minor, kLast.patch, kLast.commits,
        kLast.minor, kLast.patch));
  }
  r->minor = found->minor;
  r->patch = found->patch;
}

}  // namespace

bool VllmRelease::AtLeast(int ma, int mi, int pa) const {
  return std::tie(major, minor, patch) >= std::tie(ma, mi, pa);
}

VllmRelease ParseVllmRelease(const std::string& version) {
  VllmRelease r;
  std::string v = version.empty() ? kVllmNewest : version;
  if (!v.empty() && (v[0] == 'v' || v[0] == 'V')) v.erase(0, 1);
  size_t pos = 0;
  int parts[3] = {-1, -1, 0};
  for (int i = 0; i < 3; ++i) {
    parts[i] = ReadNumber(v, &pos);
    if (parts[i] < 0) break;
    if (i < 2 && (pos >= v.size() || v[pos] != '.')) {
      if (i == 1) parts[2] = 0;
      break;
    }
    if (i < 2) ++pos;
  }
  if (parts[0] < 0 || parts[1] < 0) {
    throw InputError(fmt::format(
        "unknown vLLM version '{}' (expected a release such as 0.10.1 or 0.15.2rc1)", version));
  }
  // "0.1.dev7548": the loop consumed the dot before "dev".
  if (parts[2] < 0 && pos > 0 && v[pos - 1] == '.') --pos;
  r.major = parts[0];
  r.minor = parts[1];
  r.patch = parts[2] < 0 ? 0 : parts[2];
  if (v.compare(pos, 4, ".dev") == 0) {
    size_t n = pos + 4;
    int commits = ReadNumber(v, &n);
    if (r.major == 0 && r.minor == 1 && r.patch == 0 && commits >= 0) {
      UntaggedDevRelease(version, commits, &r);
    } else {
      FollowedRelease(&r);
    }
  }
  r.text = version.empty() ? kVllmNewest : v;
  if (!r.AtLeast(0, 6, 0)) {
    throw InputError(fmt::format(
        "vLLM version '{}' is outside the modelled releases (0.6.0 to {}.x)", version, "0.28"));
  }
  r.newer_than_modelled = r.AtLeast(0, 29, 0);
  return r;
}

VllmEra VllmEraFor(const VllmRelease& r, std::optional<bool> use_v1) {
  // vllm/envs.py @v0.8.0: VLLM_USE_V1 defaults to 1 from 0.8.0.
  bool v1 = use_v1.value_or(r.AtLeast(0, 8, 0));
  if (v1 && !r.AtLeast(0, 7, 0)) {
    throw InputError(fmt::format(
        "VLLM_USE_V1=1 needs vLLM 0.7.0 or later (the V1 engine does not exist in {})", r.text));
  }
  if (!v1 && r.AtLeast(0, 11, 0)) {
    throw InputError(
        fmt::format("VLLM_USE_V1=0 is not available in vLLM {}: the V0 engine was removed in "
                    "0.11.0",
                    r.text));
  }
  if (!v1) return r.AtLeast(0, 7, 0) ? VllmEra::kV0 : VllmEra::kV0Legacy;
  if (!r.AtLeast(0, 9, 2)) return VllmEra::kV1Early;
  // envs.py @v0.20.0 (PR #38284): VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS defaults to "1".
  if (!r.AtLeast(0, 20, 0)) return VllmEra::kV1;
  return VllmEra::kV1GraphEstimate;
}

std::string VllmEraName(VllmEra era) {
  switch (era) {
    case VllmEra::kV0Legacy:
      return "V0 (<0.7, one-line profiling log)";
    case VllmEra::kV0:
      return "V0 (0.7-0.10, per-instance profiling)";
    case VllmEra::kV1Early:
      return "V1 early (<=0.9.1, counts other processes)";
    case VllmEra::kV1:
      return "V1 (0.9.2-0.19)";
    case VllmEra::kV1GraphEstimate:
      return "V1 (>=0.20, CUDA-graph estimate)";
  }
  return "";
}

const FlagTable* VllmFlagTableFor(const std::string& release, std::string* older_note) {
  VllmRelease r;
  try {
    r = ParseVllmRelease(release);
  } catch (const InputError&) {
    return nullptr;
  }
  if (const FlagTable* t = FindFlagTable("vllm", r.text)) return t;
  // "0.11" names the release 0.11.0; a suffix (rc, dev) names another build.
  if (r.text == fmt::format("{}.{}", r.major, r.minor)) {
    if (const FlagTable* t = FindFlagTable("vllm", fmt::format("{}.{}.0", r.major, r.minor))) {
      return t;
    }
  }
  // A dev build's r is already the release it follows (FollowedRelease), and an rc the release
  // it previews, so the nearest table at or before r is the nearest parser to the build.
  auto key = [](int ma, int mi, int pa) -> int64_t { return (ma * 1000LL + mi) * 1000 + pa; };
  const FlagTable* t = NearestOlderFlagTable("vllm", key(r.major, r.minor, r.patch),
                                             [&](const std::string& v) -> std::optional<int64_t> {
                                               const VllmRelease tr = ParseVllmRelease(v);
                                               return key(tr.major, tr.minor, tr.patch);
                                             });
  if (t != nullptr && older_note != nullptr) *older_note = OlderFlagTableNote("vLLM", r.text, *t);
  return t;
}

bool IsV0(VllmEra era) { return era == VllmEra::kV0Legacy || era == VllmEra::kV0; }

std::string VllmFlagToWrite(const std::string& release, std::string_view flag) {
  return FlagToWrite("vllm", VllmFlagTableFor(release), flag);
}

}  // namespace kvplan
