// vLLM release numbers, the modelled eras, and the release-dependent details
// (log formats, default rules) that change inside an era.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace kvplan {

enum class VllmEra {
  kV0Legacy,         // V0 engine before 0.7: one-line "Memory profiling results" log
  kV0,               // V0 engine 0.7 to 0.10: per-instance accounting, multi-line log
  kV1Early,          // V1 up to 0.9.1: global (total - free) counted as non-torch
  kV1,               // V1 0.9.2 to 0.19: per-instance accounting
  kV1GraphEstimate,  // V1 0.20+: CUDA-graph memory estimate subtracted by default
};

struct VllmRelease {
  int major = 0, minor = 0, patch = 0;
  std::string text;  // as given ("0.15.2rc1.dev93+g11a4c9d30") or the newest modelled
  // A release after kVllmNewest: planned with the newest rules, and said so.
  bool newer_than_modelled = false;

  bool AtLeast(int ma, int mi, int pa = 0) const;
};

// Parses "0.10.1", "v0.15.2rc1.dev93+g...", "" (newest modelled). Throws
// InputError for text that is not a release or one before 0.6.0; a release after the newest
// modelled one is marked `newer_than_modelled`.
VllmRelease ParseVllmRelease(const std::string& version);

// The era `release` runs in; `use_v1` is VLLM_USE_V1 when the user set it.
// Throws InputError when the requested engine does not exist in that release.
VllmEra VllmEraFor(const VllmRelease& release, std::optional<bool> use_v1);

std::string VllmEraName(VllmEra era);
bool IsV0(VllmEra era);

inline constexpr const char* kVllmNewest = "0.28.0";

struct FlagTable;

// vLLM's own argument parser for `release` from data/flags/vllm/: that release's table, or for a
// release, rc or dev build without one the nearest older table (then `*older_note`, when given,
// says so in one line: OlderFlagTableNote). nullptr for text that is no modelled release.
const FlagTable* VllmFlagTableFor(const std::string& release, std::string* older_note = nullptr);

// How vLLM `release` spells `flag`, one of kvplan's suggested flags
// (engines/common/suggested_flags.h); a release kvplan cannot read keeps `flag`.
std::string VllmFlagToWrite(const std::string& release, std::string_view flag);

}  // namespace kvplan
