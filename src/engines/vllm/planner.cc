// PlanVllm: runs the stages of engines/vllm/stages.h in order (defaults, memory
// terms, the era's budget, KV spec, the era's KV report) and writes the plan
// from their data.
#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/budget.h"
#include "engines/vllm/dsv4_support.h"
#include "engines/vllm/fixes.h"
#include "engines/vllm/hybrid.h"
#include "engines/vllm/kv_spec.h"
#include "engines/vllm/release.h"
#include "engines/vllm/stages.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

VllmBudget VllmEraBudget(const VllmTerms& t, const VllmDefaults& d) {
  switch (d.era) {
    case VllmEra::kV0Legacy:
    case VllmEra::kV0:
      return VllmV0Budget(t, d.era);
    case VllmEra::kV1Early:
      return VllmV1EarlyBudget(t);
    case VllmEra::kV1:
      // gpu_worker.py @v0.18.0: the estimate is profiled, and subtracted when the variable is 1.
      if (d.release.AtLeast(0, 18, 0)) return VllmV1GraphEstimateBudget(t);
      return VllmV1Budget(t);
    case VllmEra::kV1GraphEstimate:
      return VllmV1GraphEstimateBudget(t);
  }
  return {};
}

VllmBudgetText DescribeVllmBudget(const VllmTerms& t, const VllmBudget& b, const VllmDefaults& d) {
  switch (d.era) {
    case VllmEra::kV0Legacy:
    case VllmEra::kV0:
      return DescribeVllmV0Budget(t, b, d.era);
    case VllmEra::kV1Early:
      return DescribeVllmV1EarlyBudget(t, b);
    case VllmEra::kV1:
      if (d.release.AtLeast(0, 18, 0)) return DescribeVllmV1GraphEstimateBudget(t, b, d.release);
      return DescribeVllmV1ProfiledBudget(t, b, d.release);
    case VllmEra::kV1GraphEstimate:
      return DescribeVllmV1GraphEstimateBudget(t, b, d.release);
  }
  return {};
}

VllmKvStage VllmBuildKvStage(const ModelSpec& model, const VllmArgs& a, const VllmDefaults& d,
                             const ModelSpec* draft) {
  bool v0 = IsV0(d.era);
  VllmKvOptions opt;
  opt.tp = a.tp;
  opt.pp = a.pp;
  opt.block_size = d.block_size;
  VllmSparseMlaCache sparse = VllmDeepSeekV32Cache(model, d.release, a.kv_cache_dtype);
  opt.kv_cache_dtype = sparse.kv_cache_dtype;
  opt.dsa_indexer = !v0 && sparse.indexer;
  opt.mamba_page_bytes = d.hybrid.modelled ? d.hybrid.page_bytes : 0;
  opt.mamba_pages_per_request = d.hybrid.pages_per_request;
  // The hybrid allocator (PR #17996 era, 0.9.2+) groups sliding-window layers.
  opt.hybrid_allocator = !v0 && d.release.AtLeast(0, 9, 2) && !a.disable_hybrid_kv_cache_manager;
  opt.extra_full_layers = VllmExtraMtpLayers(model, a);
  opt.draft = draft;
  VllmKvStage kv;
  kv.spec = BuildVllmKvSpec(model, opt);
  if (!v0) {
    // The start-up check runs on the spec merged from every worker: under PP it
    // counts all layers (issue 34076, vLLM 0.15.2).
    VllmKvOptions all = opt;
    all.pp = 1;
    kv.check = a.pp > 1 ? BuildVllmKvSpec(model, all) : kv.spec;
  }
  return kv;
}

namespace {

// The blocks the budget alone gives (what the override line names).
int64_t VllmProfiledBlocks(const VllmKvSpec& spec, int64_t available, bool v0) {
  if (!v0) return VllmNumBlocks(spec, available);
  return available > 0 ? available / (spec.block_size * spec.BytesPerTokenAllLayers()) : 0;
}

// The KV memory the report sizes: the budget's, or --num-gpu-blocks-override's blocks. V0
// (llm_engine.py _initialize_kv_caches @v0.6.3) replaces num_gpu_blocks before
// raise_if_cache_size_invalid; V1 (kv_cache_utils.py get_kv_cache_configs) replaces each worker's
// available memory by override x bytes per block before the start-up check, logging
// "Overriding num_gpu_blocks=N with num_gpu_blocks_override=M". (Earlier V1 releases override in
// get_num_blocks, after the check on the profiled memory; that release boundary is not dated.)
int64_t VllmKvMemoryForReport(const VllmKvStage& kv, const VllmBudget& b, const VllmArgs& a,
                              const VllmDefaults& d) {
  if (!a.num_gpu_blocks_override) return b.available;
  return VllmKvBytesAllocated(kv.spec, *a.num_gpu_blocks_override, IsV0(d.era));
}

}  // namespace

VllmKvReport VllmEraKvReport(const VllmKvStage& kv, const VllmBudget& b, const VllmArgs& a,
                             const VllmDefaults& d) {
  int64_t available = VllmKvMemoryForReport(kv, b, a, d);
  if (IsV0(d.era)) {
    return VllmV0Report(kv.spec, available, d.max_model_len, GiBToBytes(a.swap_space_gib));
  }
  return VllmV1Report(kv.spec, kv.check, available, d.max_model_len, d.mnbt, d.release);
}

int64_t VllmKvBytesAllocated(const VllmKvSpec& s, int64_t blocks, bool v0) {
  if (v0) return blocks * s.block_size * s.BytesPerTokenAllLayers();
  if (s.hybrid) return blocks * s.page_bytes * s.group_size;
  // A state-only model: one state page per layer per block (its bytes per token are 0).
  if (s.StateOnly()) return blocks * s.page_bytes * static_cast<int64_t>(s.layers.size());
  return blocks * s.block_size * s.BytesPerTokenAllLayers();
}

