// The check of user-given efficiency factors (perf/efficiency.h); the flags
// that set them are cli/efficiency_flags.h.
#pragma once

#include "perf/efficiency.h"

namespace kvplan {

// Throws InputError for factors outside (0, 1] or negative overheads.
Efficiency CheckedEfficiency(const Efficiency& e);

}  // namespace kvplan
