// Renders a PlanResult for people (text) and for machines (JSON; the schema
// is documented in README.md "JSON output").
#pragma once

#include <string>

#include "engines/common/plan.h"

namespace kvplan {

struct PlanContext {
  std::string model;  // model id as given
  std::string gpu;    // GPU id
  int gpus = 1;       // GPUs per replica (tp * pp)
};

std::string RenderPlanText(const PlanResult& r, const PlanContext& ctx);
std::string RenderPlanJson(const PlanResult& r, const PlanContext& ctx);
// The memory bar of one GPU, `width` cells wide, with a legend.
std::string RenderMemoryBar(const PlanResult& r, int width = 60);

}  // namespace kvplan
