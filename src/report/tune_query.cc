// `kvplan tune`'s entry point (kvplan/tune.h): the user's names resolved into
// the search's request, and the search run.
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "kvplan/error.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency_options.h"
#include "report/tune_outcome.h"

namespace kvplan {
namespace {

TuneRequest BuildRequest(const TuneQuery& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan tune needs --model and --gpu");
  if (o.concurrency < 0) throw InputError("--concurrency must be >= 0");
  if ((o.ttft_ms && *o.ttft_ms <= 0) || (o.tpot_ms && *o.tpot_ms <= 0)) {
    throw InputError("--ttft-ms and --tpot-ms must be positive");
  }
  TuneRequest req;
  req.model = LoadModel(o.model);
  req.gpu = FindGpu(o.gpu);
  req.gpus = o.gpus;
  req.topology = o.topology.empty() ? DefaultTopology(req.gpu) : ParseTopology(o.topology);
  req.context = o.context;
  req.prompt = o.prompt;
  req.concurrency = o.concurrency;
  req.ttft_ms = o.ttft_ms;
  req.tpot_ms = o.tpot_ms;
  req.accept_length = o.accept_length;
  req.sglang_version = o.version;
  CheckSglangAttentionBackend(o.attention_backend);
  req.attention_backend = o.attention_backend;
  req.sglang_spec_v2 = o.spec_v2;
  req.threads = o.threads;
  req.eff = CheckedEfficiency(o.eff);
  if (!o.draft.empty()) {
    req.draft = LoadModel(o.draft);
    req.draft_path = o.draft;
  }
  return req;
}

}  // namespace

std::shared_ptr<const TuneOutcome> SearchLaunchSettings(const TuneQuery& query,
                                                        const TuneProgress& progress) {
  auto outcome = std::make_shared<TuneOutcome>();
  outcome->request = BuildRequest(query);
  outcome->space = MakeTuneSpace(outcome->request);
  outcome->report = RunTune(outcome->request, progress);
  return outcome;
}

}  // namespace kvplan
