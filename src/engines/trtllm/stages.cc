// The arithmetic of PlanTrtllm's stages (engines/trtllm/stages.h); no text here
// but the engine's own error messages.
#include "engines/trtllm/stages.h"

#include <algorithm>
#include <cstdio>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/layer_geometry.h"
#include "catalog/sharding.h"
#include "catalog/weights.h"
#include "engines/common/runtime_estimates.h"
#include "kvplan/error.h"

namespace kvplan {

TrtllmRelease ParseTrtllmRelease(const std::string& version) {
  TrtllmRelease r;
  r.text = version.empty() ? kTrtllmNewest : version;
  int parsed = std::sscanf(r.text.c_str(), "%d.%d.%d", &r.major, &r.minor, &r.patch);
  if (parsed < 2 || r.major < 0 || r.minor < 0) {
    throw InputError(fmt::format(
        "unknown TensorRT-LLM version '{}' (expected a release such as 0.21.0 or 1.0.0rc3)",
        version));
  }
  if (!r.AtLeast(0, 9)) {
    throw InputError(fmt::format(
        "TensorRT-LLM version '{}' is outside the modelled releases (0.9 to 1.2.x)", version));
  }
  r.newer_than_modelled = r.AtLeast(1, 3);  // kTrtllmNewest is 1.2.0
  return r;
}

TrtllmDefaults TrtllmResolveDefaults(const std::string& version, const ModelSpec& model,
                                     const TrtllmArgs& a) {
  TrtllmDefaults d;
  d.release = ParseTrtllmRelease(version);
  // trtllm-serve's default backend became PyTorch in 1.0 [inferred from the release notes].
  d.backend = a.backend.empty() ? (d.release.AtLeast(1, 0) ? "pytorch" : "tensorrt") : a.backend;
  d.py = d.backend != "tensorrt";
  // executor.h KvCacheConfig::kDefaultGpuMemFraction = 0.9F; llm_args.py default 0.9.
  d.fraction = a.free_gpu_memory_fraction.value_or(0.9);
  if (!d.py && d.fraction >= 1.0) {
    throw InputError("the C++ KV cache manager needs free_gpu_memory_fraction < 1.0");
  }
  // The divisibility rule is catalog/sharding.h's (one owner for every engine).
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  std::vector<std::string> problems = ShardingProblems(model, par, ShardingEngine::kTrtllm);
  if (!problems.empty()) throw InputError(problems.front());
  d.max_seq_len = a.max_seq_len.value_or(model.max_position_embeddings);
  if (d.max_seq_len <= 0)
    throw InputError(
        fmt::format("model '{}' has no max_position_embeddings; pass --max_seq_len", model.id));
  d.max_num_tokens = a.max_num_tokens.value_or(8192);
  d.max_batch_size = a.max_batch_size.value_or(2048);
  d.tokens_per_block = a.tokens_per_block.value_or(32);
  d.attn_tp = a.enable_attention_dp ? 1 : a.tp;
  return d;
}

TrtllmTerms TrtllmMemoryTerms(const ModelSpec& model, const GpuSpec& gpu, const TrtllmArgs& a,
                              const TrtllmDefaults& d, const TrtllmMeasured& ms) {
  TrtllmTerms t;
  t.total = ms.total.value_or(gpu.total_bytes);
  t.total_src = ms.total ? "measured" : "catalog";
  Parallelism par;
  par.tp = a.tp;
  par.pp = a.pp;
  if (a.enable_attention_dp) {
    par.dp = a.tp;
    par.dp_attention = true;
  }
  t.weights = ms.weights.value_or(EstimateWeights(model, par).bytes_per_rank);
  t.weights_src = ms.weights ? "measured" : "estimated";
  // Profiling runs dummy requests totalling max_num_tokens (_get_token_num_for_estimation).
  t.activation =
      ms.activation_peak.value_or(d.max_num_tokens * DecoderActivationPerToken(model, d.attn_tp));
  t.act_src = ms.activation_peak ? "measured" : "estimated";
  // CUDA context, NCCL communicators, and NVLS buffers on NVSwitch systems
  // (the profiling peak reads total - free, so they count).
  t.non_torch = ms.non_torch.value_or(EstimateCudaContext() + (a.tp * a.pp > 1 ? 400 * kMiB : 0) +
                                      EstimateNvlsBuffers(a.tp * a.pp, gpu));
  t.nt_src = ms.non_torch ? "measured" : "estimated";
  t.post_load_free = ms.post_load_free;
  return t;
}

// _util.py _get_cache_size_per_token @d8ae02ca (resource_manager.py
// get_cache_size_per_token later): bytes * layers on this PP rank * head_dim *
// kv_factor; GQA head_dim = head_dim * kv_heads // tp (tp 1 under attention
// DP), kv_factor 2; MLA head_dim = kv_lora_rank + rope dim, kv_factor 1.
TrtllmCell TrtllmCellSize(const ModelSpec& m, const TrtllmArgs& a, const TrtllmDefaults& d) {
  TrtllmCell c;
  if (HasPerLayerGeometry(m)) {
    // kvplan has not checked TensorRT-LLM's per-layer KV heads (num_kv_heads_per_layer).
    throw InputError(m.architecture +
                     ": layers with their own KV geometry are not modelled for TensorRT-LLM");
  }
  int per_rank = static_cast<int>(CeilDiv(m.num_layers, a.pp));
  for (int i = 0; i < per_rank; ++i) {
    bool linear =
        static_cast<size_t>(i) < m.layer_kinds.size() && m.layer_kinds[i] == LayerKind::kLinear;
    c.layers += linear ? 0 : 1;
  }
  c.elem_bytes = a.kv_dtype == "fp8" ? 1 : (a.kv_dtype == "auto" ? std::max(1, m.dtype_bytes) : 2);
  c.mla = m.attention == AttentionKind::kMla;
  c.kv_factor = c.mla ? 1 : 2;
  c.dim = c.mla ? m.kv_lora_rank + m.qk_rope_head_dim
                : static_cast<int64_t>(m.head_dim) * m.num_kv_heads / d.attn_tp;
  c.per_token = c.elem_bytes * c.layers * c.dim * c.kv_factor;
  if (c.per_token <= 0) throw InputError("the model has no attention layers that hold a KV cache");
  return c;
}

TrtllmBudget TrtllmKvBudget(const TrtllmTerms& t, const TrtllmDefaults& d) {
  TrtllmBudget b;
  b.free_after = t.post_load_free.value_or(t.total - t.weights - t.activation - t.non_torch);
  // _util.py _cal_max_tokens: (total - peak + tmp_kv) * fraction; C++: (free + pool free) *
  // fraction.
  b.available = static_cast<int64_t>(std::max(0.0, static_cast<double>(b.free_after) * d.fraction));
  return b;
}

TrtllmBlocks TrtllmTokenBlocks(const TrtllmBudget& b, const TrtllmCell& c, const TrtllmArgs& a,
                               const TrtllmDefaults& d) {
  TrtllmBlocks k;
  k.max_tokens = b.available / c.per_token;
  if (a.max_tokens) k.max_tokens = std::min(k.max_tokens, *a.max_tokens);
  k.blocks = CeilDiv(k.max_tokens, d.tokens_per_block);
  k.tokens = k.blocks * d.tokens_per_block;
  return k;
}

TrtllmVerdict TrtllmCheckVerdict(const TrtllmTerms& t, const TrtllmBudget& b, const TrtllmBlocks& k,
                                 const TrtllmDefaults& d) {
  TrtllmVerdict v;
  v.free_before_load = t.total - t.non_torch;
  // Measured weights or free memory after loading mean the launch loaded.
  v.weights_too_large =
      t.weights_src == "estimated" && !t.post_load_free && t.weights > v.free_before_load;
  v.ok = !v.weights_too_large && b.available > 0 && k.blocks > 0;
  v.window_capped = v.ok && k.tokens < d.max_seq_len;
  return v;
}

}  // namespace kvplan
