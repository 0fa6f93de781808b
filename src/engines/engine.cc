#include "engines/engine.h"

#include <fmt/core.h>

#include "catalog/gpu.h"
#include "engines/sglang/sglang.h"
#include "engines/trtllm/trtllm.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"

namespace kvplan {

std::pair<std::string, std::string> SplitEngineSpec(const std::string& spec) {
  size_t at = spec.find('@');
  std::string engine = spec.substr(0, at);
  std::string version = at == std::string::npos ? "" : spec.substr(at + 1);
  if (!version.empty() && (version[0] == 'v' || version[0] == 'V')) version.erase(0, 1);
  if (at != std::string::npos && version.empty()) {
    throw InputError(fmt::format(
        "--engine '{}' has an empty version after '@' (expected e.g. {}@0.5.3)", spec, engine));
  }
  return {engine, version};
}

PlanResult PlanLaunch(const PlanRequest& req) {
  if (req.engine == "sglang") return PlanSglangRequest(req);
  if (req.engine == "vllm") return PlanVllmRequest(req);
  if (req.engine == "trtllm" || req.engine == "tensorrt-llm") return PlanTrtllmRequest(req);
  throw InputError(
      fmt::format("unknown engine '{}' (expected sglang, vllm or trtllm)", req.engine));
}

PlanContext PlanContextOf(const PlanRequest& req, const PlanResult& result) {
  PlanContext ctx;
  ctx.model = req.model.value_or("");
  if (ctx.model.empty()) {
    // The engine's own model flag: find it for the header.
    for (size_t i = 0; i + 1 < req.args.size(); ++i) {
      if (req.args[i] == "--model-path" || req.args[i] == "--model") ctx.model = req.args[i + 1];
    }
  }
  ctx.gpu = GpuLabel(req.gpu, req.gpu_capacity_mib);  // a file GPU by its name
  if (const Figure* g = result.FindFigure("gpus_per_replica")) {
    ctx.gpus = static_cast<int>(g->value);
  }
  return ctx;
}

}  // namespace kvplan
