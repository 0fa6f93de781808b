// Small text-formatting helpers shared by the reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/text.h"

namespace kvplan {

// Bytes as GiB with `digits` decimals: "10.417 GiB".
std::string FormatGiB(int64_t bytes, int digits = 2);

// A logged figure as people write it: counts with thousands separators
// (1,823,372), other figures as printed (15.6841, 0.9).
std::string FormatFigure(double v);

// The width kvplan's text output keeps to: a terminal's 100 columns.
inline constexpr size_t kTextColumns = 100;

// `text` broken at spaces into lines of at most `width` columns (UTF-8 code
// points); lines after the first start with `indent` spaces. A word longer
// than a line (a path, a URL) stays whole. Each line ends with '\n'.
std::string WrapText(const std::string& text, size_t indent, size_t width = kTextColumns);

// A plain left-aligned text table with a header row. A row wider than
// `max_width` has its last cell wrapped under that column, so prose columns
// ("how", "effect") keep the table inside a terminal.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header);
  void AddRow(std::vector<std::string> row);
  std::string Render(int indent = 2, size_t max_width = kTextColumns) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

// Number of terminal columns a UTF-8 string takes (one per code point).
size_t DisplayWidth(const std::string& s);

}  // namespace kvplan
