// `kvplan gpus --json`: every field in base units, with sources and the names
// each GPU answers to.
#include <nlohmann/json.hpp>

#include "catalog/gpu_json.h"
#include "kvplan/render.h"
#include "logs/run_record_json.h"

namespace kvplan {

std::string RenderGpusJson(const std::vector<GpuSpec>& gpus) {
  nlohmann::json out = nlohmann::json::array();
  for (const GpuSpec& gpu : gpus) {
    nlohmann::json j = GpuToJson(gpu);
    // Names shared with other GPUs: refused alone, resolved by --gpu-capacity-mib where the
    // parts report different capacities.
    j["ambiguous_aliases"] = nlohmann::json::array();
    for (const auto& [name, ids] : AmbiguousGpuNames()) {
      for (const std::string& id : ids) {
        if (id == gpu.id) j["ambiguous_aliases"].push_back(name);
      }
    }
    out.push_back(std::move(j));
  }
  return DumpJson(out, 2);
}

}  // namespace kvplan
