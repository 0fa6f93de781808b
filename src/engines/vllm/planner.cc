// PlanVllm: resolves the launch's settings per era, estimates or takes the
// measured memory terms, and runs the era's budget and KV report.
#include <algorithm>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/weights.h"
#include "engines/vllm/budget.h"
#include "engines/vllm/estimates.h"
#include "engines/vllm/fixes.h"
#include "engines/vllm/kv_spec.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

struct Resolved {
  VllmRelease release;
  VllmEra era;
  double util = 0.9;
  int64_t max_model_len = 0;
  int64_t block_size = 16;
  int64_t mnbt = 0;
  int64_t max_num_seqs = 0;
  bool chunked = true;
  std::vector<Setting> settings;
  std::vector<std::string> warnings;
  int gpus_per_replica = 1;
};

bool HasFlashMla(const GpuSpec& gpu) {
  // FlashMLA runs on Hopper and datacenter Blackwell (ids h100, h200, h20, h800, b200, gb200 ...).
  const std::string& id = gpu.id;
  return !id.empty() && (id[0] == 'h' || id[0] == 'b' || id.rfind("gb", 0) == 0);
}

void AddSetting(Resolved* r, const std::string& flag, const std::string& value, bool user,
                const std::string& rule) {
  r->settings.push_back({flag, value, user, user ? "" : rule});
}

Resolved Resolve(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                 const VllmArgs& a) {
  Resolved r;
  r.release = ParseVllmRelease(version);
  r.gpus_per_replica = a.tp * a.pp;
  r.era = VllmEraFor(r.release, a.use_v1);
  bool v0 = IsV0(r.era);
  if (a.kv_cache_memory_bytes && (v0 || !r.release.AtLeast(0, 10, 2))) {
    throw InputError(
        fmt::format("--kv-cache-memory needs vLLM 0.10.2 or later with the V1 engine "
                    "(asked for {})",
                    r.release.text));
  }
  if (model.num_attention_heads > 0 && model.num_attention_heads % a.tp != 0) {
    // vllm/config/parallel.py verify_with_model_config (model.py @v0.10).
    throw InputError(fmt::format(
        "Total number of attention heads ({}) must be divisible by tensor parallel size ({}).",
        model.num_attention_heads, a.tp));
  }
  r.util = a.gpu_memory_utilization.value_or(0.9);
  AddSetting(&r, "--gpu-memory-utilization", PyFloat(r.util), a.gpu_memory_utilization.has_value(),
             "vllm/config/cache.py default 0.9");
  if (model.max_position_embeddings <= 0 && !a.max_model_len) {
    throw InputError(
        fmt::format("model '{}' has no max_position_embeddings; pass --max-model-len", model.id));
  }
  r.max_model_len = a.max_model_len.value_or(model.max_position_embeddings);
  if (a.max_model_len && model.max_position_embeddings > 0 &&
      *a.max_model_len > model.max_position_embeddings) {
    // vllm/config/model.py _get_and_verify_max_len: refused unless RoPE scaling
    // extends it or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1.
    r.warnings.push_back(fmt::format(
        "--max-model-len {} is above the model's max_position_embeddings {}: vLLM refuses it "
        "unless rope scaling allows it or VLLM_ALLOW_LONG_MAX_MODEL_LEN=1 is set",
        *a.max_model_len, model.max_position_embeddings));
  }
  AddSetting(&r, "--max-model-len", std::to_string(r.max_model_len), a.max_model_len.has_value(),
             "the model's max_position_embeddings (vllm/config/model.py _get_and_verify_max_len)");
  bool mla = model.attention == AttentionKind::kMla;
  int64_t default_block = (mla && HasFlashMla(gpu) && r.release.AtLeast(0, 7, 0)) ? 64 : 16;
  r.block_size = a.block_size.value_or(default_block);
  AddSetting(&r, "--block-size", std::to_string(r.block_size), a.block_size.has_value(),
             default_block == 64 ? "FlashMLA backend forces 64 (vllm/platforms/cuda.py)"
                                 : "vllm/config/cache.py default 16");
  if (v0) {
    // vllm/engine/arg_utils.py V0: chunked prefill on by default above 32K context.
    r.chunked = a.enable_chunked_prefill.value_or(r.max_model_len > 32768);
    r.mnbt = a.max_num_batched_tokens.value_or(
        r.chunked ? 2048 : std::max<int64_t>(r.max_model_len, 2048));
  } else {
    r.chunked = true;
    r.mnbt = a.max_num_batched_tokens.value_or(VllmDefaultMaxNumBatchedTokens(gpu));
  }
  AddSetting(
      &r, "--max-num-batched-tokens", std::to_string(r.mnbt), a.max_num_batched_tokens.has_value(),
      v0 ? (r.chunked ? "V0 chunked prefill default 2048" : "V0: max(max_model_len, 2048)")
         : "arg_utils.py get_batch_defaults: 8192 on >=70 GiB GPUs other than A100, else 2048");
  r.max_num_seqs = a.max_num_seqs.value_or(VllmDefaultMaxNumSeqs(gpu, r.era));
  AddSetting(
      &r, "--max-num-seqs", std::to_string(r.max_num_seqs), a.max_num_seqs.has_value(),
      v0 ? "V0 default 256"
         : "arg_utils.py get_batch_defaults: 1024 on >=70 GiB GPUs other than A100, else 256");
  AddSetting(&r, "--kv-cache-dtype", a.kv_cache_dtype, a.kv_cache_dtype != "auto",
             "auto: the model dtype");
  AddSetting(&r, "--tensor-parallel-size", std::to_string(a.tp), a.tp != 1, "default 1");
  if (a.pp != 1) AddSetting(&r, "--pipeline-parallel-size", std::to_string(a.pp), true, "");
  if (a.dp != 1) AddSetting(&r, "--data-parallel-size", std::to_string(a.dp), true, "");
  if (a.enforce_eager) AddSetting(&r, "--enforce-eager", "true", true, "");
  if (a.kv_cache_memory_bytes) {
    AddSetting(&r, "--kv-cache-memory", std::to_string(*a.kv_cache_memory_bytes), true, "");
  }
  return r;
}

