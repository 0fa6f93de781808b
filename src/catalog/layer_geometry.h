// Each decoder layer's attention geometry, read one way for every engine and
// for the weight count: ModelSpec::layer_geometry where the config gives layers
// their own KV heads, head sizes, no attention or shared KV (DeciLM,
// MiMo-V2-Flash, Gemma-3n/4), the model-level fields otherwise. This is the one
// owner of "K/V heads x head sizes" per layer; engines apply their own
// per-rank rounding and layer selection on top of it.
#pragma once

#include <cstdint>
#include <vector>

#include "catalog/model.h"

namespace kvplan {

// Layer `layer`'s geometry with every field resolved (no 0 / -1 left): the
// model-level values where ModelSpec::layer_geometry is empty or leaves them
// unset. A kLinear layer (state, no per-token KV) comes back as LayerKv::kNone.
LayerGeometry LayerGeometryAt(const ModelSpec& m, int layer);

// True when some layer's geometry differs from the model-level fields.
bool HasPerLayerGeometry(const ModelSpec& m);

// Whether layer `layer` holds KV of its own: not linear attention, not no-op,
// not reading another layer's KV.
bool LayerHoldsKv(const ModelSpec& m, int layer);

// Whether layer `layer` has an attention (or linear-attention) module at all:
// false only where layer_geometry says LayerKv::kNone (DeciLM no_op).
bool LayerHasAttention(const ModelSpec& m, int layer);

// The K/V heads one rank holds of `kv_heads` under attention TP `attention_tp`:
// max(1, kv_heads // tp), heads replicated when tp exceeds them (SGLang and vLLM
// get_num_kv_heads: python/sglang/srt/configs/model_config.py @v0.5.3,
// vllm/config/model.py @v0.10).
int KvHeadsPerRank(int kv_heads, int attention_tp);

// K plus V elements one token takes in layer `layer` on one rank: GQA
// KvHeadsPerRank x (head_dim + v_head_dim); MLA one latent, kv_lora_rank + rope
// dim, not split by TP; 0 for a layer that holds no KV of its own.
int64_t LayerKvElementsPerToken(const ModelSpec& m, int layer, int attention_tp);

// LayerKvElementsPerToken x `elem_bytes`: a layer's KV bytes per token per rank.
int64_t LayerKvBytesPerToken(const ModelSpec& m, int layer, int attention_tp, int elem_bytes);

// Sum of LayerKvBytesPerToken over layers [begin, end).
int64_t KvBytesPerTokenOfLayers(const ModelSpec& m, int begin, int end, int attention_tp,
                                int elem_bytes);

// The number of layers in [begin, end) that hold KV of their own.
int NumKvLayers(const ModelSpec& m, int begin, int end);

// Layers per pipeline stage: num_layers // pp each, the remainder one each to
// the stages before the last (vllm/distributed/utils.py get_pp_indices @v0.10.0;
// SGLang uses the same partition).
std::vector<int> PipelineStageLayers(int num_layers, int pp);

}  // namespace kvplan
