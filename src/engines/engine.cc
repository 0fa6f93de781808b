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

namespace {

PlanResult PlanWithEngine(const PlanRequest& req) {
  if (req.engine == "sglang") return PlanSglangRequest(req);
  if (req.engine == "vllm") return PlanVllmRequest(req);
  if (req.engine == "trtllm" || req.engine == "tensorrt-llm") return PlanTrtllmRequest(req);
  throw InputError(
      fmt::format("unknown engine '{}' (expected sglang, vllm or trtllm)", req.engine));
}

// Which release was planned and why, first among the warnings: a release kvplan chose
// itself is never silent (engines' rules differ by release; the story's working run and
// the failing one were 0.88 and 0.55 of the same GPU because of one).
std::string ReleaseNote(const PlanRequest& asked, const PlanRequest& planned, const PlanResult& r) {
  const std::string& source = asked.pasted_release_source;
  if (!asked.version.empty()) {
    if (asked.pasted_release.empty() || asked.pasted_release == asked.version) return "";
    return fmt::format("--engine {}@{} plans {}; {} runs {}", asked.engine, asked.version,
                       asked.version, source, asked.pasted_release);
  }
  if (!planned.version.empty())
    return fmt::format("release {} read from {}", r.engine_version, source);
  return fmt::format(
      "{}: planned with {} {}, the newest rules kvplan has; pass --engine {}@VERSION for "
      "the one you run",
      source.empty() ? "no engine release given" : source + " names no release", r.engine,
      r.engine_version, asked.engine);
}

}  // namespace

PlanResult PlanLaunch(const PlanRequest& req) {
  PlanRequest planned = req;
  if (planned.version.empty()) planned.version = req.pasted_release;
  PlanResult r = PlanWithEngine(planned);
  const std::string note = ReleaseNote(req, planned, r);
  if (!note.empty()) r.warnings.insert(r.warnings.begin(), note);
  return r;
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
