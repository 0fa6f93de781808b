#include <cmath>

#include <nlohmann/json.hpp>

#include "kvplan/render.h"
#include "logs/run_record_json.h"
#include "report/plan_json.h"

namespace kvplan {

namespace {

nlohmann::json FiguresJson(const std::vector<Figure>& figures) {
  nlohmann::json j = nlohmann::json::object();
  for (const Figure& f : figures) {
    if (!f.text.empty()) {
      j[f.key] = f.text;
    } else if (f.value == std::floor(f.value) && std::fabs(f.value) < 9.0e15) {
      j[f.key] = static_cast<int64_t>(f.value);  // counts print as integers
    } else {
      j[f.key] = f.value;
    }
  }
  return j;
}

const char* KvScopeKey(KvScope::Kind kind) {
  switch (kind) {
    case KvScope::Kind::kGpu:
      return "gpu";
    case KvScope::Kind::kReplica:
      return "replica";
    case KvScope::Kind::kDpRank:
      return "dp_attention_rank";
  }
  return "gpu";
}

// Whose tokens max_total_num_tokens counts, and the whole deployment's.
nlohmann::json KvScopeJson(const PlanResult& r) {
  const KvScope& s = r.kv_scope;
  return {{"per", KvScopeKey(s.kind)},
          {"gpus_per_pool", s.gpus},
          {"pools", s.pools},
          {"deployment_kv_tokens", r.max_total_num_tokens * s.pools}};
}

}  // namespace

nlohmann::json IntOrNull(std::optional<int64_t> v) { return v ? nlohmann::json(*v) : nullptr; }

nlohmann::json PlanToJson(const PlanResult& r, const PlanContext& ctx) {
  using nlohmann::json;
  json j;
  j["engine"] = r.engine;
  j["engine_version"] = r.engine_version;
  j["era"] = r.era;
  j["model"] = ctx.model;
  j["gpu"] = ctx.gpu;
  j["gpus_per_replica"] = ctx.gpus;
  j["status"] = r.ok ? "ok" : (r.not_modelled ? "not_modelled" : "fail");
  j["error_message"] = r.ok ? json(nullptr) : json(r.error_message);
  j[r.fraction_name] = {{"value", r.fraction}, {"source", r.fraction_user ? "user" : "auto"}};
  j["gpu_total_bytes"] = r.gpu_total_bytes;
  j["pre_load_free_bytes"] = r.pre_load_free_bytes;
  j["post_load_free_bytes"] = r.post_load_free_bytes;
  j["weights_bytes_per_gpu"] = r.weights_bytes_per_gpu;
  j["rest_memory_bytes"] = r.rest_memory_bytes;
  j["cell_size_bytes"] = r.cell_size_bytes;
  j["max_total_num_tokens"] = r.max_total_num_tokens;
  j["kv_scope"] = KvScopeJson(r);
  j["max_running_requests"] = r.max_running_requests;
  j["context_length"] = r.context_length;
  json settings = json::array();
  for (const Setting& s : r.settings) {
    settings.push_back({{"flag", s.flag},
                        {"value", s.value},
                        {"source", s.user ? "user" : "auto"},
                        {"rule", s.rule}});
  }
  j["settings"] = settings;
  json stages = json::array();
  for (const Stage& s : r.stages) {
    stages.push_back(
        {{"name", s.name}, {"formula", s.formula}, {"bytes", s.bytes}, {"source", s.source}});
    if (!s.value.empty()) stages.back()["value"] = s.value;
  }
  j["stages"] = stages;
  json memory = json::array();
  for (const MemorySlice& m : r.memory) memory.push_back({{"label", m.label}, {"bytes", m.bytes}});
  j["memory"] = memory;
  j["figures"] = FiguresJson(r.figures);
  json fixes = json::array();
  for (const Fix& f : r.fixes)
    fixes.push_back({{"flag", f.flag}, {"value", f.value}, {"effect", f.effect}});
  j["fixes"] = fixes;
  j["warnings"] = r.warnings;
  return j;
}

std::string RenderPlanJson(const PlanResult& r, const PlanContext& ctx) {
  return DumpJson(PlanToJson(r, ctx), 2);
}

}  // namespace kvplan
