#include "engines/vllm/kv_spec.h"

#include <algorithm>
#include <map>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/layer_geometry.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// One layer's page of a one-token block. vllm/config/model.py get_num_kv_heads
// @v0.10: MLA keeps one latent "head"; otherwise max(1, total // tp) (heads are
// replicated when tp > kv heads); each Attention layer is built with its own
// heads and sizes, so its spec carries them (nemotron_nas.py, mimo_v2_flash.py).
int64_t LayerBytesPerToken(const ModelSpec& m, int layer, int tp, const std::string& dtype,
                           int dtype_bytes) {
  // vllm/v1/attention/backends/mla/flashmla_sparse.py: fp8_ds_mla stores 656 B per token.
  if (m.attention == AttentionKind::kMla && dtype == "fp8_ds_mla") return 656;
  // kv_cache_interface.py MLAAttentionSpec @bc8282e6: head_size = kv_lora_rank + rope dim;
  // FullAttentionSpec: num_kv_heads * (head_size + head_size_v) * dtype.
  return LayerKvBytesPerToken(m, layer, tp, dtype_bytes);
}

// deepseek_v2.py DeepseekV32IndexerCache @v0.11.0: one MLAAttentionSpec per layer of
// index_head_dim fp8 values plus one float32 scale per 128 (quant_block_size), as uint8.
int64_t IndexerBytesPerToken(const ModelSpec& m) {
  return m.index_head_dim + m.index_head_dim / 128 * 4;
}

LayerKind KindOf(const ModelSpec& m, int i) {
  if (static_cast<size_t>(i) < m.layer_kinds.size()) return m.layer_kinds[i];
  return LayerKind::kFull;
}

// kv_cache_utils.py _get_kv_cache_groups_uniform_page_size @v0.10: layers of
// each type are cut into groups of `group_size`; group_size is the smallest
// per-type count, or the largest when max < 1.5 * min (fewer padding layers).
void BuildGroups(VllmKvSpec* s) {
  std::map<LayerKind, int> count;
  for (const VllmKvLayer& l : s->layers) ++count[l.kind];
  if (count.size() <= 1 || !s->hybrid) {
    s->group_size = static_cast<int>(s->layers.size());
    s->num_groups = 1;
    s->group_kinds = {s->layers.empty() ? LayerKind::kFull : s->layers.front().kind};
    return;
  }
  int mn = 1 << 30, mx = 0;
  for (auto& [k, c] : count) {
    mn = std::min(mn, c);
    mx = std::max(mx, c);
  }
  s->group_size = (mx < 1.5 * mn) ? mx : mn;
  s->num_groups = 0;
  s->padding_layers = 0;
  for (auto& [k, c] : count) {
    int g = static_cast<int>(CeilDiv(c, s->group_size));
    s->num_groups += g;
    s->padding_layers += g * s->group_size - c;
    if (g * s->group_size > c) s->padding_by_kind.push_back({g * s->group_size - c, c});
    for (int i = 0; i < g; ++i) s->group_kinds.push_back(k);
  }
}

// kv_cache_utils.py unify_kv_cache_spec_page_size @v0.10.2: a layer whose page is
// smaller than the largest gets block_size * (largest // its page) tokens per block;
// NotImplementedError when the largest is not a multiple of it.
void UnifyAttentionPages(int64_t max_bytes, VllmKvSpec* s) {
  for (VllmKvLayer& l : s->layers) {
    if (l.bytes_per_token <= 0 || l.bytes_per_token == max_bytes) continue;
    if (max_bytes % l.bytes_per_token != 0) {
      throw InputError(
          "vLLM: NotImplementedError: The page size of the layer is not divisible by the "
          "maximum page size. Cannot unify by adjusting block_size.");
    }
    l.block_size = s->block_size * (max_bytes / l.bytes_per_token);
  }
}

}  // namespace

int64_t VllmKvSpec::BytesPerTokenAllLayers() const {
  int64_t sum = 0;
  for (const VllmKvLayer& l : layers) sum += l.bytes_per_token;
  return sum;
}

bool VllmKvSpec::UniformPages() const {
  for (const VllmKvLayer& l : layers) {
    if (l.bytes_per_token != layers.front().bytes_per_token) return false;
  }
  return true;
}

int VllmKvSpec::NumLayers(LayerKind kind) const {
  return static_cast<int>(std::count_if(layers.begin(), layers.end(), [&](const VllmKvLayer& l) {
    return l.kind == kind && !l.indexer;
  }));
}

int VllmKvSpec::NumIndexerLayers() const {
  return static_cast<int>(
      std::count_if(layers.begin(), layers.end(), [](const VllmKvLayer& l) { return l.indexer; }));
}

