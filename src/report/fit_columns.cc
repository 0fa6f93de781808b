#include "report/fit_columns.h"

#include "base/format.h"

namespace kvplan {
namespace {

// A hanging indent past this leaves too little room for the wrapped text.
constexpr size_t kMaxHangingIndent = 60;

}  // namespace

size_t HangingIndent(const std::string& line) {
  const size_t lead = std::min(line.find_first_not_of(' '), line.size());
  size_t indent = lead + 2;
  for (size_t i = lead; i + 2 < line.size() && i < kMaxHangingIndent; ++i) {
    if (line[i] == ' ' && line[i + 1] == ' ') {
      size_t end = line.find_first_not_of(' ', i);
      if (end == std::string::npos || end > kMaxHangingIndent) break;
      indent = end;
      i = end;
    }
  }
  return indent;
}

std::string FitToColumns(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    const bool last = nl == std::string::npos;
    const std::string line = text.substr(pos, last ? std::string::npos : nl - pos);
    pos = last ? text.size() : nl + 1;
    if (DisplayWidth(line) <= kTextColumns) {
      out += line;
      if (!last) out += '\n';
      continue;
    }
    std::string wrapped = WrapText(line, HangingIndent(line));
    if (last) wrapped.pop_back();  // WrapText ends with '\n'; the text did not
    out += wrapped;
  }
  return out;
}

}  // namespace kvplan
