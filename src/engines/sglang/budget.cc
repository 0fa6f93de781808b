// The weights and budget stages: free memory before and after loading, and
// rest_memory = post_load_free - pre_load_free * (1 - mem_fraction_static),
// the bytes SGLang gives the KV cache.
#include "base/units.h"
#include "catalog/weights.h"
#include "engines/sglang/multimodal.h"
#include "engines/sglang/stages.h"
#include "engines/sglang/weight_loading.h"

namespace kvplan {
namespace {

// Memory the CUDA context and the communicators take before SGLang measures
// pre-load free memory. Not measured by kvplan: an estimate, shown as such.
// Figures from the cases: RTX PRO 6000 TP8 over PCIe 0.97 GiB (the story),
// H200 TP4 about 1.5 GiB (sglang-qwen3-30b-a3b-dp4-dpattn-pr17392), B200 TP4
// about 2.1 GiB (sglang-b200-qwen3-32b-tp4-pr22537).
int64_t EstimatedStartupOverhead(const GpuSpec& gpu, int world_size) {
  int64_t bytes = 512 * kMiB;  // CUDA context and torch
  if (world_size > 1) {
    // NCCL buffers, plus NVLS and custom-allreduce IPC buffers on NVLink.
    bytes += gpu.link == LinkKind::kNvlink ? (gpu.nvlink_generation >= 5 ? 1536 : 1024) * kMiB
                                           : 480 * kMiB;
  }
  return bytes;
}

}  // namespace

SglangWeights SglangWeightsOf(const SglangLaunch& l, const ModelSpec& model, const GpuSpec& gpu,
                              const SglangMeasured& measured, const ModelSpec* draft) {
  const SglangArgs& a = l.args;
  SglangWeights w;
  if (measured.pre_load_free_bytes) {
    w.pre_measured = true;
    w.pre_load_free = *measured.pre_load_free_bytes;
  } else {
    w.startup_overhead = EstimatedStartupOverhead(gpu, a.tp * a.pp);
    w.pre_load_free = gpu.total_bytes - w.startup_overhead;
  }
  const Parallelism par = SglangParallelism(a);
  const WeightEstimate estimate = EstimateWeights(model, par);
  w.weights = SglangLoadedWeightBytes(model, estimate, l.version_key) -
              SglangEncoderWeightsOvercount(model, estimate, a.mm_enable_dp_encoder ? 1 : a.tp);
  w.draft_weights = l.spec && draft != nullptr ? EstimateWeights(*draft, par).bytes_per_rank : 0;
  if (measured.post_load_free_bytes) {
    w.post_measured = true;
    w.post_load_free = *measured.post_load_free_bytes;
    w.weights = w.pre_load_free - w.post_load_free;
  } else {
    // model_runner.py load_model; 2026-06 (#28855): the draft loads before profiling.
    w.post_load_free = w.pre_load_free - w.weights;
    w.draft_subtracted = l.era->draft_weights_before_profile && w.draft_weights > 0;
    if (w.draft_subtracted) w.post_load_free -= w.draft_weights;
  }
  return w;
}

SglangBudget SglangBudgetOf(const SglangLaunch& l, const SglangSettings& s, const SglangWeights& w,
                            const SglangMeasured& measured) {
  const SglangArgs& a = l.args;
  const int world = a.tp * a.pp * (a.enable_dp_attention ? 1 : a.dp);
  SglangBudget b;
  // get_available_gpu_memory all-reduces a float32 tensor over the ranks.
  b.pre_gib = ToGiB(w.pre_load_free);
  b.post_gib = ToGiB(w.post_load_free);
  if (world > 1 && !measured.pre_load_free_bytes) {
    b.pre_gib =
        static_cast<double>(static_cast<float>(w.pre_load_free)) / static_cast<double>(kGiB);
    b.post_gib =
        static_cast<double>(static_cast<float>(w.post_load_free)) / static_cast<double>(kGiB);
  }
  // model_runner.py profile_max_num_token: rest_memory = available - total * (1 - mfs)
  b.slack_gib = b.pre_gib * (1 - s.mem_fraction_static);
  b.rest_gib = b.post_gib - b.slack_gib;
  b.rest_bytes = TruncToInt64(b.rest_gib * static_cast<double>(kGiB));
  b.slack_bytes = GiBToBytes(b.slack_gib);
  return b;
}

}  // namespace kvplan
