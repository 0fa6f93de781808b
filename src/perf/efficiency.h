// The achieved-efficiency factors of the step-time model; the type is public
// (kvplan/efficiency.h) because kvplan perf and kvplan tune take overrides.
#pragma once

#include "kvplan/efficiency.h"
