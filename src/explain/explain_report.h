// `kvplan explain`: a run's memory accounting rebuilt from its log, checked
// against kvplan's engine model, and optionally re-planned with changed flags.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "logs/run_record.h"

namespace kvplan {

struct ExplainOptions {
  std::vector<std::pair<std::string, std::string>> sets;  // --set FLAG=VALUE, in order
};

// Human-readable report. Throws InputError for a --set kvplan cannot re-plan.
std::string ExplainText(const RunRecord& run, const std::string& log_path, int launches,
                        const ExplainOptions& options);
nlohmann::json ExplainJson(const RunRecord& run, const ExplainOptions& options);

// "FLAG=VALUE" -> {FLAG, VALUE}; throws InputError when there is no '='.
std::pair<std::string, std::string> ParseSet(const std::string& text);

}  // namespace kvplan
