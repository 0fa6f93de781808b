// PLACEHOLDER until the SGLang planner lands.
#include "engines/engine.h"
#include "util/error.h"

namespace kvplan {
PlanResult PlanSglangRequest(const PlanRequest&) { throw InputError("not built yet"); }
}  // namespace kvplan
