// Splitting a line of the tests' data tables (tests/data/real/*.tsv): on a tab every field is
// kept, empty ones too (a column may be blank); on another separator (the args column's spaces)
// empty pieces are dropped.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace kvplan::testing {

inline std::vector<std::string> SplitFields(const std::string& line, char sep) {
  std::vector<std::string> out;
  std::stringstream in(line);
  std::string part;
  while (std::getline(in, part, sep)) {
    if (!part.empty() || sep == '\t') out.push_back(part);
  }
  return out;
}

}  // namespace kvplan::testing
