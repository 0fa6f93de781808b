// `kvplan compare --json`: each engine's launch in the plan schema (the keys
// of `kvplan plan --json`), with what compare adds.
#include <nlohmann/json.hpp>

#include "kvplan/render.h"
#include "logs/run_record_json.h"
#include "report/compare_words.h"
#include "report/plan_json.h"

namespace kvplan {
namespace {

nlohmann::json RowJson(const CompareRow& r) {
  if (!r.plan) {
    return {{"engine", r.engine}, {"planned", false}, {"error", r.error}};
  }
  nlohmann::json e = PlanToJson(*r.plan, r.context);
  e["planned"] = true;
  e["budget_rule"] = BudgetRule(*r.plan);
  e["max_concurrency"] = CompareConcurrency(*r.plan);
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
  return DumpJson(j, 2);
}

}  // namespace kvplan
