#include "explain/decode_prediction.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <optional>

#include <fmt/core.h>

#include "engines/sglang/cell.h"
#include "explain/decode_report.h"
#include "explain/log_sglang_args.h"
#include "explain/log_vllm_replan.h"
#include "explain/logged_gpu.h"
#include "kvplan/error.h"
#include "perf/perf_report.h"
#include "perf/topology.h"

namespace kvplan {
namespace {

// Thrown (and caught in PredictDecode) when the log lacks what the model needs.
struct CannotPredict {
  std::string why;
};

// The launch's layout and graph settings, engine by engine.
struct LaunchShape {
  Parallelism par;
  int dp = 1;
  std::string kv_cache_dtype = "auto";
  std::string attention_backend;
  bool graphs = true;
  std::optional<int64_t> graph_max_bs;  // printed; unset: the engine's default
  int default_graph_max_bs = 256;
  std::optional<int64_t> max_context;  // the run's context length when printed
  SpecConfig spec;
  SpecEngine spec_engine = SpecEngine::kSglang;
};

std::string Requests(int64_t n) {
  return fmt::format("{} running request{}", n, n == 1 ? "" : "s");
}

std::optional<int64_t> PositiveInt(const RunRecord& r, const char* key) {
  std::optional<double> v = r.SettingNumber(key);
  if (!v || *v < 1 || *v > 1e9 || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int64_t>(*v);
}

std::optional<int> SmallInt(std::optional<int64_t> v) {
  return v ? std::optional<int>(static_cast<int>(std::min<int64_t>(*v, 4096))) : std::nullopt;
}

// The integer after `key` in a dict as vLLM prints it ("'num_speculative_tokens': 3").
std::optional<int> IntAfter(const std::string& text, const std::string& key) {
  size_t at = text.find(key);
  if (at == std::string::npos) return std::nullopt;
  size_t digit = text.find_first_of("0123456789", at + key.size());
  if (digit == std::string::npos || digit > at + key.size() + 4) return std::nullopt;
  int v = 0;
  for (size_t i = digit; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]));
       ++i) {
    v = v * 10 + (text[i] - '0');
    if (v > 4096) return std::nullopt;
  }
  return v;
}

// vLLM's speculative method as kvplan's algorithm (vllm/config/speculative.py @v0.10.1).
SpecAlgorithm VllmAlgorithm(const std::string& method) {
  if (method == "eagle") return SpecAlgorithm::kEagle;
  if (method == "eagle3") return SpecAlgorithm::kEagle3;
  if (method == "draft_model") return SpecAlgorithm::kStandalone;
  if (method == "mtp" || method.find("_mtp") != std::string::npos) return SpecAlgorithm::kNextn;
  throw CannotPredict{"kvplan models no vLLM speculative method '" + method +
                      "' (eagle, eagle3, draft_model, mtp only)"};
}

LaunchShape SglangShape(const RunRecord& r, const std::string& architecture) {
  SglangArgs a = SglangArgsOfRun(r);
  LaunchShape s;
  s.par.tp = a.tp;
  s.par.pp = a.pp;
  s.par.ep = a.ep;
  s.dp = a.dp;
  s.par.dp = a.dp;
  s.par.dp_attention = a.enable_dp_attention;
  s.kv_cache_dtype = a.kv_cache_dtype;
  s.attention_backend = a.attention_backend;
  s.graphs = !a.disable_cuda_graph;
  s.graph_max_bs = a.cuda_graph_max_bs;
  s.max_context = a.context_length;
  if (!s.max_context) {
    if (std::optional<double> len = r.Figure("context_len")) s.max_context = *len;
  }
  if (!a.speculative_algorithm.empty()) {
    // server_args.py (#4908): speculative decoding caps the running requests, and so the graphs,
    // at 48.
    s.default_graph_max_bs = 48;
    SpecAlgorithm algorithm = SpecAlgorithm::kNone;
    try {
      algorithm = ParseSpecAlgorithm(a.speculative_algorithm);
    } catch (const std::exception&) {
      throw CannotPredict{"kvplan models no SGLang speculative algorithm '" +
                          a.speculative_algorithm + "' (EAGLE, EAGLE3, NEXTN, STANDALONE only)"};
    }
    s.spec = ResolveSglangSpec(algorithm, architecture, SmallInt(a.speculative_num_steps),
                               SmallInt(a.speculative_eagle_topk),
                               SmallInt(a.speculative_num_draft_tokens));
  }
  return s;
}

