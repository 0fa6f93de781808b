// Precompiled for every library layer (CMakeLists.txt, target_precompile_headers):
// the standard and fmt headers nearly every translation unit includes. Parsed
// once per build instead of once per file; each file still includes what it
// uses, so the code does not depend on this list.
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
