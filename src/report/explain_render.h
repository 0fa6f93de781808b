// report/'s internal pieces of `kvplan explain`'s rendering.
#pragma once

#include <string>

#include "explain/explain_types.h"

namespace kvplan {

// "Decode, measured" with kvplan's prediction beside it; nothing when the run
// has no decode reports.
void AppendDecodeSection(const ExplainResult& e, std::string* out);

// "1 running request", "4 running requests".
std::string RunningRequests(int64_t n);

}  // namespace kvplan
