// The result of `kvplan tune` (kvplan/tune.h names it): the resolved request,
// the grid searched and the report, which the renderers need together (the
// launch command of a row is built from all three).
#pragma once

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

}  // namespace kvplan
