// The workload options `kvplan simulate` and `kvplan tune` (sizing under a load)
// both take, registered in one place so the two verbs name and parse them alike.
#pragma once

#include "cli/command.h"
#include "kvplan/simulate.h"

namespace kvplan::cli {

// --rate, --arrival, --burstiness, --duration, --num-requests, --trace, the
// length options and --seed; --concurrency too when `closed_loop` (simulate
// only: sizing is for an arrival rate or a trace).
void AddWorkloadOptions(Command* cmd, WorkloadSpec* w, bool closed_loop);

// Counts past any benchmark are refused (one line, exit 2) before a simulation
// would spend hours on 2^63 requests or run on clipped lengths: simulate and
// tune's sizing both call it.
void CheckWorkloadBounds(const WorkloadSpec& w);

}  // namespace kvplan::cli