int64_t VllmKvSpec::StateBytes() const {
  for (const VllmKvLayer& l : layers) {
    if (l.kind == LayerKind::kLinear) return l.state_bytes;
  }
  return 0;
}

bool VllmKvSpec::StateOnly() const {
  return !layers.empty() && NumLayers(LayerKind::kLinear) == static_cast<int>(layers.size());
}

int64_t VllmAttentionBytesPerToken(const ModelSpec& model, int tp,
                                   const std::string& kv_cache_dtype) {
  // The largest attention page (unify_kv_cache_spec_page_size pads to the largest).
  const int dtb = VllmKvDtypeBytes(kv_cache_dtype, model);
  int64_t most = LayerBytesPerToken(model, -1, tp, kv_cache_dtype, dtb);
  if (!HasPerLayerGeometry(model)) return most;
  most = 0;
  for (int i = 0; i < model.num_layers; ++i) {
    if (LayerHoldsKv(model, i)) {
      most = std::max(most, LayerBytesPerToken(model, i, tp, kv_cache_dtype, dtb));
    }
  }
  return most;
}

int VllmKvDtypeBytes(const std::string& d, const ModelSpec& model) {
  if (d == "auto") return model.dtype_bytes > 0 ? model.dtype_bytes : 2;
  if (d.rfind("fp8", 0) == 0) return 1;
  if (d == "float32") return 4;
  return 2;
}

VllmKvSpec BuildVllmKvSpec(const ModelSpec& model, const VllmKvOptions& opt) {
  VllmKvSpec s;
  s.block_size = opt.block_size;
  s.mla = model.attention == AttentionKind::kMla;
  if (opt.kv_cache_dtype == "fp8_ds_mla" && !s.mla) {
    throw InputError("--kv-cache-dtype fp8_ds_mla needs an MLA model (DeepSeek-V3.2 style)");
  }
  int dtb = VllmKvDtypeBytes(opt.kv_cache_dtype, model);
  s.dtype = opt.kv_cache_dtype == "auto"
                ? (model.torch_dtype.empty() ? "bfloat16" : model.torch_dtype)
                : opt.kv_cache_dtype;
  const int64_t per_layer = LayerBytesPerToken(model, -1, opt.tp, opt.kv_cache_dtype, dtb);
  // Pipeline stages: the stage with the most layers (vllm/distributed/utils.py get_pp_indices).
  int layers_here = static_cast<int>(CeilDiv(model.num_layers, opt.pp));
  const VllmKvLayer indexer{LayerKind::kFull, IndexerBytesPerToken(model), 0, 0, true};
  for (int i = 0; i < layers_here; ++i) {
    LayerKind k = KindOf(model, i);
    if (k == LayerKind::kLinear) {
      // One state page per layer (kv_cache_interface.py MambaSpec @v0.10.2); without a
      // modelled page the state is left out.
      if (opt.mamba_page_bytes > 0) s.layers.push_back({k, 0, 0, opt.mamba_page_bytes, false});
      continue;
    }
    // gpu_model_runner.py get_kv_cache_spec: a layer without an Attention module (DeciLM
    // no_op) has no spec, nor one that reads another layer's KV (kv_sharing_target_layer_name).
    if (!LayerHoldsKv(model, i)) continue;
    if (!opt.hybrid_allocator && k != LayerKind::kFull) k = LayerKind::kFull;
    s.layers.push_back({k, LayerBytesPerToken(model, i, opt.tp, opt.kv_cache_dtype, dtb),
                        k == LayerKind::kFull ? 0 : model.sliding_window});
    if (opt.dsa_indexer) s.layers.push_back(indexer);
  }
  // MTP layers are DeepSeek decoder layers, indexer included [inferred: deepseek_mtp.py].
  for (int i = 0; i < opt.extra_full_layers; ++i) {
    s.layers.push_back({LayerKind::kFull, per_layer, 0});
    if (opt.dsa_indexer) s.layers.push_back(indexer);
  }
  if (opt.draft != nullptr) {
    const int draft_dtb = VllmKvDtypeBytes(opt.kv_cache_dtype, *opt.draft);
    for (int i = 0; i < opt.draft->num_layers; ++i) {
      if (!LayerHoldsKv(*opt.draft, i)) continue;
      s.layers.push_back({LayerKind::kFull,
                          LayerBytesPerToken(*opt.draft, i, opt.tp, opt.kv_cache_dtype, draft_dtb),
                          0});
    }
  }
  if (s.layers.empty()) throw InputError("the model has no attention layers that hold a KV cache");
  std::map<LayerKind, int> kinds;
  for (const VllmKvLayer& l : s.layers) ++kinds[l.kind];
  s.hybrid = opt.hybrid_allocator && kinds.size() > 1;
  if (!opt.hybrid_allocator && opt.mamba_page_bytes > 0) {
    // kv_cache_utils.py unify_hybrid_kv_cache_specs @v0.10.2 cannot make state layers full.
    throw InputError(
        "--disable-hybrid-kv-cache-manager: vLLM cannot convert mamba/linear-attention state "
        "layers to full attention (\"Hybrid KV cache manager is disabled but failed to convert "
        "the KV cache specs to one unified type.\")");
  }
  int64_t max_bytes = 0;
  for (const VllmKvLayer& l : s.layers) max_bytes = std::max(max_bytes, l.bytes_per_token);
  if (s.hybrid) UnifyAttentionPages(max_bytes, &s);
  // The state page is padded to the attention page (engines/vllm/hybrid.h), so both are equal.
  s.page_bytes = std::max(s.block_size * max_bytes, opt.mamba_page_bytes);
  s.state_pages_per_request = opt.mamba_pages_per_request;
  BuildGroups(&s);
  return s;
}

