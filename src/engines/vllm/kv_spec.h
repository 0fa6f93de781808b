// vLLM's KV-cache layout on one rank: per-layer page sizes, the hybrid
// allocator's groups, and the per-request memory rules used by the start-up
// check and the concurrency figure (vllm/v1/kv_cache_interface.py,
// vllm/v1/core/kv_cache_utils.py).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "catalog/model.h"

namespace kvplan {

struct VllmKvLayer {
  LayerKind kind = LayerKind::kFull;
  int64_t bytes_per_token = 0;  // one layer, one token, this rank (0 for a state layer)
  int64_t window = 0;           // sliding window / attention chunk (tokens)
  int64_t state_bytes = 0;      // kLinear: the (padded) mamba state page, one per request
  bool indexer = false;         // a DeepSeek-V3.2 indexer K cache (its own spec per layer)
  // Tokens per block of this layer: 0 = the spec's block_size; larger where the hybrid
  // allocator unified a smaller page with the largest (MiMo-V2-Flash's full layers).
  int64_t block_size = 0;
};

struct VllmKvSpec {
  std::vector<VllmKvLayer> layers;  // the layers whose KV this rank holds
  int64_t block_size = 16;
  std::string dtype;  // "bfloat16", "fp8", "fp8_ds_mla", ...
  bool mla = false;
  bool hybrid = false;  // more than one layer type and the hybrid allocator on

  // Grouping (get_kv_cache_groups); for a uniform model one group of all layers.
  int group_size = 0;
  int num_groups = 0;
  int padding_layers = 0;
  // Per layer type that needed padding: {padding layers, layers of that type}.
  std::vector<std::pair<int, int>> padding_by_kind;
  std::vector<LayerKind> group_kinds;   // one per group
  int64_t page_bytes = 0;               // one layer, one block (unified across groups)
  int64_t state_pages_per_request = 1;  // kLinear layers: pages one request holds

  int64_t BytesPerTokenAllLayers() const;  // as if every layer were full attention
  bool UniformPages() const;               // every layer has the same page size
  int NumLayers(LayerKind kind) const;     // layers of `kind` in `layers`
  int NumIndexerLayers() const;
  int64_t StateBytes() const;  // one state layer's page (0 without state layers)
  bool StateOnly() const;      // every layer a state layer (Mamba, Mamba2: no attention)
};

// Inputs that shape the spec.
struct VllmKvOptions {
  int tp = 1;
  int pp = 1;
  int64_t block_size = 16;
  std::string kv_cache_dtype = "auto";
  bool hybrid_allocator = true;      // false: --disable-hybrid-kv-cache-manager or V0
  int extra_full_layers = 0;         // MTP layers
  const ModelSpec* draft = nullptr;  // EAGLE/draft model layers share the cache
  // kLinear layers hold one state page of this many bytes (engines/vllm/hybrid.h, padded to
  // the attention page); 0 leaves them out (a release or model whose state is not modelled).
  int64_t mamba_page_bytes = 0;
  int64_t mamba_pages_per_request = 1;  // a state layer's pages per request
  bool dsa_indexer = false;  // DeepSeek-V3.2: each MLA layer has an indexer K cache beside it
};

// Bytes per element of the KV cache for `kv_cache_dtype` ("auto" = model dtype).
int VllmKvDtypeBytes(const std::string& kv_cache_dtype, const ModelSpec& model);

// One attention layer's KV bytes per token on a rank of `tp` (the page of a
// one-token block: FullAttentionSpec / MLAAttentionSpec page_size_bytes).
int64_t VllmAttentionBytesPerToken(const ModelSpec& model, int tp,
                                   const std::string& kv_cache_dtype);

// Builds the spec for the rank holding the most layers. Throws InputError for
// combinations vLLM rejects (fp8_ds_mla on a non-MLA model).
VllmKvSpec BuildVllmKvSpec(const ModelSpec& model, const VllmKvOptions& opt);

// max_memory_usage_bytes of one layer for one request of `max_model_len`.
int64_t VllmLayerMaxMemory(const VllmKvSpec& spec, const VllmKvLayer& layer, int64_t max_model_len,
                           int64_t max_num_batched_tokens);

// Sum over the layers: the KV one request at `max_model_len` needs (the
// start-up check, kv_cache_utils.py check_enough_kv_cache_memory).
int64_t VllmNeededMemory(const VllmKvSpec& spec, int64_t max_model_len,
                         int64_t max_num_batched_tokens);

// num_blocks from bytes (get_num_blocks / get_kv_cache_config_from_groups).
int64_t VllmNumBlocks(const VllmKvSpec& spec, int64_t available_bytes);

// get_max_concurrency_for_kv_cache_config: blocks / blocks one request needs.
double VllmGroupConcurrency(const VllmKvSpec& spec, int64_t num_blocks, int64_t max_model_len,
                            int64_t max_num_batched_tokens);

// estimate_max_model_len: the largest length whose needed memory fits
// (binary search over [1, max_model_len]); 0 when not even one token fits.
int64_t VllmEstimateMaxModelLen(const VllmKvSpec& spec, int64_t available_bytes,
                                int64_t max_model_len, int64_t max_num_batched_tokens);

}  // namespace kvplan
