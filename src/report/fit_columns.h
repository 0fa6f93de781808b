// The last step of every text renderer whose lines are built without a width
// in mind: each line wider than kTextColumns is wrapped under its own content
// (after the label or table columns that start it), so output stays inside a
// 100-column terminal whatever the log's texts. Lines that fit are unchanged.
#pragma once

#include <string>

namespace kvplan {

std::string FitToColumns(const std::string& text);

// Where a wrapped line of `line` continues: after the last run of two or more
// spaces in its first columns (the start of a table's last cell or a label's
// value), else two columns in from the line's own indentation.
size_t HangingIndent(const std::string& line);

}  // namespace kvplan
