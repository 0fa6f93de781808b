// `kvplan perf`'s entry point (kvplan/perf.h): the user's names resolved into
// the performance model's request, and the model run. What the user leaves
// unset is resolved here and declared as an assumption of the report.
#include <fmt/format.h>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/cell.h"
#include "kvplan/error.h"
#include "kvplan/perf.h"
#include "kvplan/plan.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency_options.h"
#include "perf/perf_report.h"

namespace kvplan {
namespace {

AllreducePolicy ParsePolicy(const std::string& s) {
  if (s == "auto") return AllreducePolicy::kEngineDefault;
  if (s == "nccl") return AllreducePolicy::kNcclOnly;
  if (s == "custom") return AllreducePolicy::kForceCustom;
  throw InputError("--allreduce '" + s + "': expected auto, nccl or custom");
}

// The resolved request and what was assumed to build it.
struct ResolvedPerf {
  PerfRequest request;
  std::string engine;  // "sglang" or "vllm"
  std::vector<Assumption> assumed;
};

void SetEngine(const PerfQuery& o, ResolvedPerf* out) {
  auto [engine, version] = SplitEngineSpec(o.engine);
  if (engine != "sglang" && engine != "vllm") {
    throw InputError(
        fmt::format("--engine '{}': kvplan perf models sglang[@VERSION] and vllm[@VERSION] (vLLM's "
                    "speculative schedule)",
                    o.engine));
  }
  out->engine = engine;
  PerfRequest& r = out->request;
  r.spec_engine = engine == "vllm" ? SpecEngine::kVllm : SpecEngine::kSglang;
  // The SGLang release decides the speculative rule and the graph settings;
  // for vLLM perf models only the speculative schedule, the same in every
  // release, on SGLang's newest graph rules.
  if (engine == "sglang") r.sglang_version = version;
  if (engine == "vllm" && !version.empty()) {
    out->assumed.push_back({"engine",
                            {},
                            "vllm@" + version,
                            "",
                            "perf models vLLM's speculative schedule, the same in every release; "
                            "graph and chunk settings follow SGLang's newest rules"});
  }
}

void SetSpeculation(const PerfQuery& o, PerfRequest* r) {
  const SpecAlgorithm algo = ParseSpecAlgorithm(o.spec_algo);
  r->spec = ResolveSglangSpec(algo, r->model.architecture, o.spec_steps, o.spec_topk,
                              o.spec_draft_tokens, r->sglang_version);
  if (o.accept_length) {
    if (algo == SpecAlgorithm::kNone)
      throw InputError("--accept-length needs --speculative-algorithm");
    // Written as what must hold, so that NaN is refused too.
    if (!(*o.accept_length >= 1.0 && *o.accept_length <= r->spec.num_draft_tokens + 1.0)) {
      throw InputError(
          fmt::format("--accept-length {} must be between 1 and num_draft_tokens + 1 ({})",
                      *o.accept_length, r->spec.num_draft_tokens + 1));
    }
    r->spec.accept_length = o.accept_length;
  }
  if (!o.draft_path.empty()) r->draft = LoadModel(o.draft_path);
  r->spec.sglang_spec_v2 = o.spec_v2;
}

void CheckEngineFlags(const PerfQuery& o, const std::string& engine) {
  if (o.spec_v2 && engine != "sglang") throw InputError("--spec-v2 is an SGLang setting");
  if (!o.attention_backend.empty() && engine != "sglang") {
    throw InputError("--attention-backend is an SGLang setting");
  }
  CheckSglangAttentionBackend(o.attention_backend);
  if (o.cuda_graph_max_bs && *o.cuda_graph_max_bs < 0) {
    throw InputError("--cuda-graph-max-bs must be >= 0");
  }
}

// cuda_graph_max_bs and chunked_prefill_size: the user's, else the engine's
// own default for this launch (the planner's settings stage), declared.
void SetEngineSettings(const PerfQuery& o, ResolvedPerf* out) {
  PerfRequest& r = out->request;
  const SglangLaunchDefaults d = SglangLaunchDefaultsOf(r, o.cuda_graph_max_bs);
  const std::string release = fmt::format("SGLang {} default", d.version);
  auto why = [&release](const std::string& rule) {
    return rule.empty() ? release : release + ": " + rule;
  };
  if (o.disable_cuda_graph) {
    r.cuda_graph_max_bs = 0;
  } else {
    r.cuda_graph_max_bs = d.cuda_graph_max_bs;
    if (!o.cuda_graph_max_bs) {
      out->assumed.push_back(
          {"cuda_graph_max_bs", {d.cuda_graph_max_bs}, "", "", why(d.cuda_graph_rule)});
    } else if (d.clipped_to_pool) {
      out->assumed.push_back({"cuda_graph_max_bs",
                              {d.cuda_graph_max_bs},
                              "",
                              "",
                              fmt::format("SGLang {}: {}", d.version, d.cuda_graph_rule)});
    }
  }
  if (o.chunked_prefill_size) {
    r.chunked_prefill_size = *o.chunked_prefill_size;
  } else {
    r.chunked_prefill_size = d.chunked_prefill_size;
    out->assumed.push_back({"chunked_prefill_size",
                            {d.chunked_prefill_size},
                            "",
                            "tokens",
                            why(d.chunked_prefill_rule)});
  }
  if (out->engine == "sglang" && r.sglang_version.empty()) {
    out->assumed.insert(out->assumed.begin(),
                        {"engine", {}, "sglang@" + d.version, "", "the newest modelled release"});
  }
}

// Context, batch sizes and prompt lengths the user left to kvplan.
void SetSweeps(const PerfQuery& o, ResolvedPerf* out) {
  PerfRequest& r = out->request;
  r.context = o.context.value_or(kDefaultContextTokens);
  if (!o.context) {
    out->assumed.push_back(
        {"context", {r.context}, "", "tokens", "kvplan's default KV context per request"});
  }
  if (!o.batch_sizes.empty()) {
    r.batch_sizes = o.batch_sizes;
  } else {
    out->assumed.push_back({"batch_sizes",
                            std::vector<int64_t>(r.batch_sizes.begin(), r.batch_sizes.end()), "",
                            "", "kvplan's default decode sweep", true});
  }
  if (!o.prompt_lengths.empty()) {
    r.prompt_lengths = o.prompt_lengths;
  } else {
    out->assumed.push_back(
        {"prompt_lengths", r.prompt_lengths, "", "tokens", "kvplan's default prefill sweep", true});
  }
}

ResolvedPerf BuildRequest(const PerfQuery& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan perf needs --model and --gpu");
  ResolvedPerf out;
  SetEngine(o, &out);
  CheckEngineFlags(o, out.engine);
  PerfRequest& r = out.request;
  r.model = LoadModel(o.model);
  r.gpu = GpuWithCapacity(o.gpu, o.gpu_capacity_mib);
  RequireStepTimeFigures(r.gpu, "kvplan perf");
  r.par.tp = o.tp;
  r.par.pp = o.pp;
  r.par.dp = o.dp;
  r.par.ep = o.ep;
  r.par.dp_attention = o.dp_attention;
  r.topology = o.topology.empty() ? DefaultTopology(r.gpu) : ParseTopology(o.topology);
  r.allreduce = ParsePolicy(o.allreduce);
  r.kv_bytes_per_elem = SglangKvElementBytes(o.kv_dtype, r.model);
  SetSweeps(o, &out);
  SetSpeculation(o, &r);
  r.attention_backend = o.attention_backend;
  r.eff = CheckedEfficiency(o.eff);
  SetEngineSettings(o, &out);
  return out;
}

}  // namespace

std::shared_ptr<const PerfReport> PredictPerf(const PerfQuery& query) {
  ResolvedPerf resolved = BuildRequest(query);
  auto report = std::make_shared<PerfReport>(RunPerf(resolved.request));
  report->assumed = std::move(resolved.assumed);
  return report;
}

}  // namespace kvplan