ModelSpec WithQuantization(ModelSpec m, const std::string& q) {
  // --quantization fp8 on an unquantized checkpoint: vLLM quantizes the linear
  // layers to fp8 at load time (vllm/model_executor/layers/quantization/fp8.py).
  if (q == "fp8" && m.quant.method.empty()) {
    m.quant.method = "fp8";
    m.quant.weight_bits = 8;
  }
  return m;
}

int ExtraMtpLayers(const ModelSpec& m, const VllmArgs& a) {
  if (!a.speculative) return 0;
  const std::string& meth = a.speculative->method;
  if (meth == "mtp" || meth == "deepseek_mtp" || meth == "qwen3_next_mtp" || meth == "ernie_mtp" ||
      meth == "glm4_moe_mtp") {
    return std::max(1, m.num_nextn_predict_layers);
  }
  return 0;
}

VllmTerms Terms(const ModelSpec& model, const GpuSpec& gpu, const VllmArgs& a, const Resolved& r,
                const VllmMeasured& ms, const ModelSpec* draft, std::vector<std::string>* warn) {
  VllmTerms t;
  t.util = r.util;
  t.total = ms.total.value_or(gpu.total_bytes);
  t.total_src = ms.total ? "measured" : "catalog";
  if (t.total <= 0)
    throw InputError(fmt::format("GPU '{}' has no total memory in the catalog", gpu.id));
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  par.dp = a.dp;
  // vLLM's expert-parallel size is tp * dp; EstimateWeights shards experts by ep x tp.
  par.ep = a.enable_expert_parallel ? a.dp : 1;
  if (ms.weights) {
    t.weights = *ms.weights;
    t.weights_src = "measured";
  } else {
    t.weights = EstimateWeights(model, par).bytes_per_rank;
    int mtp = ExtraMtpLayers(model, a);
    if (mtp > 0 && model.num_layers > 0) t.weights += t.weights / model.num_layers * mtp;
    if (draft != nullptr) t.weights += EstimateWeights(*draft, par).bytes_per_rank;
    t.weights_src = "estimated";
  }
  int64_t sampler_rows = IsV0(r.era) ? r.max_num_seqs : std::min(r.max_num_seqs, r.mnbt);
  if (ms.activation_peak) {
    t.activation = *ms.activation_peak;
    t.activation_src = "measured";
  } else if (ms.peak_torch) {
    // The V0 one-line log's peak_torch_memory includes the weights.
    t.activation = std::max<int64_t>(0, *ms.peak_torch - t.weights);
    t.activation_src = "measured peak_torch - weights";
  } else {
    t.activation = EstimateVllmActivationPeak(model, a.tp, r.mnbt, sampler_rows, r.era);
    t.activation_src = "estimated";
  }
  if (ms.non_torch) {
    t.non_torch = *ms.non_torch;
    t.non_torch_src = "measured";
  } else {
    t.non_torch = EstimateVllmNonTorch(r.era, a.tp * a.pp, gpu);
    t.non_torch_src = "estimated";
  }
  if (ms.cuda_graph) {
    t.cuda_graph = *ms.cuda_graph;
    t.graph_src = "measured";
  } else {
    t.cuda_graph = a.enforce_eager ? 0 : EstimateVllmCudaGraph(model, a.tp, r.max_num_seqs);
    t.graph_src = "estimated";
  }
  t.pre_load_free_measured = ms.pre_load_free.has_value();
  t.pre_load_free = ms.pre_load_free.value_or(t.total - EstimateCudaContext());
  t.peak_torch = ms.peak_torch;
  t.available_kv = ms.available_kv;
  t.kv_cache_memory = a.kv_cache_memory_bytes;
  t.enforce_eager = a.enforce_eager;
  if (!ms.activation_peak && !ms.available_kv && !ms.peak_torch) {
    warn->push_back(fmt::format(
        "activation peak is kvplan's estimate ({} GiB for {} batched tokens, {} sampler rows); "
        "pass the logged value to be exact",
        Gib2(t.activation), r.mnbt, sampler_rows));
  }
  return t;
}

