// `kvplan simulate`'s assumptions in the form the "Assumed:" renderers of
// perf and tune take (report/perf_assumed.h), so the three print alike.
#pragma once

#include <vector>

#include "kvplan/simulate.h"
#include "perf/perf_report.h"

namespace kvplan {

std::vector<Assumption> SimulateAssumptions(const SimulateResult& r);

}  // namespace kvplan
