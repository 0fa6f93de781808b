// `kvplan explain`: a run's memory accounting rebuilt from its log, checked
// against kvplan's engine model, and optionally re-planned with changed flags.
// Computes the one ExplainResult that report/ renders as text and as JSON.
#pragma once

#include <string>
#include <utility>

#include "explain/explain_types.h"
#include "logs/run_record.h"

namespace kvplan {

// Throws InputError for a --set kvplan cannot re-plan.
ExplainResult ExplainRun(const RunRecord& run, const std::string& log_path, int launches,
                         const ExplainOptions& options);

// "FLAG=VALUE" -> {FLAG, VALUE}; throws InputError when there is no '='.
std::pair<std::string, std::string> ParseSet(const std::string& text);

}  // namespace kvplan
