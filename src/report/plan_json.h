// The plan schema (README.md "JSON output") as a JSON value, for the verbs
// that print plans inside their own documents (compare).
#pragma once

#include <cstdint>
#include <optional>

#include <nlohmann/json_fwd.hpp>

#include "kvplan/plan.h"

namespace kvplan {

// The JSON convention for a figure that may be unknown (README "JSON output"): the
// number, or null, never a sentinel such as 0 or -1.
nlohmann::json IntOrNull(std::optional<int64_t> v);

nlohmann::json PlanToJson(const PlanResult& r, const PlanContext& ctx);

}  // namespace kvplan