LaunchShape VllmShape(const RunRecord& r, const std::string& architecture) {
  VllmArgs a = VllmArgsOfRun(r);
  LaunchShape s;
  s.par.tp = a.tp;
  s.par.pp = a.pp;
  s.dp = static_cast<int>(PositiveInt(r, "data_parallel_size").value_or(1));
  s.kv_cache_dtype = a.kv_cache_dtype;
  s.graphs = !a.enforce_eager;
  // vllm/config/compilation.py @v0.10.1: graphs are captured up to batch 512.
  s.default_graph_max_bs = 512;
  s.max_context = a.max_model_len;
  s.spec_engine = SpecEngine::kVllm;
  std::string method = SpeculationOf(r);
  if (!method.empty()) {
    const LoggedSetting* config_setting = r.FindSetting("speculative_config");
    std::string config = config_setting == nullptr ? "" : config_setting->value;
    std::optional<int> k = IntAfter(config, "num_speculative_tokens");
    if (!k || *k < 1) {
      throw CannotPredict{"the log's speculative_config prints no num_speculative_tokens"};
    }
    s.spec = ResolveSglangSpec(VllmAlgorithm(method), architecture, *k, 1, *k + 1);
  }
  return s;
}

// The draft model: the one the args name when kvplan's catalog has it, else a
// synthetic EAGLE-3 head for EAGLE drafts (named in `inputs`).
std::optional<ModelSpec> DraftModel(const LoggedDraft& draft, const LaunchShape& s,
                                    std::vector<std::string>* inputs) {
  if (s.spec.algorithm == SpecAlgorithm::kNone || s.spec.algorithm == SpecAlgorithm::kNextn) {
    return std::nullopt;
  }
  const std::string& path = draft.path;
  if (draft.spec) return draft.spec;
  if (s.spec.algorithm == SpecAlgorithm::kStandalone) {
    throw CannotPredict{"the draft model '" + path + "' is not in kvplan's catalog"};
  }
  inputs->push_back(path.empty() ? "draft a synthetic one-layer EAGLE-3 head (the log names none)"
                                 : "draft " + path +
                                       " not in kvplan's catalog: a synthetic one-layer EAGLE-3 "
                                       "head instead");
  return std::nullopt;
}

void CheckLayout(const LaunchShape& s) {
  if (s.dp > 1 || s.par.pp > 1) {
    throw CannotPredict{fmt::format(
        "kvplan predicts decode for tensor (and expert) parallel launches only, this one runs "
        "DP {} PP {}",
        s.dp, s.par.pp)};
  }
}

// The accept length the prediction uses: the run's own when it reported one.
void AcceptLengthOf(const RunRecord& r, LaunchShape* s, std::vector<std::string>* inputs) {
  if (s->spec.algorithm == SpecAlgorithm::kNone) return;
  const std::optional<double>& measured = r.decode.mean_accept_len;
  if (!measured) return;  // RunPerf's default, named once it is known (PredictDecode)
  double most = s->spec.num_draft_tokens + 1.0;
  if (*measured < 1.0 || *measured > most) {
    throw CannotPredict{
        fmt::format("the measured accept length {:.2f} is outside 1..{:g} for this draft shape",
                    *measured, most)};
  }
  s->spec.accept_length = *measured;
  inputs->push_back(fmt::format("accept length {:.2f} measured", *measured));
}

int64_t ContextOf(const LaunchShape& s, std::vector<std::string>* inputs) {
  if (s.max_context && *s.max_context < kAssumedDecodeContext) {
    inputs->push_back(fmt::format("context {} (the run's context length) assumed", *s.max_context));
    return *s.max_context;
  }
  inputs->push_back(fmt::format("context {} assumed", kAssumedDecodeContext));
  return kAssumedDecodeContext;
}

