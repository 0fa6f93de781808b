// `kvplan diff`: what differs between two launches, the differences that
// matter first. Each changed setting kvplan can re-plan is applied alone, then
// all together, to the first run's measured memory, so the diff says which
// change moved the KV tokens or the outcome. report/ renders the result.
#pragma once

#include <string>

#include "explain/diff_types.h"
#include "logs/run_record.h"

namespace kvplan {

DiffResult DiffRuns(const RunRecord& a, const std::string& a_name, const RunRecord& b,
                    const std::string& b_name);

}  // namespace kvplan
