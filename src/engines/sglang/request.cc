// PlanRequest -> PlanSglang: the SGLang flags, the model and draft, the GPU
// and what the user measured.
#include <algorithm>
#include <string>
#include <utility>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/weights.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/weight_loading.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

std::optional<int64_t> MeasuredBytes(const PlanRequest& req, const std::string& key) {
  auto it = req.measured_gib.find(key);
  if (it == req.measured_gib.end()) return std::nullopt;
  // At most 1 PiB: 1e300 GiB would not fit the int64 bytes it converts to.
  if (!(it->second > 0 && it->second <= double{1 << 20})) {
    std::string flag = key;
    std::replace(flag.begin(), flag.end(), '_', '-');
    throw InputError(fmt::format(
        "--{}-gib must be a positive number of GiB (at most 1048576), got {}", flag, it->second));
  }
  return GiBToBytes(it->second);
}

}  // namespace

PlanResult PlanSglangRequest(const PlanRequest& req) {
  SglangArgs args = ParseSglangArgs(req.args, req.version);
  std::string model_spec = req.model.value_or(args.model_path);
  if (model_spec.empty()) {
    throw InputError(
        "no model given (expected --model M, or --model-path M in the SGLang command)");
  }
  if (req.model && !args.model_path.empty() && *req.model != args.model_path) {
    throw InputError(fmt::format("--model {} conflicts with --model-path {} in the SGLang flags",
                                 *req.model, args.model_path));
  }
  // --dtype and --quantization as SGLang loads them (weight_loading.cc).
  const ModelSpec model = ModelAsLaunched(LoadModel(model_spec), SglangWeightLoading(args));
  std::optional<ModelSpec> draft;
  const std::string algo = args.speculative_algorithm;
  if (!args.speculative_draft_model_path.empty()) {
    draft = LoadModel(args.speculative_draft_model_path);
  } else if (!algo.empty() && algo != "NEXTN" && algo != "MTP" && algo != "NGRAM" &&
             !(algo == "EAGLE" && model.num_nextn_predict_layers > 0)) {
    throw InputError(fmt::format(
        "--speculative-algorithm {} needs --speculative-draft-model-path (the draft model)", algo));
  }
  if (req.gpu.empty()) throw InputError("no GPU given (expected --gpu, e.g. --gpu h100)");
  const GpuSpec& gpu = FindGpu(req.gpu, req.gpu_capacity_mib);
  SglangMeasured m;
  m.pre_load_free_bytes = MeasuredBytes(req, "pre_load_free");
  m.post_load_free_bytes = MeasuredBytes(req, "post_load_free");
  if (m.post_load_free_bytes && !m.pre_load_free_bytes) {
    throw InputError(
        "--post-load-free-gib needs --pre-load-free-gib too (both are measured by the engine)");
  }
  // The catalog total bounds a measured figure only for a catalog-sized card:
  // --gpu-capacity-mib says the card is not one (a mixed or off-catalog host).
  if (!req.gpu_capacity_mib && m.pre_load_free_bytes &&
      *m.pre_load_free_bytes > gpu.total_bytes + kGiB / 2) {
    throw InputError(
        fmt::format("--pre-load-free-gib {:.3f} is more than the {} holds ({:.2f} GiB)",
                    ToGiB(*m.pre_load_free_bytes), gpu.id, ToGiB(gpu.total_bytes)));
  }
  if (m.post_load_free_bytes && *m.post_load_free_bytes > *m.pre_load_free_bytes) {
    throw InputError(
        "--post-load-free-gib is larger than --pre-load-free-gib (loading weights frees no "
        "memory)");
  }
  m.gpu_capacity_mib = req.gpu_capacity_mib;
  for (const auto& [key, value] : req.measured_gib) {
    if (key != "pre_load_free" && key != "post_load_free") {
      throw InputError(
          fmt::format("measured figure '{}' is not used by the SGLang planner "
                      "(expected pre_load_free, post_load_free)",
                      key));
    }
    (void)value;
  }
  PlanResult r = PlanSglang(req.version, model, gpu, args, m, draft ? &*draft : nullptr);
  // The free memory after loading measures the weights the engine loaded, encoders included.
  if (std::string w = UncountedWeightsWarning(model); !w.empty() && !m.post_load_free_bytes) {
    r.warnings.push_back(std::move(w));
  }
  return r;
}

}  // namespace kvplan
