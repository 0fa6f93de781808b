// `kvplan tune`'s entry point (kvplan/tune.h): the user's names resolved into
// the search's request, and the search run.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/era.h"
#include "kvplan/error.h"
#include "kvplan/perf.h"
#include "kvplan/plan.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency_options.h"
#include "report/tune_outcome.h"

namespace kvplan {
namespace {

constexpr int kDefaultGpus = 8;
constexpr int kMaxTuneThreads = 1024;

// The release: tune searches SGLang launches only.
std::string SglangVersionOf(const std::string& engine_spec) {
  auto [engine, version] = SplitEngineSpec(engine_spec);
  if (engine != "sglang") {
    throw InputError(fmt::format(
        "--engine '{}': kvplan tune searches SGLang launches (sglang[@VERSION])", engine_spec));
  }
  return version;
}

}  // namespace

void AddReleaseAssumption(const TuneRequest& req, std::vector<Assumption>* a) {
  if (!req.sglang_version.empty()) return;
  std::string canonical;
  int64_t key = 0;
  SglangEraFor("", &canonical, &key);
  a->push_back({"engine", {}, "sglang@" + canonical, "", "the newest modelled release"});
}

namespace {

// GPU count, context, prompt and release the user left to kvplan.
std::vector<Assumption> TuneAssumptions(const TuneQuery& o, const TuneRequest& req) {
  std::vector<Assumption> a;
  AddReleaseAssumption(req, &a);
  if (!o.gpus) a.push_back({"gpus", {req.gpus}, "", "", "a full node searched; pass --gpus N"});
  if (!o.context) {
    a.push_back({"context", {req.context}, "", "tokens", "kvplan's default tokens per request"});
  }
  if (o.prompt == 0) {
    a.push_back({"prompt",
                 {std::max<int64_t>(1, req.context / 2)},
                 "",
                 "tokens",
                 "half the context, for TTFT"});
  }
  return a;
}

}  // namespace

TuneRequest TuneRequestOf(const TuneQuery& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan tune needs --model and --gpu");
  if (o.concurrency < 0) throw InputError("--concurrency must be >= 0");
  CheckedAtMost(o.concurrency, kMaxInputCount, "--concurrency");
  if (o.prompt < 0) throw InputError("--prompt must be >= 0 (0: half the context)");
  CheckedAtMost(o.prompt, kMaxInputCount, "--prompt");
  if (o.context) CheckedAtMost(*o.context, kMaxInputCount, "--context");
  if (o.gpus) CheckedAtMost(*o.gpus, kMaxInputCount, "--gpus");
  // Each thread is a std::thread: a million of them exhausts the process.
  CheckedAtMost(o.threads, kMaxTuneThreads, "--threads");
  // Written as what must hold, so that NaN is refused too.
  if ((o.ttft_ms && !(*o.ttft_ms > 0 && std::isfinite(*o.ttft_ms))) ||
      (o.tpot_ms && !(*o.tpot_ms > 0 && std::isfinite(*o.tpot_ms)))) {
    throw InputError("--ttft-ms and --tpot-ms must be positive, finite numbers");
  }
  if (o.accept_length && !(*o.accept_length >= 1 && std::isfinite(*o.accept_length))) {
    throw InputError(
        fmt::format("--accept-length {} must be a finite number of at least 1", *o.accept_length));
  }
  TuneRequest req;
  req.model = LoadModel(o.model);
  req.gpu = GpuWithCapacity(o.gpu, o.gpu_capacity_mib);
  RequireStepTimeFigures(req.gpu, "kvplan tune");
  req.gpus = o.gpus.value_or(kDefaultGpus);
  if (req.gpus < 1) throw InputError("--gpus must be at least 1");
  req.topology = o.topology.empty() ? DefaultTopology(req.gpu) : ParseTopology(o.topology);
  req.context = o.context.value_or(kDefaultContextTokens);
  req.prompt = o.prompt;
  req.concurrency = o.concurrency;
  req.ttft_ms = o.ttft_ms;
  req.tpot_ms = o.tpot_ms;
  req.accept_length = o.accept_length;
  req.sglang_version = SglangVersionOf(o.engine);
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

std::shared_ptr<const TuneOutcome> SearchLaunchSettings(const TuneQuery& query,
                                                        const TuneProgress& progress) {
  auto outcome = std::make_shared<TuneOutcome>();
  outcome->request = TuneRequestOf(query);
  outcome->space = MakeTuneSpace(outcome->request);
  outcome->report = RunTune(outcome->request, progress);
  outcome->assumed = TuneAssumptions(query, outcome->request);
  return outcome;
}

}  // namespace kvplan
