// `kvplan diff`'s decode part: the running-request count at which the two
// runs' measured decode is compared (report/diff_text.cc renders the section
// and the verdict that says which difference makes B slower).
#pragma once

#include <cstdint>
#include <optional>

#include "logs/run_record.h"

namespace kvplan {

// The running-request count to compare at: A's most common when B has it, else
// B's most common when A has it, else 1 when both have it; nullopt otherwise.
std::optional<int64_t> CommonBatch(const RunRecord& a, const RunRecord& b);

}  // namespace kvplan
