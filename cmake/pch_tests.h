// Precompiled for the test binary: GoogleTest and the headers nearly every test
// includes (see cmake/pch_library.h for why this is only a build-speed measure).
#pragma once

#include "pch_library.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
