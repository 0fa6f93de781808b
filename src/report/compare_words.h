// The words `kvplan compare` prints in both its text and its JSON: each
// engine's budget rule and the one line on where the KV difference comes from.
#pragma once

#include <string>
#include <vector>

#include "kvplan/compare.h"

namespace kvplan {

// "SGLang", "vLLM", "TRT-LLM".
std::string CompareEngineName(const std::string& engine);
// Full-length requests the KV cache holds at once.
double CompareConcurrency(const PlanResult& r);
// How the engine turns its knob into a KV budget, in a few words.
std::string BudgetRule(const PlanResult& r);
// The one line on where the difference in KV capacity comes from.
std::string CompareDifference(const std::vector<CompareRow>& rows);

}  // namespace kvplan
