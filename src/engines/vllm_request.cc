// PLACEHOLDER: replaced by the vLLM planner.
#include "engines/engine.h"
#include "util/error.h"

namespace kvplan {
PlanResult PlanVllmRequest(const PlanRequest&) {
  throw InputError("the vLLM planner is not built yet");
}
}  // namespace kvplan
