// `kvplan gpus --json`: every field in base units, with sources.
#include <nlohmann/json.hpp>

#include "catalog/gpu_json.h"
#include "kvplan/render.h"
#include "logs/run_record_json.h"

namespace kvplan {

std::string RenderGpusJson(const std::vector<GpuSpec>& gpus) {
  nlohmann::json out = nlohmann::json::array();
  for (const GpuSpec& gpu : gpus) out.push_back(GpuToJson(gpu));
  return DumpJson(out, 2);
}

}  // namespace kvplan
