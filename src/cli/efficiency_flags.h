// Command-line overrides of the efficiency factors (perf/efficiency.h), shared
// by `kvplan perf` and `kvplan tune`, so a user can calibrate the model from
// one measured step.
#pragma once

#include "cli/command.h"
#include "kvplan/efficiency.h"

namespace kvplan::cli {

void AddEfficiencyOptions(Command* cmd, Efficiency* eff);

}  // namespace kvplan::cli