PerfRequest RequestOf(const RunRecord& r, const LoggedDraft& draft,
                      std::vector<std::string>* inputs) {
  if (r.engine != "sglang" && r.engine != "vllm") {
    throw CannotPredict{"the log does not say which engine ran"};
  }
  PerfRequest req;
  try {
    req.model = LoadModel(r.model);
  } catch (const std::exception&) {
    throw CannotPredict{"model '" + r.model + "' is not in kvplan's catalog"};
  }
  const GpuSpec* gpu = FindLoggedGpu(r.gpu_name, r.gpu_capacity_mib);
  if (gpu == nullptr) {
    const std::string ambiguity = LoggedGpuAmbiguity(r.gpu_name, r.gpu_capacity_mib);
    throw CannotPredict{r.gpu_name.empty()   ? std::string("the log names no GPU (no nvidia-smi "
                                                             "table); give it with --gpu")
                        : !ambiguity.empty() ? ambiguity
                                             : MissingPerfFiguresHint(r.gpu_name)};
  }
  try {
    RequireStepTimeFigures(*gpu, "the decode prediction");
  } catch (const InputError& e) {
    throw CannotPredict{e.what()};
  }
  req.gpu = *gpu;
  LaunchShape s = r.engine == "sglang" ? SglangShape(r, req.model.architecture)
                                       : VllmShape(r, req.model.architecture);
  CheckLayout(s);
  req.par = s.par;
  if (s.par.tp > 1) {
    req.topology = DefaultTopology(req.gpu);
    inputs->push_back(fmt::format("topology {} from the GPU", TopologyName(req.topology)));
  }
  req.kv_bytes_per_elem = SglangKvElementBytes(s.kv_cache_dtype, req.model);
  req.context = ContextOf(s, inputs);
  req.cuda_graph_max_bs =
      s.graphs ? static_cast<int>(s.graph_max_bs.value_or(s.default_graph_max_bs)) : 0;
  if (s.graphs && !s.graph_max_bs) {
    inputs->push_back(
        fmt::format("CUDA graphs up to batch {} (the engine's default)", s.default_graph_max_bs));
  }
  AcceptLengthOf(r, &s, inputs);
  req.spec = s.spec;
  req.spec_engine = s.spec_engine;
  req.draft = DraftModel(draft, s, inputs);
  req.attention_backend = s.attention_backend;
  req.prompt_lengths.clear();  // decode only
  return req;
}

}  // namespace

DecodePrediction PredictDecode(const RunRecord& r) { return PredictDecode(r, LoadDraftOf(r)); }

DecodePrediction PredictDecode(const RunRecord& r, const LoggedDraft& draft) {
  DecodePrediction out;
  const DecodeBatchFigures* common = r.decode.MostCommon();
  if (common == nullptr) {
    out.why_not = "the run reported no busy decode step";
    return out;
  }
  std::vector<const DecodeBatchFigures*> batches = {common};
  if (const DecodeBatchFigures* one = r.decode.Batch(1); one != nullptr && one != common) {
    batches.push_back(one);
  }
  try {
    PerfRequest req = RequestOf(r, draft, &out.inputs);
    req.batch_sizes.clear();
    for (const DecodeBatchFigures* b : batches) {
      if (b->running_reqs < 1 || b->running_reqs > 1000000) {
        throw CannotPredict{fmt::format("{} is not a batch size", Requests(b->running_reqs))};
      }
      req.batch_sizes.push_back(static_cast<int>(b->running_reqs));
    }
    const bool spec = req.spec.algorithm != SpecAlgorithm::kNone;
    const PerfReport report = RunPerf(req);
    if (spec && !req.spec.accept_length) {
      out.inputs.push_back(fmt::format(
          "accept length {:.2f} kvplan's default (none in the reports)", report.accept_length));
    }
    for (size_t i = 0; i < batches.size(); ++i) {
      const DecodeRow& row = report.decode[i];
      const double tok_s = spec ? row.spec_tokens_per_s : row.tokens_per_s;
      if (!(tok_s > 0 && std::isfinite(tok_s))) {
        throw CannotPredict{
            fmt::format("the model gives no throughput at {}", Requests(batches[i]->running_reqs))};
      }
      out.rows.push_back({batches[i]->running_reqs, spec ? row.spec_tokens_per_s : row.tokens_per_s,
                          batches[i]->median_tok_s});
    }
  } catch (const CannotPredict& e) {
    out.why_not = e.why;
  } catch (const std::exception& e) {  // InputError from the model: an impossible launch
    out.why_not = e.what();
  }
  if (!out.why_not.empty()) {
    out.rows.clear();
    out.inputs.clear();
  }
  return out;
}

}  // namespace kvplan
