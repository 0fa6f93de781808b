// Small text-formatting helpers shared by the reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/text.h"

namespace kvplan {

// Bytes as GiB with `digits` decimals: "10.417 GiB".
std::string FormatGiB(int64_t bytes, int digits = 2);

// A plain left-aligned text table with a header row.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void AddRow(std::vector<std::string> row);
  std::string Render(int indent = 2) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// Number of terminal columns a UTF-8 string takes (one per code point).
size_t DisplayWidth(const std::string& s);

}  // namespace kvplan
