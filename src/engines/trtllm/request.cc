// PlanTrtllmRequest: the engine-neutral request to a TensorRT-LLM plan.
#include <string>
#include <utility>

#include "catalog/weights.h"
#include "engines/trtllm/fixes.h"
#include "engines/trtllm/trtllm.h"
#include "kvplan/error.h"

namespace kvplan {

PlanResult PlanTrtllmRequest(const PlanRequest& req) {
  TrtllmArgs args = ParseTrtllmArgs(req.args, req.version);
  if (req.model) args.model = *req.model;
  if (args.model.empty()) {
    throw InputError("no model given for TensorRT-LLM (pass --model or `trtllm-serve MODEL`)");
  }
  if (req.gpu.empty()) throw InputError("no GPU given (expected --gpu, e.g. --gpu h100)");
  ModelSpec model = LoadModel(args.model);
  const GpuSpec& gpu = FindGpu(req.gpu, req.gpu_capacity_mib);
  TrtllmMeasured measured = TrtllmMeasuredFromGiB(req.measured_gib);
  PlanResult r = PlanTrtllm(req.version, model, gpu, args, measured);
  r.fixes = TrtllmFixes(req.version, model, gpu, args, measured, r);
  if (std::string w = UncountedWeightsWarning(model); !w.empty() && !measured.weights) {
    r.warnings.push_back(std::move(w));
  }
  return r;
}

}  // namespace kvplan
