// `kvplan models --json` and `kvplan models show --json`.
#include <nlohmann/json.hpp>

#include "catalog/model_json.h"
#include "kvplan/render.h"
#include "logs/run_record_json.h"
#include "report/catalog_results.h"

namespace kvplan {

std::string RenderModelsJson(const ModelListing& models) {
  nlohmann::json out = nlohmann::json::array();
  for (const ModelListing::Entry& e : models.entries) {
    nlohmann::json j = ModelSpecToJson(e.model);
    j["total_params"] = e.total_params;
    out.push_back(std::move(j));
  }
  return DumpJson(out, 2);
}

std::string RenderArchitecturesJson(const ArchitectureListing& a) {
  nlohmann::json out = nlohmann::json::array();
  for (const ArchitectureRow& r : a.rows) {
    out.push_back({{"architecture", r.architecture},
                   {"family", r.family},
                   {"layers", r.layers},
                   {"mlp", r.mlp},
                   {"notes", r.notes},
                   {"accepted", r.accepted}});
  }
  return DumpJson(out, 2);
}

std::string RenderModelShowJson(const ModelShow& s) {
  nlohmann::json j = ModelSpecToJson(s.model);
  j["parallelism"] = {{"tp", s.par.tp},
                      {"pp", s.par.pp},
                      {"dp", s.par.dp},
                      {"ep", s.par.ep},
                      {"dp_attention", s.par.dp_attention},
                      {"dp_lm_head", s.par.dp_lm_head}};
  j["weights"] = WeightEstimateToJson(s.weights);
  j["sharding_problems"] = s.sharding_problems;
  return DumpJson(j, 2);
}

}  // namespace kvplan