// What every vLLM plan states before its outcome: the release and era, the
// memory fraction and whose it is, and the KV pool's scope.
PlanResult VllmPlanHead(const VllmDefaults& d, const VllmArgs& a) {
  PlanResult out;
  out.engine = "vllm";
  out.engine_version = d.release.text;
  out.era = VllmEraName(d.era);
  out.fraction_name = "gpu_memory_utilization";
  // v1/core/kv_cache_utils.py @v0.11.0 get_kv_cache_configs: a pool per TP x PP group, per DP rank.
  out.kv_scope = KvScopeOf(d.gpus_per_replica, a.dp, false);
  out.fraction = d.util;
  out.fraction_user = a.gpu_memory_utilization.has_value();
  return out;
}

// The plan of a launch vLLM refuses before sizing the KV cache: the settings,
// the engine's message, and (for a load failure) the terms that did not fit.
PlanResult VllmRefusedPlan(const VllmDefaults& d, const ModelSpec& model, const GpuSpec& gpu,
                           const VllmArgs& a, const ModelSpec* draft, const VllmRefusal& refusal,
                           const VllmTerms* t) {
  PlanResult out = VllmPlanHead(d, a);
  out.ok = false;
  out.not_modelled = refusal.kind == VllmRefusal::Kind::kNotModelled;
  out.error_message = refusal.message;
  out.gpu_total_bytes = t ? t->total : gpu.total_bytes;
  if (t) {
    out.pre_load_free_bytes = t->pre_load_free;
    out.weights_bytes_per_gpu = t->weights;
  }
  out.max_running_requests = d.max_num_seqs;
  out.context_length = d.max_model_len;
  out.settings = DescribeVllmSettings(d, a);
  out.figures.push_back({"gpus_per_replica", static_cast<double>(d.gpus_per_replica), ""});
  out.warnings = DescribeVllmDefaultWarnings(d, model, a, draft);
  return out;
}

PlanResult PlanVllmNoFixes(const std::string& version, const ModelSpec& model_in,
                           const GpuSpec& gpu, const VllmArgs& a, const VllmMeasured& ms,
                           const ModelSpec* draft) {
  VllmDefaults d = VllmResolveDefaults(version, model_in, gpu, a);
  ModelSpec model = VllmWithQuantization(model_in, a);
  if (VllmRefusal r = VllmConfigRefusal(d, model, a); r.Refused()) {
    return VllmRefusedPlan(d, model, gpu, a, draft, r, nullptr);
  }
  VllmTerms t = VllmMemoryTerms(model, gpu, a, d, ms, draft);
  VllmBudget b = VllmEraBudget(t, d);
  if (VllmRefusal r = VllmLoadRefusal(t, b, ms); r.Refused()) {
    return VllmRefusedPlan(d, model, gpu, a, draft, r, &t);
  }
  if (std::string why = VllmDeepseekV4NotModelled(model, d.release); !why.empty()) {
    return VllmRefusedPlan(d, model, gpu, a, draft, {VllmRefusal::Kind::kNotModelled, why}, &t);
  }
  if (VllmStateOnlyModel(model) && !d.hybrid.modelled) {
    // Nothing but state layers: without the state there is no cache to plan.
    return VllmRefusedPlan(d, model, gpu, a, draft,
                           {VllmRefusal::Kind::kNotModelled,
                            fmt::format("kvplan: {}; {} has no attention layers, so nothing "
                                        "else is planned",
                                        d.hybrid.not_modelled_reason, model.architecture)},
                           &t);
  }
  VllmKvStage kv = VllmBuildKvStage(model, a, d, draft);
  VllmKvReport rep = VllmEraKvReport(kv, b, a, d);

  PlanResult out = VllmPlanHead(d, a);
  out.ok = b.error.empty() && rep.ok;
  out.error_message = !b.error.empty() ? b.error : rep.error;
  out.gpu_total_bytes = t.total;
  out.pre_load_free_bytes = t.pre_load_free;
  out.post_load_free_bytes = t.pre_load_free - t.weights;
  out.weights_bytes_per_gpu = t.weights;
  out.rest_memory_bytes = b.available;
  out.cell_size_bytes = kv.spec.BytesPerTokenAllLayers();
  out.max_total_num_tokens = rep.tokens;
  out.max_running_requests = d.max_num_seqs;
  out.context_length = d.max_model_len;
  out.settings = DescribeVllmSettings(d, a);
  VllmBudgetText bt = DescribeVllmBudget(t, b, d);
  out.stages = bt.stages;
  for (Stage& s : DescribeVllmKvStages(d, b, kv.spec, rep)) out.stages.push_back(std::move(s));
  int64_t kv_alloc = rep.ok ? VllmKvBytesAllocated(kv.spec, rep.num_blocks, IsV0(d.era)) : 0;
  out.memory = DescribeVllmMemory(t, kv_alloc);
  out.figures = DescribeVllmFigures(d, t, b, bt, kv.spec, rep);
  for (const auto& warnings :
       {DescribeVllmDefaultWarnings(d, model, a, draft), DescribeVllmTermWarnings(t, d),
        DescribeVllmKvWarnings(d.hybrid, bt, kv.spec, a)}) {
    out.warnings.insert(out.warnings.end(), warnings.begin(), warnings.end());
  }
  if (a.num_gpu_blocks_override) {
    out.warnings.push_back(fmt::format(
        "Overriding num_gpu_blocks={} with num_gpu_blocks_override={}",
        VllmProfiledBlocks(kv.spec, b.available, IsV0(d.era)), *a.num_gpu_blocks_override));
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
