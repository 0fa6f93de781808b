// --gpu and --gpu-capacity-mib, registered with the same words by every verb
// that takes a GPU (plan, explain, perf, tune, simulate, compare).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "cli/command.h"

namespace kvplan::cli {

// --gpu NAME|FILE.json; `required` for the verbs that cannot run without one.
void AddGpuOption(Command* cmd, std::string* gpu, bool required, const std::string& what = "");

// --gpu-capacity-mib: the nvidia-smi memory.total the card reports when it is
// not the catalog's; it also picks among the parts an ambiguous name stands for.
void AddGpuCapacityOption(Command* cmd, std::optional<int64_t>* capacity_mib);

}  // namespace kvplan::cli