VllmBudget RunBudget(const VllmTerms& t, const Resolved& r) {
  switch (r.era) {
    case VllmEra::kV0Legacy:
    case VllmEra::kV0:
      return VllmV0Budget(t, r.era);
    case VllmEra::kV1Early:
      return VllmV1EarlyBudget(t);
    case VllmEra::kV1:
      return VllmV1Budget(t, r.release);
    case VllmEra::kV1GraphEstimate:
      return VllmV1GraphEstimateBudget(t, r.release);
  }
  return {};
}

int64_t KvBytesAllocated(const VllmKvSpec& s, int64_t blocks, bool v0) {
  if (v0) return blocks * s.block_size * s.BytesPerTokenAllLayers();
  if (s.hybrid) return blocks * s.page_bytes * s.group_size;
  return blocks * s.block_size * s.BytesPerTokenAllLayers();
}

void FillResult(const ModelSpec& model, const Resolved& r, const VllmTerms& t, const VllmBudget& b,
                const VllmKvSpec& spec, const VllmKvReport& rep, PlanResult* out) {
  bool v0 = IsV0(r.era);
  out->ok = b.error.empty() && rep.ok;
  out->error_message = !b.error.empty() ? b.error : rep.error;
  out->gpu_total_bytes = t.total;
  out->pre_load_free_bytes = t.pre_load_free;
  out->post_load_free_bytes = t.pre_load_free - t.weights;
  out->weights_bytes_per_gpu = t.weights;
  out->rest_memory_bytes = b.available;
  out->cell_size_bytes = spec.BytesPerTokenAllLayers();
  out->max_total_num_tokens = rep.tokens;
  out->max_running_requests = r.max_num_seqs;
  out->context_length = r.max_model_len;
  out->settings = r.settings;
  out->stages = b.stages;
  std::string kv_src = v0 ? "vllm/worker/worker.py + cache_engine.py"
                          : "vllm/v1/core/kv_cache_utils.py @v0.10 (bbf906a8)";
  std::string layout = fmt::format(
      "{} layers x {} B/token ({}), block_size {}{}", spec.layers.size(),
      spec.layers.empty() ? 0 : spec.layers.front().bytes_per_token, spec.dtype, spec.block_size,
      spec.hybrid ? fmt::format("; {} groups of {} layers, {} padding", spec.num_groups,
                                spec.group_size, spec.padding_layers)
                  : "");
  out->stages.push_back(
      {"needed_for_one_request",
       fmt::format("{} tokens x {} = {} GiB", r.max_model_len, layout, Gib2(rep.needed)),
       rep.needed, kv_src, ""});
  int64_t kv_alloc = rep.ok ? KvBytesAllocated(spec, rep.num_blocks, v0) : 0;
  if (rep.ok) {
    int64_t divisor =
        v0 ? spec.block_size * spec.BytesPerTokenAllLayers()
           : spec.page_bytes *
                 (spec.hybrid ? spec.group_size : static_cast<int64_t>(spec.layers.size()));
    out->stages.push_back(
        {"kv_cache",
         fmt::format("num_gpu_blocks = {} // {} = {} (min over workers: identical ranks); "
                     "tokens = {} = {}",
                     b.available, divisor, rep.num_blocks, rep.token_rule, rep.tokens),
         kv_alloc, kv_src, ""});
  }
  out->memory.push_back({"weights", t.weights});
  out->memory.push_back({"activation peak (profiling)", t.activation});
  out->memory.push_back({"non-torch (NCCL, workspaces)", t.non_torch});
  int64_t graphs = t.enforce_eager ? 0 : t.cuda_graph;
  if (graphs > 0) out->memory.push_back({"cuda graphs", graphs});
  out->memory.push_back({"kv cache", kv_alloc});
  int64_t used = t.weights + t.activation + t.non_torch + graphs + kv_alloc;
  out->memory.push_back(
      {"unused (1 - utilization headroom)", std::max<int64_t>(0, t.total - used)});
  auto fig = [&](const std::string& k, double v) { out->figures.push_back({k, v, ""}); };
  fig("gpus_per_replica", static_cast<double>(r.gpus_per_replica));
  fig("num_gpu_blocks", static_cast<double>(rep.num_blocks));
  fig("kv_cache_tokens", static_cast<double>(rep.tokens));
  fig("max_concurrency", rep.concurrency);
  fig("available_kv_cache_gib", ToGiB(b.available));
  fig("requested_memory_gib", b.requested / static_cast<double>(kGiB));
  fig("needed_kv_gib", ToGiB(rep.needed));
  if (rep.estimated_max_len > 0)
    fig("estimated_max_model_len", static_cast<double>(rep.estimated_max_len));
  fig("block_size", static_cast<double>(spec.block_size));
  fig("max_num_batched_tokens", static_cast<double>(r.mnbt));
  fig("activation_peak_gib", ToGiB(t.activation));
  fig("non_torch_gib", ToGiB(t.non_torch));
  fig("cuda_graph_gib", ToGiB(graphs));
  fig("kv_cache_groups", spec.num_groups);
  if (spec.padding_layers > 0) fig("padding_layers", spec.padding_layers);
  if (v0) fig("num_cpu_blocks", static_cast<double>(rep.num_cpu_blocks));
  // The lines the engine prints, in order ("log_1", "log_2", ...).
  std::vector<std::string> lines = b.log_lines;
  lines.insert(lines.end(), rep.log_lines.begin(), rep.log_lines.end());
  for (size_t i = 0; i < lines.size(); ++i) {
    out->figures.push_back({fmt::format("log_{}", i + 1), 0, lines[i]});
  }
  out->warnings.insert(out->warnings.end(), b.warnings.begin(), b.warnings.end());
  for (auto [pad, count] : spec.padding_by_kind) {
    // kv_cache_utils.py _get_kv_cache_groups_uniform_page_size @v0.10: the padding warning.
    out->warnings.push_back(
        fmt::format("Add {} padding layers, may waste at most {:.2f}% KV cache memory", pad,
                    100.0 * pad / count));
  }
  if (model.NumLayersOfKind(LayerKind::kLinear) > 0) {
    out->warnings.push_back(
        "linear-attention/mamba state layers are not modelled (no per-token KV)");
  }
}

}  // namespace

