// Precompiled for the test binary (CMakeLists.txt, KVPLAN_PCH): GoogleTest,
// the JSON library and the standard and fmt headers nearly every test
// includes, parsed once per build instead of once per test file. Each file
// still includes what it uses, so no code depends on this list.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/core.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
