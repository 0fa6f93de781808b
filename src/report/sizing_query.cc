// `kvplan tune` under a load and an SLA (kvplan/tune.h): the user's names and
// load resolved into the sizing request, and the sizing run.
#include <fmt/format.h>

#include "kvplan/error.h"
#include "report/sizing_outcome.h"
#include "report/tune_outcome.h"

namespace kvplan {
namespace {

// sglang.bench_serving's default --num-prompts, as `kvplan simulate` takes it.
constexpr int64_t kDefaultSizingRequests = 1000;

// Options of the plain search that have no meaning when the load is simulated.
void RefuseSearchOnlyOptions(const TuneQuery& t) {
  if (t.concurrency != 0 || t.ttft_ms || t.tpot_ms) {
    throw InputError(
        "with --rate or --trace, the SLA is --ttft-p90-ms and --tpot-p90-ms (not --ttft-ms, "
        "--tpot-ms or --concurrency)");
  }
}

}  // namespace

std::shared_ptr<const SizingOutcome> SizeDeployment(const SizingQuery& query) {
  RefuseSearchOnlyOptions(query.tune);
  if ((query.ttft_p90_ms && *query.ttft_p90_ms <= 0) ||
      (query.tpot_p90_ms && *query.tpot_p90_ms <= 0)) {
    throw InputError("--ttft-p90-ms and --tpot-p90-ms must be positive");
  }
  auto outcome = std::make_shared<SizingOutcome>();
  SizingRequest& req = outcome->request;
  TuneQuery t = query.tune;
  // The search's fit check holds one request of the load's mean lengths.
  if (!t.context && query.load.trace.empty()) {
    t.context = query.load.input.mean + query.load.output.mean;
  }
  req.tune = TuneRequestOf(t);
  req.model_arg = t.model;
  req.gpu_arg = t.gpu;
  req.gpu_capacity_mib = t.gpu_capacity_mib;
  req.load = query.load;
  req.ttft_p90_ms = query.ttft_p90_ms;
  req.tpot_p90_ms = query.tpot_p90_ms;
  req.calib = query.calib;
  AddReleaseAssumption(req.tune, &outcome->assumed);
  if (!query.tune.gpus) {
    outcome->assumed.push_back(
        {"gpus", {req.tune.gpus}, "", "", "the most GPUs tried (one node); pass --gpus N"});
  }
  if (req.load.trace.empty() && !req.load.num_requests && !req.load.duration_s) {
    req.load.num_requests = kDefaultSizingRequests;
    outcome->assumed.push_back({"num-requests",
                                {kDefaultSizingRequests},
                                "",
                                "",
                                "sglang.bench_serving's default --num-prompts"});
  }
  if (req.load.trace.empty() && !req.load.seed) {
    outcome->assumed.push_back({"seed", {0}, "", "", "kvplan's default random seed"});
  }
  outcome->report = RunSizing(req);
  return outcome;
}

}  // namespace kvplan
