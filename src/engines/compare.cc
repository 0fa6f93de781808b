// `kvplan compare`'s computation: the same launch planned on every engine,
// each with the engine's own flag names and default memory knob.
#include <fmt/core.h>

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

}  // namespace

CompareResult CompareEngines(const CompareRequest& o) {
  if (o.tp < 1 || o.tp > 64)
    throw InputError(fmt::format("--tp must be between 1 and 64, got {}", o.tp));
  if (o.context_length < 0) {
    throw InputError(fmt::format("--context-length must be positive, got {}", o.context_length));
  }
  // Unknown model or GPU: one error for the whole comparison, not three.
  const ModelSpec model = LoadModel(o.model);
  FindGpu(o.gpu, o.gpu_capacity_mib);
  CompareResult result;
  result.request = o;
  result.context_length = o.context_length > 0 ? o.context_length : model.max_position_embeddings;
  for (const char* engine : {"sglang", "vllm", "trtllm"}) {
    CompareRow row{engine, std::nullopt, {}, ""};
    try {
      const PlanRequest req = EngineRequest(engine, o);
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
