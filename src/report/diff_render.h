// report/'s internal pieces of `kvplan diff`'s rendering.
#pragma once

#include <string>

#include "explain/diff_types.h"

namespace kvplan {

// One line beginning "B decodes ..." or "B accepts ...", or "" when B is not
// slower (by 5 %) and does not accept less (by 0.1 token per step).
std::string DecodeVerdict(const DiffResult& diff);

// "Decode, measured side by side"; "" when neither run has decode reports.
std::string DecodeDiffText(const DiffResult& diff);

}  // namespace kvplan
