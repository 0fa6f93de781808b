// Command-line overrides of the efficiency factors (perf/efficiency.h), shared
// by `kvplan perf` and `kvplan tune`, so a user can calibrate the model from
// one measured step.
#pragma once

#include "cli/command.h"
#include "kvplan/efficiency.h"
#include "kvplan/sim_calibration.h"

namespace kvplan::cli {

void AddEfficiencyOptions(Command* cmd, Efficiency* eff);
// The simulator's calibration factors, shared by `kvplan simulate` and
// `kvplan tune`'s sizing under a load.
void AddCalibrationOptions(Command* cmd, SimCalibrationOverrides* c);

}  // namespace kvplan::cli
