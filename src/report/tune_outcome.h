// The result of `kvplan tune` (kvplan/tune.h names it): the resolved request,
// the grid searched and the report, which the renderers need together (the
// launch command of a row is built from all three).
#pragma once

#include <string>
#include <vector>

#include "kvplan/tune.h"
#include "perf/perf_report.h"
#include "tune/tune.h"

namespace kvplan {

struct TuneOutcome {
  TuneRequest request;
  TuneSpace space;
  TuneReport report;
  std::vector<Assumption> assumed;  // what the search took because the user gave none
};

// The search's request from the user's names (checked; throws InputError).
TuneRequest TuneRequestOf(const TuneQuery& query);
// "--engine sglang@RELEASE" when the user named no release.
void AddReleaseAssumption(const TuneRequest& req, std::vector<Assumption>* assumed);
// A launch command to copy, broken before flags into lines of at most 100
// columns joined with shell continuations; `indent` spaces before each line.
std::string WrapCommand(const std::string& cmd, size_t indent);

}  // namespace kvplan
