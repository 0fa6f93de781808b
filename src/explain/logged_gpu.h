// The GPU a log names (nvidia-smi's "NVIDIA H100 80GB HBM3") in kvplan's
// catalog, whose aliases drop the vendor prefix; or, when the catalog lacks it
// or the log names none, a stand-in for the planners.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "logs/run_record.h"

namespace kvplan {

// nullptr when the name is empty, not in the catalog, or a name nvidia-smi cut
// short ("NVIDIA RTX PRO 6000 Blac...") that several catalog GPUs start with
// and `capacity_mib` (the table's memory.total, 0 when absent) does not single out.
const GpuSpec* FindLoggedGpu(const std::string& nvidia_smi_name, int64_t capacity_mib = 0);

// Why a name the log prints finds no one GPU, in one clause naming the
// candidates and the flag that picks one; "" when it finds one or none.
std::string LoggedGpuAmbiguity(const std::string& nvidia_smi_name, int64_t capacity_mib = 0);

// What the performance model lacks for a GPU the catalog does not know, and
// where it comes from: one line for any verb that cannot predict step times.
std::string MissingPerfFiguresHint(const std::string& gpu_name);

// The run's GPU from the catalog; else a stand-in whose total is
// `measured_total_bytes` (what the log measured) and whose capacity is the
// nvidia-smi figure (0 when the log has none). `note` says which.
GpuSpec LoggedGpu(const RunRecord& run, int64_t measured_total_bytes,
                  const std::string& total_source, std::string* note);

// A GPU capacity (nvidia-smi memory.total, MiB) the default rules can read,
// and where it came from.
struct GpuCapacityGuess {
  int64_t capacity_mib = 0;
  std::string source;  // "nvidia-smi in the log", "--gpu", "inferred from the figures: ..."
  bool inferred = false;
};

// The run's GPU capacity when the log (nvidia-smi table, the GPU's name) or
// --gpu gives it: one entry. Otherwise every distinct catalog capacity that
// `in_use_gib` (memory the figures show free or used on one GPU) fits under
// with less than 15 % to spare, smallest first; empty when none does.
std::vector<GpuCapacityGuess> GpuCapacityCandidates(const RunRecord& run, double in_use_gib);

}  // namespace kvplan
