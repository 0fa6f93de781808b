// PLACEHOLDER: replaced by the TensorRT-LLM planner.
#include "engines/engine.h"
#include "util/error.h"

namespace kvplan {
PlanResult PlanTrtllmRequest(const PlanRequest&) {
  throw InputError("the TensorRT-LLM planner is not built yet");
}
}  // namespace kvplan
