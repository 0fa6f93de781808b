// The plan schema (README.md "JSON output") as a JSON value, for the verbs
// that print plans inside their own documents (compare).
#pragma once

#include <nlohmann/json_fwd.hpp>

#include "kvplan/plan.h"

namespace kvplan {

nlohmann::json PlanToJson(const PlanResult& r, const PlanContext& ctx);

}  // namespace kvplan
