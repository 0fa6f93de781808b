#include "report/perf_assumed.h"

#include <algorithm>

#include <fmt/format.h>

namespace kvplan {
namespace {

// The flag that sets an assumption: its key with dashes (context -> --context).
std::string FlagOf(const std::string& key) {
  std::string flag("--");
  for (char c : key) flag += c == '_' ? '-' : c;
  return flag;
}

std::string ValueText(const Assumption& a) {
  if (!a.text.empty()) return a.text;
  std::string v;
  for (int64_t n : a.numbers) {
    if (!v.empty()) v += ',';
    v += std::to_string(n);
  }
  if (!a.unit.empty()) v.append(" ").append(a.unit);
  return v;
}

}  // namespace

std::string RenderAssumedText(const std::vector<Assumption>& assumed) {
  if (assumed.empty()) return "";
  std::string out = "Assumed:\n";
  for (const Assumption& a : assumed) {
    out += WrapText(fmt::format("  {} {}: {}", FlagOf(a.key), ValueText(a), a.why), 6);
  }
  return out;
}

nlohmann::json AssumedJson(const std::vector<Assumption>& assumed) {
  nlohmann::json j = nlohmann::json::object();
  for (const Assumption& a : assumed) {
    nlohmann::json value;
    if (!a.text.empty()) {
      value = a.text;
    } else if (a.list) {
      value = a.numbers;
    } else {
      value = a.numbers.empty() ? 0 : a.numbers[0];
    }
    j[a.key] = {{"value", value}, {"why", a.why}};
  }
  return j;
}

std::string RenderNotesText(const std::vector<std::string>& notes) {
  if (notes.empty()) return "";
  std::string out = "Notes:\n";
  for (const std::string& n : notes) out += WrapText(fmt::format("  - {}", n), 4);
  return out;
}

}  // namespace kvplan
