// The one table of the simulator's calibration factors by engine
// (kvplan/sim_calibration.h says what each factor means).
#pragma once

#include <cstdint>
#include <string>

#include "kvplan/sim_calibration.h"

namespace kvplan {

// The fitted defaults of the engine's release and the model's size (total parameters) with
// the user's overrides applied; throws InputError for a scale outside [0.1, 10] or a time
// outside [0, 1 hour].
SimCalibration SimCalibrationFor(const std::string& engine, const std::string& version,
                                 int64_t model_params, const SimCalibrationOverrides& o);

}  // namespace kvplan
