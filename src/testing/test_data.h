// Where the tests' input files are (tests/data/README.md): real public data
// under real/, each file's source in a SOURCES.md beside it; inputs made by us
// under synthetic/. The one place that knows the layout.
#pragma once

#include <string>

namespace kvplan::testing {

inline std::string RealData(const std::string& name) {
  return std::string(KVPLAN_SOURCE_DIR) + "/tests/data/real/" + name;
}

inline std::string SyntheticData(const std::string& name) {
  return std::string(KVPLAN_SOURCE_DIR) + "/tests/data/synthetic/" + name;
}

}  // namespace kvplan::testing