int64_t VllmLayerMaxMemory(const VllmKvSpec& s, const VllmKvLayer& l, int64_t mml, int64_t mnbt) {
  const int64_t block = l.block_size > 0 ? l.block_size : s.block_size;
  const int64_t page = block * l.bytes_per_token;
  switch (l.kind) {
    case LayerKind::kSliding: {
      // kv_cache_interface.py SlidingWindowSpec.max_memory_usage_bytes @v0.10.
      int64_t tokens = std::min(l.window - 1 + mnbt, mml);
      return (CeilDiv(tokens, block) + 1) * page;
    }
    case LayerKind::kChunked: {
      // kv_cache_interface.py ChunkedLocalAttentionSpec.max_memory_usage_bytes.
      int64_t tokens = std::min(l.window + mnbt, mml);
      return CeilDiv(tokens, block) * page;
    }
    case LayerKind::kLinear:
      // kv_cache_interface.py MambaSpec.max_memory_usage_bytes @v0.10.2: one block per
      // request (from 0.15.0 plus one per speculative token: engines/vllm/hybrid.h).
      return l.state_bytes * s.state_pages_per_request;
    default:
      // kv_cache_interface.py FullAttentionSpec.max_memory_usage_bytes.
      return CeilDiv(mml, block) * page;
  }
}

int64_t VllmNeededMemory(const VllmKvSpec& s, int64_t mml, int64_t mnbt) {
  int64_t sum = 0;
  for (const VllmKvLayer& l : s.layers) sum += VllmLayerMaxMemory(s, l, mml, mnbt);
  return sum;
}

int64_t VllmNumBlocks(const VllmKvSpec& s, int64_t available) {
  if (available <= 0) return 0;
  if (s.hybrid) {
    // kv_cache_utils.py get_kv_cache_config_from_groups: one tensor per slot of a group.
    return available / s.page_bytes / s.group_size;
  }
  if (s.UniformPages()) {
    // kv_cache_utils.py get_num_blocks: available // page_size // num_layers.
    return available / s.page_bytes / static_cast<int64_t>(s.layers.size());
  }
  // UniformTypeKVCacheSpecs: one block costs the sum of every layer's page.
  return available / (s.BytesPerTokenAllLayers() * s.block_size);
}

double VllmGroupConcurrency(const VllmKvSpec& s, int64_t num_blocks, int64_t mml, int64_t mnbt) {
  // kv_cache_utils.py get_max_concurrency_for_kv_cache_config @v0.10:
  // blocks one request needs = cdiv(group_size * sum(group max memory), page * group_size).
  int64_t blocks_per_request = 0;
  if (!s.hybrid) {
    blocks_per_request = CeilDiv(mml, s.block_size);
  } else {
    std::map<LayerKind, const VllmKvLayer*> rep;
    for (const VllmKvLayer& l : s.layers) rep.emplace(l.kind, &l);
    int64_t per_request = 0;
    for (LayerKind k : s.group_kinds) per_request += VllmLayerMaxMemory(s, *rep[k], mml, mnbt);
    blocks_per_request = CeilDiv(per_request, s.page_bytes);
  }
  return static_cast<double>(num_blocks) / static_cast<double>(blocks_per_request);
}

int64_t VllmEstimateMaxModelLen(const VllmKvSpec& s, int64_t available, int64_t mml, int64_t mnbt) {
  // kv_cache_utils.py estimate_max_model_len @v0.10: binary search.
  auto fits = [&](int64_t len) { return VllmNeededMemory(s, len, mnbt) <= available; };
  int64_t left = 1, right = mml;
  if (!fits(left)) return 0;
  int64_t result = 1;
  while (left <= right) {
    int64_t mid = left + (right - left) / 2;
    if (fits(mid)) {
      result = mid;
      left = mid + 1;
    } else {
      right = mid - 1;
    }
  }
  return result;
}

}  // namespace kvplan
