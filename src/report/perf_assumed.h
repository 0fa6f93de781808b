// The parts `kvplan perf` and `kvplan tune` print alike: the "Assumed:"
// section (values chosen because the user gave none) and text wrapped to
// the 100 columns of a terminal.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/format.h"
#include "perf/perf_report.h"

namespace kvplan {

// "Assumed:" and one line per assumption ("  --context 4096 tokens: why"),
// or "" when nothing was assumed.
std::string RenderAssumedText(const std::vector<Assumption>& assumed);

// {"context": {"value": 4096, "why": "..."}, ...}: a list value as an array.
nlohmann::json AssumedJson(const std::vector<Assumption>& assumed);

// "Notes:" and one wrapped bullet per note, or "" without notes.
std::string RenderNotesText(const std::vector<std::string>& notes);

}  // namespace kvplan
