#include "logs/run_record.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "kvplan/error.h"

namespace kvplan {
namespace {

std::optional<double> MinOf(const std::vector<MemoryPoint>& timeline, std::string_view stage,
                            std::optional<double> MemoryPoint::*field) {
  // Only each rank's first report counts: a draft model repeats the stages.
  std::optional<double> best;
  std::vector<std::string_view> seen;
  for (const MemoryPoint& p : timeline) {
    if (p.stage != stage || std::find(seen.begin(), seen.end(), p.rank) != seen.end()) continue;
    seen.push_back(p.rank);
    const std::optional<double>& v = p.*field;
    if (v && (!best || *v < *best)) best = *v;
  }
  return best;
}

nlohmann::json Optional(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<double> OptionalFrom(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
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
  std::vector<std::string> ranks;
  for (const MemoryPoint& p : timeline) {
    if (p.stage == stage && std::find(ranks.begin(), ranks.end(), p.rank) == ranks.end()) {
      ranks.push_back(p.rank);
    }
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

nlohmann::json ToJson(const RunRecord& r) {
  nlohmann::json settings = nlohmann::json::array();
  for (const LoggedSetting& s : r.settings) {
    settings.push_back(
        {{"key", s.key}, {"value", s.value}, {"provenance", s.provenance}, {"rule", s.rule}});
  }
  nlohmann::json timeline = nlohmann::json::array();
  for (const MemoryPoint& p : r.timeline) {
    timeline.push_back({{"rank", p.rank},
                        {"time", p.time},
                        {"stage", p.stage},
                        {"avail_gib", Optional(p.avail_gib)},
                        {"usage_gib", Optional(p.usage_gib)},
                        {"line", p.line}});
  }
  nlohmann::json j = {{"engine", r.engine},
                      {"version", r.version},
                      {"era", r.era},
                      {"model", r.model},
                      {"model_class", r.model_class},
                      {"dtype", r.dtype},
                      {"kv_dtype", r.kv_dtype},
                      {"gpu_name", r.gpu_name},
                      {"gpu_capacity_mib", r.gpu_capacity_mib},
                      {"gpu_count", r.gpu_count},
                      {"launch_command", r.launch_command},
                      {"settings", settings},
                      {"settings_complete", r.settings_complete},
                      {"timeline", timeline},
                      {"figures", r.figures},
                      {"cuda_graph_bs", r.cuda_graph_bs},
                      {"outcome", r.outcome},
                      {"error", r.error},
                      {"traceback", r.traceback},
                      {"notes", r.notes},
                      {"launch_index", r.launch_index},
                      {"first_line", r.first_line},
                      {"last_line", r.last_line},
                      {"started_at", r.started_at}};
  if (!r.decode.empty()) j["decode"] = ToJson(r.decode);
  return j;
}

RunRecord RunRecordFromJson(const nlohmann::json& j) {
  try {
    RunRecord r;
    r.engine = j.at("engine");
    r.version = j.at("version");
    r.era = j.at("era");
    r.model = j.at("model");
    r.model_class = j.at("model_class");
    r.dtype = j.at("dtype");
    r.kv_dtype = j.at("kv_dtype");
    r.gpu_name = j.at("gpu_name");
    r.gpu_capacity_mib = j.at("gpu_capacity_mib");
    r.gpu_count = j.at("gpu_count");
    r.launch_command = j.at("launch_command");
    for (const auto& s : j.at("settings")) {
      r.settings.push_back({s.at("key"), s.at("value"), s.at("provenance"), s.at("rule")});
    }
    r.settings_complete = j.at("settings_complete");
    for (const auto& p : j.at("timeline")) {
      r.timeline.push_back({p.at("rank"), p.at("time"), p.at("stage"), OptionalFrom(p, "avail_gib"),
                            OptionalFrom(p, "usage_gib"), p.at("line")});
    }
    r.figures = j.at("figures").get<std::map<std::string, double>>();
    r.cuda_graph_bs = j.at("cuda_graph_bs").get<std::vector<int64_t>>();
    r.outcome = j.at("outcome");
    r.error = j.at("error");
    r.traceback = j.at("traceback").get<std::vector<std::string>>();
    r.notes = j.at("notes").get<std::vector<std::string>>();
    r.launch_index = j.at("launch_index");
    r.first_line = j.at("first_line");
    r.last_line = j.at("last_line");
    r.started_at = j.at("started_at");
    if (j.contains("decode") && !j.at("decode").is_null()) {
      r.decode = DecodeSummaryFromJson(j.at("decode"));
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw InputError(std::string("stored run record is not readable: ") + e.what());
  }
}

std::string DumpJson(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace kvplan
