// `kvplan diff`'s decode part: what the two runs measured while decoding, side
// by side at a running-request count both reported, and — when B decodes
// slower or accepts fewer draft tokens — the difference that explains it.
#pragma once

#include <optional>
#include <string>

#include "logs/run_record.h"

namespace kvplan {

// The running-request count to compare at: A's most common when B has it, else
// B's most common when A has it, else 1 when both have it; nullopt otherwise.
std::optional<int64_t> CommonBatch(const RunRecord& a, const RunRecord& b);

// One line beginning "B decodes ..." or "B accepts ...", or "" when B is not
// slower (by 5 %) and does not accept less (by 0.1 token per step).
std::string DecodeVerdict(const RunRecord& a, const RunRecord& b);

// The section, "" when neither run has decode reports.
std::string DecodeDiffText(const RunRecord& a, const RunRecord& b);

}  // namespace kvplan
