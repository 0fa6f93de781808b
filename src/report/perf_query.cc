// `kvplan perf`'s entry point (kvplan/perf.h): the user's names resolved into
// the performance model's request, and the model run.
#include <fmt/core.h>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/cell.h"
#include "kvplan/error.h"
#include "kvplan/perf.h"
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

PerfRequest BuildRequest(const PerfQuery& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan perf needs --model and --gpu");
  if (o.engine != "sglang" && o.engine != "vllm") {
    throw InputError("--engine '" + o.engine + "': expected sglang or vllm");
  }
  PerfRequest r;
  r.model = LoadModel(o.model);
  r.gpu = FindGpu(o.gpu);
  r.par.tp = o.tp;
  r.par.pp = o.pp;
  r.par.dp = o.dp;
  r.par.ep = o.ep;
  r.par.dp_attention = o.dp_attention;
  r.topology = o.topology.empty() ? DefaultTopology(r.gpu) : ParseTopology(o.topology);
  r.allreduce = ParsePolicy(o.allreduce);
  r.kv_bytes_per_elem = SglangKvElementBytes(o.kv_dtype, r.model);
  r.context = o.context;
  if (!o.batch_sizes.empty()) r.batch_sizes = o.batch_sizes;
  if (!o.prompt_lengths.empty()) r.prompt_lengths = o.prompt_lengths;
  if (o.cuda_graph_max_bs && *o.cuda_graph_max_bs < 0) {
    throw InputError("--cuda-graph-max-bs must be >= 0");
  }
  // Unset: 256, or 48 with speculative decoding, where SGLang caps the running
  // requests at 48 (#4908) and so never replays a larger decode graph.
  const int default_bs = o.spec_algo.empty() ? 256 : 48;
  r.cuda_graph_max_bs = o.disable_cuda_graph ? 0 : o.cuda_graph_max_bs.value_or(default_bs);
  r.chunked_prefill_size = o.chunked_prefill_size;
  const SpecAlgorithm algo = ParseSpecAlgorithm(o.spec_algo);
  r.spec =
      ResolveSglangSpec(algo, r.model.architecture, o.spec_steps, o.spec_topk, o.spec_draft_tokens);
  if (o.accept_length) {
    if (algo == SpecAlgorithm::kNone)
      throw InputError("--accept-length needs --speculative-algorithm");
    if (*o.accept_length < 1.0 || *o.accept_length > r.spec.num_draft_tokens + 1.0) {
      throw InputError(
          fmt::format("--accept-length {} must be between 1 and num_draft_tokens + 1 ({})",
                      *o.accept_length, r.spec.num_draft_tokens + 1));
    }
    r.spec.accept_length = o.accept_length;
  }
  if (!o.draft_path.empty()) r.draft = LoadModel(o.draft_path);
  r.spec_engine = o.engine == "vllm" ? SpecEngine::kVllm : SpecEngine::kSglang;
  r.spec.sglang_spec_v2 = o.spec_v2;
  if (o.spec_v2 && o.engine != "sglang") throw InputError("--spec-v2 is an SGLang setting");
  if (!o.attention_backend.empty() && o.engine != "sglang") {
    throw InputError("--attention-backend is an SGLang setting");
  }
  CheckSglangAttentionBackend(o.attention_backend);
  r.attention_backend = o.attention_backend;
  r.eff = CheckedEfficiency(o.eff);
  return r;
}

}  // namespace

std::shared_ptr<const PerfReport> PredictPerf(const PerfQuery& query) {
  return std::make_shared<const PerfReport>(RunPerf(BuildRequest(query)));
}

}  // namespace kvplan
