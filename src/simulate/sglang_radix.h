// SGLang's cache-aware queue order (--schedule-policy lpm), beside its
// scheduler (sglang_scheduler.h) so the scheduler's own file keeps one call.
#pragma once

#include "simulate/scheduler.h"

namespace kvplan {

// managers/schedule_policy.py SchedulePolicy.calc_priority (v0.5), policy lpm:
// the received waiting requests, longest cached prefix first; a request whose
// cached match is short but which shares a prefix with one earlier in the
// queue goes last (in-batch prefix caching: the first computes the prefix, the
// rest hit it later). More than 128 waiting: FCFS (no sorting).
void SortByLongestPrefix(SchedulerState* s);

}  // namespace kvplan
