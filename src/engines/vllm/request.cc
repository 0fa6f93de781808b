// PlanVllmRequest: the engine-neutral request to a vLLM plan.
#include <fmt/core.h>

#include <string>
#include <utility>

#include "base/units.h"
#include "catalog/weights.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"

namespace kvplan {

VllmMeasured VllmMeasuredFromGiB(const std::map<std::string, double>& gib) {
  VllmMeasured m;
  for (const auto& [key, value] : gib) {
    if (!(value >= 0) || value > 1e6) {
      throw InputError(
          fmt::format("measured {} must be a non-negative GiB figure, got {}", key, value));
    }
    int64_t bytes = GiBToBytes(value);
    if (key == "total")
      m.total = bytes;
    else if (key == "weights")
      m.weights = bytes;
    else if (key == "activation_peak")
      m.activation_peak = bytes;
    else if (key == "non_torch")
      m.non_torch = bytes;
    else if (key == "cuda_graph")
      m.cuda_graph = bytes;
    else if (key == "peak_torch")
      m.peak_torch = bytes;
    else if (key == "kv_cache" || key == "available_kv")
      m.available_kv = bytes;
    else if (key == "pre_load_free")
      m.pre_load_free = bytes;
    else if (key == "post_load_free")
      continue;  // SGLang's term; vLLM does not read it
    else {
      throw InputError(fmt::format(
          "unknown measured term '{}' for vLLM (expected total, weights, activation_peak, "
          "non_torch, cuda_graph, peak_torch, kv_cache or pre_load_free)",
          key));
    }
  }
  return m;
}

PlanResult PlanVllmRequest(const PlanRequest& req) {
  VllmArgs args = ParseVllmArgs(req.args, req.version);
  if (req.model) args.model = *req.model;
  if (args.model.empty()) {
    throw InputError("no model given for vLLM (pass --model or `vllm serve MODEL`)");
  }
  if (req.gpu.empty()) throw InputError("no GPU given (expected --gpu, e.g. --gpu h100)");
  ModelSpec model = LoadModel(args.model);
  const GpuSpec& gpu = FindGpu(req.gpu, req.gpu_capacity_mib);
  VllmMeasured measured = VllmMeasuredFromGiB(req.measured_gib);
  std::optional<ModelSpec> draft;
  if (args.speculative && !args.speculative->model.empty() && args.speculative->model != "ngram") {
    draft = LoadModel(args.speculative->model);
  }
  PlanResult r = PlanVllm(req.version, model, gpu, args, measured, draft ? &*draft : nullptr);
  // A logged weight figure replaces the estimate: the uncounted encoder no longer matters.
  if (std::string w = UncountedWeightsWarning(model); !w.empty() && !measured.weights) {
    r.warnings.push_back(std::move(w));
  }
  return r;
}

}  // namespace kvplan
