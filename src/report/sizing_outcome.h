// The result of `kvplan tune` under a load and an SLA (kvplan/tune.h names
// it): the resolved request, the sizing report and what was assumed; the
// renderers need them together (a winner's command and the SLA it met).
#pragma once

#include <vector>

#include "kvplan/tune.h"
#include "perf/perf_report.h"
#include "tune/sizing.h"

namespace kvplan {

struct SizingOutcome {
  SizingRequest request;
  SizingReport report;
  std::vector<Assumption> assumed;  // what sizing took because the user gave none
};

}  // namespace kvplan
