#include "base/format.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "base/units.h"

namespace kvplan {

std::string FormatGiB(int64_t bytes, int digits) {
  return fmt::format("{:.{}f} GiB", ToGiB(bytes), digits);
}

std::string FormatFigure(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return WithThousands(static_cast<int64_t>(v));
  return fmt::format("{}", v);
}

size_t DisplayWidth(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

TextTable::TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }

void TextTable::AddRow(std::vector<std::string> row) { rows_.push_back(std::move(row)); }

std::string WrapText(const std::string& text, size_t indent, size_t width) {
  // The spaces between words are kept (aligned columns stay aligned) except at a break, where
  // the gap is dropped and the next line starts with `indent` spaces.
  std::string out, line;
  size_t line_width = 0;
  bool line_has_word = false;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t word_start = std::min(text.find_first_not_of(' ', pos), text.size());
    const std::string gap = text.substr(pos, word_start - pos);
    if (word_start == text.size()) break;  // trailing spaces
    size_t word_end = text.find(' ', word_start);
    if (word_end == std::string::npos) word_end = text.size();
    const std::string word = text.substr(word_start, word_end - word_start);
    pos = word_end;
    const size_t word_width = DisplayWidth(word);
    if (line_has_word && line_width + gap.size() + word_width > width) {
      out += line;
      out += '\n';
      line.assign(indent, ' ');
      line_width = indent;
    } else {
      line += gap;
      line_width += gap.size();
    }
    line += word;
    line_width += word_width;
    line_has_word = true;
  }
  out += line;
  out += '\n';
  return out;
}

namespace {

// Narrower than this, a wrapped last column would read worse than a long line.
constexpr size_t kMinWrappedColumn = 24;

}  // namespace

std::string TextTable::Render(int indent, size_t max_width) const {
  std::vector<size_t> width;
  for (const auto& row : rows_) {
    if (width.size() < row.size()) width.resize(row.size(), 0);
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], DisplayWidth(row[i]));
  }
  std::string out;
  for (const auto& row : rows_) {
    std::string line(static_cast<size_t>(indent), ' ');
    size_t column = static_cast<size_t>(indent);
    for (size_t i = 0; i + 1 < row.size(); ++i) {
      line += row[i];
      line += std::string(width[i] - DisplayWidth(row[i]) + 2, ' ');
      column += width[i] + 2;
    }
    const std::string last = row.empty() ? "" : row.back();
    if (column + DisplayWidth(last) > max_width && column + kMinWrappedColumn <= max_width) {
      // WrapText's first line starts at column 0: pad it to where the cell starts, then drop
      // the padding again.
      const std::string wrapped =
          WrapText(std::string(column, 'x') + " " + last, column, max_width);
      if (wrapped[column] == ' ') {  // else the cell's first word alone is too long: leave it
        line += wrapped.substr(column + 1);
        out += line;
        continue;
      }
    }
    line += last;
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace kvplan
