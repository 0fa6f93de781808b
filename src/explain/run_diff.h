// `kvplan diff`: what differs between two launches, the differences that
// matter first. Each changed setting kvplan can re-plan is applied alone, then
// all together, to the first run's measured memory, so the diff says which
// change moved the KV tokens or the outcome.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

struct SettingChange {
  std::string key;
  std::string a, b;            // "" when the run does not print it
  std::string a_prov, b_prov;  // "user", "auto", "unknown"
  bool memory = false;         // shapes memory
  bool replanned = false;      // kvplan applied it to A's measured figures
  double rest_a_gib = 0, rest_b_gib = 0;
  std::optional<int64_t> tokens_a, tokens_b;
  bool ok_after = true;
  std::string error_after;
  bool explains_failure = false;  // alone, it turns A's success into B's failure
  std::string effect;             // one line, for the report
};

struct RunDiff {
  std::vector<SettingChange> changes;  // memory changes by effect first, then the rest
  bool together_replanned = false;
  std::string together;  // effect of all re-plannable changes together
};

RunDiff DiffRuns(const RunRecord& a, const RunRecord& b);

std::string DiffText(const RunDiff& diff, const RunRecord& a, const std::string& a_name,
                     const RunRecord& b, const std::string& b_name);

}  // namespace kvplan
