// Dispatch of a PlanRequest to the engine it names (PlanLaunch, declared in
// kvplan/plan.h with the request and result types).
#pragma once

#include "kvplan/plan.h"
