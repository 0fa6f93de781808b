// Stage "weights" of a vLLM plan, with the other memory terms of one rank
// (activation peak, non-torch, CUDA graphs): each measured or kvplan's estimate.
#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "catalog/weights.h"
#include "engines/vllm/estimates.h"
#include "engines/vllm/multimodal.h"
#include "engines/vllm/stages.h"
#include "engines/vllm/weight_loading.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

int64_t EstimatedWeights(const ModelSpec& model, const GpuSpec& gpu, const VllmArgs& a,
                         const VllmRelease& release, const ModelSpec* draft) {
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  par.dp = a.dp;
  // vLLM's expert-parallel size is tp * dp; EstimateWeights shards experts by ep x tp.
  par.ep = a.enable_expert_parallel ? a.dp : 1;
  WeightEstimate w = EstimateWeights(model, par);
  int64_t weights = VllmLoadedWeightBytes(model, w) +
                    VllmMxfp4ExpertExtraBytes(model, w, a, gpu, release) -
                    VllmEncoderWeightsOvercount(w, a);
  int mtp = VllmExtraMtpLayers(model, a);
  if (mtp > 0 && model.num_layers > 0) weights += weights / model.num_layers * mtp;
  if (draft != nullptr) weights += EstimateWeights(*draft, par).bytes_per_rank;
  return weights;
}

void ActivationTerm(const ModelSpec& model, const GpuSpec& gpu, const VllmArgs& a,
                    const VllmDefaults& d, const VllmMeasured& ms, VllmTerms* t) {
  t->sampler_rows = IsV0(d.era) ? d.max_num_seqs : std::min(d.max_num_seqs, d.mnbt);
  if (ms.activation_peak) {
    t->activation = *ms.activation_peak;
    t->activation_src = "measured";
  } else if (ms.peak_torch) {
    // The V0 one-line log's peak_torch_memory includes the weights.
    t->activation = std::max<int64_t>(0, *ms.peak_torch - t->weights);
    t->activation_src = "measured peak_torch - weights";
  } else {
    const int64_t moe_tokens = VllmFusedMoeWorkspaceTokens(
        d.release, d.mnbt, a.fused_moe_chunk_size, a.fused_moe_chunking);
    t->activation = EstimateVllmActivationPeak(model, a.tp, d.mnbt, t->sampler_rows, d.era,
                                               d.release, gpu, moe_tokens);
    // V1 profiles the encoder on the dummy images, then the text model with
    // their outputs held (multimodal.h).
    if (!IsV0(d.era)) {
      t->activation = VllmProfileActivation(t->activation,
                                            VllmEncoderBudgetOf(model, a, d.mnbt, d.max_num_seqs));
    }
    t->activation_src = "estimated";
  }
  t->activation_from_log = ms.activation_peak || ms.available_kv || ms.peak_torch;
}

}  // namespace

ModelSpec VllmWithQuantization(ModelSpec m, const VllmArgs& a) {
  // --dtype and --quantization (fp8 on a 16-bit checkpoint quantizes at load time).
  return ModelAsLaunched(std::move(m), VllmWeightLoading(a));
}

int VllmExtraMtpLayers(const ModelSpec& m, const VllmArgs& a) {
  if (!a.speculative) return 0;
  const std::string& meth = a.speculative->method;
  if (meth == "mtp" || meth == "deepseek_mtp" || meth == "qwen3_next_mtp" || meth == "ernie_mtp" ||
      meth == "glm4_moe_mtp") {
    return std::max(1, m.num_nextn_predict_layers);
  }
  return 0;
}

// `model` as launched (VllmWithQuantization: --dtype and --quantization applied).
VllmTerms VllmMemoryTerms(const ModelSpec& model, const GpuSpec& gpu, const VllmArgs& a,
                          const VllmDefaults& d, const VllmMeasured& ms, const ModelSpec* draft) {
  VllmTerms t;
  t.util = d.util;
  t.total = ms.total.value_or(gpu.total_bytes);
  t.total_src = ms.total ? "measured" : "catalog";
  if (t.total <= 0)
    throw InputError(fmt::format("GPU '{}' has no total memory in the catalog", gpu.id));
  t.weights = ms.weights ? *ms.weights : EstimatedWeights(model, gpu, a, d.release, draft);
  t.weights_src = ms.weights ? "measured" : "estimated";
  ActivationTerm(model, gpu, a, d, ms, &t);
  t.non_torch =
      ms.non_torch
          ? *ms.non_torch
          : EstimateVllmNonTorch(d.era, d.release, VllmCollectiveGroupSize(model, a.tp, a.dp), gpu);
  t.non_torch_src = ms.non_torch ? "measured" : "estimated";
  if (ms.cuda_graph) {
    t.cuda_graph = *ms.cuda_graph;
  } else {
    t.cuda_graph = a.enforce_eager ? 0 : EstimateVllmCudaGraph(model, a.tp, d.max_num_seqs);
  }
  t.graph_src = ms.cuda_graph ? "measured" : "estimated";
  t.pre_load_free_measured = ms.pre_load_free.has_value();
  t.pre_load_free = ms.pre_load_free.value_or(t.total - EstimateCudaContext());
  t.peak_torch = ms.peak_torch;
  t.available_kv = ms.available_kv;
  t.kv_cache_memory = a.kv_cache_memory_bytes;
  t.enforce_eager = a.enforce_eager;
  t.estimate_cudagraphs = a.estimate_cudagraphs.value_or(d.release.AtLeast(0, 20, 0));
  return t;
}

std::vector<std::string> DescribeVllmTermWarnings(const VllmTerms& t, const VllmDefaults& d) {
  if (t.activation_from_log) return {};
  return {fmt::format(
      "activation peak is kvplan's estimate ({} for {} batched tokens, {} sampler rows); "
      "pass the logged value to be exact",
      FormatGiB(t.activation), d.mnbt, t.sampler_rows)};
}

}  // namespace kvplan