PlanResult PlanVllmNoFixes(const std::string& version, const ModelSpec& model_in,
                           const GpuSpec& gpu, const VllmArgs& a, const VllmMeasured& ms,
                           const ModelSpec* draft) {
  Resolved r = Resolve(version, model_in, gpu, a);
  ModelSpec model = WithQuantization(model_in, a.quantization);
  PlanResult out;
  out.engine = "vllm";
  out.engine_version = r.release.text;
  out.era = VllmEraName(r.era);
  out.fraction_name = "gpu_memory_utilization";
  out.fraction = r.util;
  out.fraction_user = a.gpu_memory_utilization.has_value();
  out.warnings = r.warnings;
  if (a.speculative &&
      (a.speculative->method == "eagle" || a.speculative->method == "eagle3" ||
       a.speculative->method == "draft_model") &&
      draft == nullptr) {
    out.warnings.push_back(
        "the speculative draft model was not loaded: its weights and KV are not counted");
  }
  VllmTerms t = Terms(model, gpu, a, r, ms, draft, &out.warnings);
  VllmBudget b = RunBudget(t, r);
  bool v0 = IsV0(r.era);
  VllmKvOptions opt;
  opt.tp = a.tp;
  opt.pp = a.pp;
  opt.block_size = r.block_size;
  opt.kv_cache_dtype = a.kv_cache_dtype;
  // The hybrid allocator (PR #17996 era, 0.9.2+) groups sliding-window layers.
  opt.hybrid_allocator = !v0 && r.release.AtLeast(0, 9, 2) && !a.disable_hybrid_kv_cache_manager;
  opt.extra_full_layers = ExtraMtpLayers(model, a);
  opt.draft = draft;
  VllmKvSpec spec = BuildVllmKvSpec(model, opt);
  VllmKvReport rep;
  if (v0) {
    rep = VllmV0Report(spec, b.available, r.max_model_len, GiBToBytes(a.swap_space_gib), r.era);
  } else {
    // The start-up check runs on the spec merged from every worker: under PP it
    // counts all layers (issue 34076, vLLM 0.15.2).
    VllmKvOptions all = opt;
    all.pp = 1;
    VllmKvSpec check = a.pp > 1 ? BuildVllmKvSpec(model, all) : spec;
    rep = VllmV1Report(spec, check, b.available, r.max_model_len, r.mnbt, r.release);
  }
  FillResult(model, r, t, b, spec, rep, &out);
  for (const std::string& f : a.unknown_flags) {
    out.warnings.push_back(
        fmt::format("flag {} is not modelled (assumed not to affect memory)", f));
  }
  return out;
}

PlanResult PlanVllm(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                    const VllmArgs& args, const VllmMeasured& measured, const ModelSpec* draft) {
  PlanResult out = PlanVllmNoFixes(version, model, gpu, args, measured, draft);
  if (!out.ok) out.fixes = VllmFixes(version, model, gpu, args, measured, draft, out);
  return out;
}

std::vector<std::string> VllmVersions() {
  return {"0.6.3",  "0.7.0",  "0.7.3",  "0.8.5",  "0.9.1",  "0.9.2",    "0.10.1",
          "0.11.0", "0.15.2", "0.20.0", "0.21.0", "0.26.0", kVllmNewest};
}

}  // namespace kvplan
