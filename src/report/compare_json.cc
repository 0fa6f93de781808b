// `kvplan compare --json`.
#include <nlohmann/json.hpp>

#include "kvplan/render.h"
#include "report/compare_words.h"

namespace kvplan {
namespace {

nlohmann::json RowJson(const CompareRow& r) {
  nlohmann::json e;
  e["engine"] = r.engine;
  if (!r.plan) {
    e["planned"] = false;
    e["error"] = r.error;
    return e;
  }
  const PlanResult& p = *r.plan;
  e["planned"] = true;
  e["version"] = p.engine_version;
  e["era"] = p.era;
  e["ok"] = p.ok;
  e["error_message"] = p.error_message;
  e["fraction_name"] = p.fraction_name;
  e["fraction"] = p.fraction;
  e["budget_rule"] = BudgetRule(p);
  e["kv_budget_bytes"] = p.rest_memory_bytes;
  e["weights_bytes_per_gpu"] = p.weights_bytes_per_gpu;
  e["kv_bytes_per_token"] = p.cell_size_bytes;
  e["kv_tokens"] = p.max_total_num_tokens;
  e["context_length"] = p.context_length;
  e["max_concurrency"] = CompareConcurrency(p);
  return e;
}

}  // namespace

std::string RenderCompareJson(const CompareResult& c) {
  nlohmann::json j;
  j["model"] = c.request.model;
  j["gpu"] = c.request.gpu;
  j["tp"] = c.request.tp;
  j["context_length"] = c.context_length;
  j["engines"] = nlohmann::json::array();
  for (const CompareRow& r : c.rows) j["engines"].push_back(RowJson(r));
  j["difference"] = CompareDifference(c.rows);
  return j.dump(2);
}

}  // namespace kvplan
