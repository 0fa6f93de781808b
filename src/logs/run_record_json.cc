#include "logs/run_record_json.h"

#include <nlohmann/json.hpp>

#include "kvplan/error.h"
#include "logs/json_int.h"

namespace kvplan {
namespace {

nlohmann::json Optional(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

std::optional<double> OptionalFrom(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return std::nullopt;
  return j.at(key).get<double>();
}

}  // namespace

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
    r.gpu_capacity_mib = IntAt<int64_t>(j, "gpu_capacity_mib");
    r.gpu_count = IntAt<int>(j, "gpu_count");
    r.launch_command = j.at("launch_command");
    for (const auto& s : j.at("settings")) {
      r.settings.push_back({s.at("key"), s.at("value"), s.at("provenance"), s.at("rule")});
    }
    r.settings_complete = j.at("settings_complete");
    for (const auto& p : j.at("timeline")) {
      r.timeline.push_back({p.at("rank"), p.at("time"), p.at("stage"), OptionalFrom(p, "avail_gib"),
                            OptionalFrom(p, "usage_gib"), IntAt<int64_t>(p, "line")});
    }
    r.figures = j.at("figures").get<std::map<std::string, double>>();
    r.cuda_graph_bs = IntsAt<int64_t>(j, "cuda_graph_bs");
    r.outcome = j.at("outcome");
    r.error = j.at("error");
    r.traceback = j.at("traceback").get<std::vector<std::string>>();
    r.notes = j.at("notes").get<std::vector<std::string>>();
    r.launch_index = IntAt<int>(j, "launch_index");
    r.first_line = IntAt<int64_t>(j, "first_line");
    r.last_line = IntAt<int64_t>(j, "last_line");
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
