#include "logs/run_record.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <unordered_set>

#include "kvplan/error.h"

namespace kvplan {
namespace {

std::optional<double> MinOf(const std::vector<MemoryPoint>& timeline, std::string_view stage,
                            std::optional<double> MemoryPoint::*field) {
  // Only each rank's first report counts: a draft model repeats the stages.
  // A set, not a list: a scan per point made 100k ranks take over 120 s.
  std::optional<double> best;
  std::unordered_set<std::string_view> seen;
  for (const MemoryPoint& p : timeline) {
    if (p.stage != stage || !seen.insert(p.rank).second) continue;
    const std::optional<double>& v = p.*field;
    if (v && (!best || *v < *best)) best = *v;
  }
  return best;
}

}  // namespace

const LoggedSetting* RunRecord::FindSetting(std::string_view key) const {
  for (const LoggedSetting& s : settings) {
    if (s.key == key) return &s;
  }
  return nullptr;
}

std::optional<double> RunRecord::Figure(std::string_view key) const {
  auto it = figures.find(std::string(key));
  if (it == figures.end()) return std::nullopt;
  return it->second;
}

std::optional<double> RunRecord::MinAvail(std::string_view stage) const {
  return MinOf(timeline, stage, &MemoryPoint::avail_gib);
}

std::optional<double> RunRecord::MinUsage(std::string_view stage) const {
  return MinOf(timeline, stage, &MemoryPoint::usage_gib);
}

int RunRecord::RankCount(std::string_view stage) const {
  std::unordered_set<std::string_view> ranks;
  for (const MemoryPoint& p : timeline) {
    if (p.stage == stage) ranks.insert(p.rank);
  }
  return static_cast<int>(ranks.size());
}

std::optional<double> RunRecord::SettingNumber(std::string_view key) const {
  const LoggedSetting* s = FindSetting(key);
  if (s == nullptr || s->value.empty()) return std::nullopt;
  double v = 0;
  const char* end = s->value.data() + s->value.size();
  auto [p, ec] = std::from_chars(s->value.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

int64_t RunRecord::SettingInt(std::string_view key, int64_t fallback) const {
  std::optional<double> v = SettingNumber(key);
  if (!v || !(std::fabs(*v) < 1e9)) return fallback;
  return static_cast<int64_t>(*v);
}

std::optional<int64_t> RunRecord::LoggedTp() const {
  for (std::string_view key : {"tp_size", "tensor_parallel_size"}) {
    if (int64_t tp = SettingInt(key, 0); tp > 0) return tp;
  }
  if (tp_from_ranks > 0) return tp_from_ranks;
  return std::nullopt;
}

}  // namespace kvplan
