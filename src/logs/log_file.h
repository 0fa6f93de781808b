// A log file read whole into its launches, and the choice of one of them (the
// log verbs' common first step).
#pragma once

#include <string>
#include <vector>

#include "logs/run_record.h"

namespace kvplan {

struct LoadedLog {
  std::vector<RunRecord> runs;
  std::string content_hash;
};

// Throws InputError when the log cannot be read or holds no start-up lines.
LoadedLog LoadLog(const std::string& path);

// Launch `launch` (1-based; 0 = the last one). Throws InputError when out of range.
const RunRecord& PickLaunch(const LoadedLog& log, const std::string& path, int launch);

}  // namespace kvplan
