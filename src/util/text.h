// Number formatting shared by the engines' explanations and the reports.
#pragma once

#include <cstdint>
#include <string>

namespace kvplan {

// 1234567 -> "1,234,567"
std::string WithThousands(int64_t n);

}  // namespace kvplan
