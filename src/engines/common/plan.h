// What every engine planner returns and takes: the public plan types
// (kvplan/plan.h), seen by the engines under their old name.
#pragma once

#include "kvplan/plan.h"
