// Splitting a line of the tests' data tables (tests/data/real/*.tsv): on a tab every field is
// kept, empty ones too (a column may be blank); on another separator (the args column's spaces)
// empty pieces are dropped.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "testing/test_data.h"

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

// The data rows of tests/data/real/<name>, each split on tabs: blank lines and # comments are
// skipped, and a row without `columns` fields fails the test and is left out.
inline std::vector<std::vector<std::string>> RealTsvRows(const std::string& name, size_t columns) {
  std::ifstream in(RealData(name));
  EXPECT_TRUE(in.good()) << name;
  std::vector<std::vector<std::string>> rows;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> c = SplitFields(line, '\t');
    if (c.size() != columns) {
      ADD_FAILURE() << name << ": " << columns << " columns expected: " << line;
      continue;
    }
    rows.push_back(std::move(c));
  }
  return rows;
}

}  // namespace kvplan::testing
