// Parameter counts and weight bytes of a model, in total and per GPU rank
// under tensor, pipeline, expert and data(-attention) parallelism.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/allocator_rounding.h"
#include "catalog/model.h"

namespace kvplan {

struct Parallelism {
  int tp = 1;                 // tensor parallel size
  int pp = 1;                 // pipeline parallel size
  int dp = 1;                 // data parallel size
  int ep = 1;                 // expert parallel size (MoE experts sharded ep-ways)
  bool dp_attention = false;  // SGLang --enable-dp-attention: attention TP is tp/dp
  // SGLang --enable-dp-lm-head: under DP attention the lm_head is split over the
  // attention-TP group instead of the whole TP group (added by the models work).
  bool dp_lm_head = false;

  int AttentionTp() const { return dp_attention ? tp / dp : tp; }
  int GpusPerReplica() const { return tp * pp; }
};

// One named part of the weights (embedding, attention, dense MLP, experts,
// shared experts, norms, lm_head, ...), with how it is split across ranks.
struct WeightPart {
  std::string name;
  int64_t params = 0;  // whole model
  int64_t bytes = 0;   // whole model, as stored (quantization applied)
  int64_t bytes_per_rank = 0;
  std::string sharding;  // "tp", "ep", "replicated", "vocab-parallel", ...
};

struct WeightEstimate {
  int64_t total_params = 0;
  int64_t total_bytes = 0;     // whole model as loaded
  int64_t bytes_per_rank = 0;  // the largest rank (pipeline stages differ)
  std::vector<WeightPart> parts;
  bool from_checkpoint = false;  // total_bytes came from safetensors metadata
  // Added by the models work: the pipeline stage bytes_per_rank (and the
  // parts' bytes_per_rank) describe, and each stage's decoder-layer count.
  int stage = 0;
  std::vector<int> stage_layers;
  // The caching allocator's rounding of that rank's tensors (fused as the engines hold them:
  // one qkv_proj, one gate_up_proj, two FusedMoE tensors per layer).
  AllocatorSlack slack;
};

// Weight memory of `model` under `par`. The per-rank figure follows what the
// engines shard: attention and dense MLP by TP (attention by attention-TP under
// DP attention), experts by EP x TP, embeddings vocab-parallel, norms replicated,
// layers split over PP stages.
WeightEstimate EstimateWeights(const ModelSpec& model, const Parallelism& par);

// How an engine measures the memory its weights took at load end.
enum class LoadMeasure {
  kAllocated,   // torch.cuda.memory_allocated before and after (vLLM's DeviceMemoryProfiler)
  kDeviceFree,  // the device's free memory before and after (SGLang's "mem usage")
};

// The weight memory one rank reports at load end: the tensors (w.bytes_per_rank), the caching
// allocator's rounding as `measure` sees it, and the rotary tables the model builds
// (model.rope_cache_elements of `rope_element_bytes` each: the engine's dtype for them).
int64_t LoadedBytesPerRank(const ModelSpec& model, const WeightEstimate& w, LoadMeasure measure,
                           int rope_element_bytes);

// The warning every engine's plan carries when EstimateWeights leaves encoder parts of the
// checkpoint out (ModelSpec::uncounted_weights: a vision tower kvplan does not size, an audio
// encoder): "" when every part is counted. One text, so that no plan is silently low.
std::string UncountedWeightsWarning(const ModelSpec& model);

}  // namespace kvplan
