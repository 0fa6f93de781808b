// vLLM V1 on a hybrid model (attention layers plus mamba / gated-delta-net
// state layers): one state page per state layer (MambaSpec), and the attention
// block size enlarged until one attention page holds a state page, which is
// then padded to the attention page so both kinds share one pool of blocks
// (vllm/model_executor/models/config.py HybridAttentionMambaModelConfig, moved
// to vllm/platforms/interface.py _align_hybrid_block_size in 0.18).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"

namespace kvplan {

// One state tensor of one layer on this rank.
struct VllmStateTensor {
  std::string name;  // "conv", "ssm"
  int64_t elements = 0;
  int dtype_bytes = 2;
};

struct VllmHybridBlock {
  // The release sizes the state layers in the KV cache (V1, 0.10.0 and later,
  // attention layers of the GQA kind); false leaves the state unmodelled.
  bool modelled = false;
  std::string not_modelled_reason;  // when the model has state layers and !modelled
  std::vector<VllmStateTensor> state;
  int64_t state_bytes = 0;           // one layer's state, unpadded (MambaSpec.page_size_bytes)
  int64_t attn_bytes_per_token = 0;  // one attention layer, one token, this rank
  int64_t alignment = 16;            // the attention kernel's block-size multiple
  int64_t min_block_size = 0;        // smallest aligned block whose page holds one state
  int64_t block_size = 0;            // the block size used
  bool enlarged = false;             // vLLM raised the block size (and logs it)
  int64_t page_bytes = 0;            // block_size * attn_bytes_per_token = padded state page
  int64_t pages_per_request = 1;     // state pages one request holds per state layer
  std::string rule;                  // the block size's rule, with its source
  // No attention layers at all (Mamba, Mamba2): one unpadded state page per block of
  // max_model_len tokens, nothing to enlarge.
  bool state_only = false;
};

// The hybrid layout of `model` on one rank at `release`, given the block size
// the defaults chose (`block_size`) and whether the user set it. For a model
// without state layers returns {} (modelled false, no reason).
VllmHybridBlock VllmHybridAttentionBlock(const ModelSpec& model, const GpuSpec& gpu,
                                         const VllmArgs& a, const VllmRelease& release, bool v1,
                                         int64_t block_size);

// True when every layer of `model` holds state and none attends (Mamba, Mamba2).
bool VllmStateOnlyModel(const ModelSpec& model);

// The layout of a model without attention layers on one rank at `release`: V1 gives each
// mamba layer a MambaSpec whose block is the whole max_model_len, so a request holds one
// page per layer and the page is the state itself (no attention page to pad it to).
VllmHybridBlock VllmStateOnlyBlock(const ModelSpec& model, const VllmArgs& a,
                                   const VllmRelease& release, bool v1, int64_t max_model_len);

// DeepSeek-V3.2 (sparse MLA): the cache dtype vLLM switches to and whether the
// indexer's K cache is in the KV cache (from 0.11.0, the first release with the model).
struct VllmSparseMlaCache {
  bool indexer = false;
  std::string kv_cache_dtype;  // the effective --kv-cache-dtype
  std::string rule;            // why it differs from the asked one ("" when it does not)
};
VllmSparseMlaCache VllmDeepSeekV32Cache(const ModelSpec& model, const VllmRelease& release,
                                        const std::string& kv_cache_dtype);

// The lines vLLM logs for it ("Setting attention block size to N tokens ...",
// "Padding mamba page size by X% ..."), in order.
std::vector<std::string> VllmHybridLogLines(const VllmHybridBlock& h);

}  // namespace kvplan
