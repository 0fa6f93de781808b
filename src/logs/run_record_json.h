// Run records and decode summaries as JSON: how the run history stores them
// and how `explain --json` and `runs --json` print them. Only the files that
// build JSON include <nlohmann/json.hpp>; this header needs the forward one.
#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "logs/run_record.h"

namespace kvplan {

// "decode" is written only when the run has decode reports, and may be absent
// when read (records stored before kvplan read decode reports).
nlohmann::json ToJson(const RunRecord& run);
// Throws InputError when `j` is not a run record.
RunRecord RunRecordFromJson(const nlohmann::json& j);

nlohmann::json ToJson(const DecodeSummary& s);
// Throws nlohmann::json::exception when `j` is not a summary, InputError when
// a count is not an integer in range.
DecodeSummary DecodeSummaryFromJson(const nlohmann::json& j);

// JSON text that survives invalid UTF-8 in a log (replaced by U+FFFD).
std::string DumpJson(const nlohmann::json& j, int indent = -1);

}  // namespace kvplan
