// `kvplan compare`'s computation: the same launch planned on every engine,
// each with the engine's own flag names and default memory knob.
#include <fmt/core.h>

#include <map>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "kvplan/compare.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

PlanRequest EngineRequest(const std::string& engine, const CompareRequest& o) {
  PlanRequest req;
  req.engine = engine;
  req.model = o.model;
  req.gpu = o.gpu;
  req.gpu_capacity_mib = o.gpu_capacity_mib;
  std::string tp = std::to_string(o.tp);
  std::string len = std::to_string(o.context_length);
  bool ctx = o.context_length > 0;
  if (engine == "sglang") {
    req.args = {"--tp", tp};
    if (ctx) req.args.insert(req.args.end(), {"--context-length", len});
  } else if (engine == "vllm") {
    req.args = {"--tensor-parallel-size", tp};
    if (ctx) req.args.insert(req.args.end(), {"--max-model-len", len});
  } else {
    req.args = {"--tp_size", tp};
    if (ctx) req.args.insert(req.args.end(), {"--max_seq_len", len});
  }
  return req;
}

// --engine NAME@VERSION words by engine; one error for an unknown engine, a missing
// version or an engine named twice.
std::map<std::string, std::string> ReleasesByEngine(const std::vector<std::string>& specs) {
  std::map<std::string, std::string> out;
  for (const std::string& spec : specs) {
    auto [engine, version] = SplitEngineSpec(spec);
    if (engine == "tensorrt-llm") engine = "trtllm";
    if (engine != "sglang" && engine != "vllm" && engine != "trtllm") {
      throw InputError(fmt::format(
          "--engine '{}': unknown engine (expected sglang, vllm or trtllm, with @VERSION)", spec));
    }
    if (version.empty()) {
      throw InputError(fmt::format(
          "--engine '{}' names no release: compare plans every engine, so --engine only picks "
          "one's release (e.g. {}@0.5.6)",
          spec, engine));
    }
    if (!out.emplace(engine, version).second) {
      throw InputError(fmt::format("--engine names {} twice", engine));
    }
  }
  return out;
}

}  // namespace

CompareResult CompareEngines(const CompareRequest& o) {
  if (o.tp < 1 || o.tp > 64)
    throw InputError(fmt::format("--tp must be between 1 and 64, got {}", o.tp));
  if (o.context_length < 0) {
    throw InputError(fmt::format("--context-length must be positive, got {}", o.context_length));
  }
  const std::map<std::string, std::string> releases = ReleasesByEngine(o.engines);
  // Unknown model or GPU: one error for the whole comparison, not three.
  const ModelSpec model = LoadModel(o.model);
  FindGpu(o.gpu, o.gpu_capacity_mib);
  CompareResult result;
  result.request = o;
  result.context_length = o.context_length > 0 ? o.context_length : model.max_position_embeddings;
  for (const char* engine : {"sglang", "vllm", "trtllm"}) {
    CompareRow row{engine, std::nullopt, {}, "", releases.count(engine) > 0};
    try {
      PlanRequest req = EngineRequest(engine, o);
      if (row.release_given) req.version = releases.at(engine);
      row.plan = PlanLaunch(req);
      row.context = PlanContextOf(req, *row.plan);
    } catch (const InputError& e) {
      row.error = e.what();
    }
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace kvplan
