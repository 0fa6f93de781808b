// A log file read whole into its launches, with the engines' default rules
// applied to what the log printed (explain/default_rule.h), and the choice of
// one of them: the log verbs' common first step. Reading alone is logs/.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logs/log_scanner.h"
#include "logs/run_record.h"

namespace kvplan {

struct LoadedLog {
  std::vector<RunRecord> runs;
  std::string content_hash;
  int64_t bytes = 0;
};

// The scan of a verb that reads a log without storing it: no content hash.
ScanOptions ReadOnlyScan();

// Throws InputError when the log cannot be read or holds no start-up lines.
LoadedLog LoadLog(const std::string& path, const ScanOptions& options = {});

// The same for a log held in memory (tests, pasted text); no error when it
// holds no start-up line (runs is then empty).
LoadedLog LoadLogText(std::string_view text);

// Launch `launch` (1-based; 0 = the last one). Throws InputError when out of range.
const RunRecord& PickLaunch(const LoadedLog& log, const std::string& path, int launch);

}  // namespace kvplan
