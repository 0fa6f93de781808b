// The text of a TensorRT-LLM plan (settings, stage formulas, figures, the
// printed log line, warnings), written from the stages' data (engines/trtllm/stages.h).
#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "engines/common/flag_parser.h"
#include "engines/trtllm/stages.h"

namespace kvplan {
namespace {

constexpr const char* kPySrc = "tensorrt_llm/_torch/pyexecutor/_util.py @d8ae02ca KvCacheCreator";
constexpr const char* kCppSrc =
    "cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp @v0.21 calculateMaxNumBlocks";
constexpr const char* kCppFreeSrc =
    "cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp calculateFreeMemBytes";

std::string FreeAfterFormula(const TrtllmTerms& t, const TrtllmBudget& b) {
  if (t.post_load_free) {
    return fmt::format("free after loading {} (measured)", FormatGiB(b.free_after));
  }
  return fmt::format(
      "total {:.2f} ({}) - weights {:.2f} ({}) - activations {:.2f} ({}) - non-torch "
      "{:.2f} ({}) = {:.2f} GiB",
      ToGiB(t.total), t.total_src, ToGiB(t.weights), t.weights_src, ToGiB(t.activation), t.act_src,
      ToGiB(t.non_torch), t.nt_src, ToGiB(b.free_after));
}

std::string KvCacheFormula(const TrtllmCell& c, const TrtllmBudget& b, const TrtllmBlocks& k,
                           const TrtllmArgs& a, const TrtllmDefaults& d) {
  return fmt::format(
      "kv_size_per_token {} B ({} B/elem x {} layers x {} ({}) x kv_factor {}); "
      "max_tokens {} // {}{} = {}; blocks ceilDiv({}, {}) = {} (min over ranks: "
      "identical ranks)",
      c.per_token, c.elem_bytes, c.layers, c.dim,
      c.mla ? "kv_lora_rank + rope dim" : "head_dim x kv_heads // tp", c.kv_factor, b.available,
      c.per_token, a.max_tokens ? fmt::format(", min with max_tokens {}", *a.max_tokens) : "",
      k.max_tokens, k.max_tokens, d.tokens_per_block, k.blocks);
}

// The line the engine prints with the cache size.
std::string KvLogLine(const TrtllmDefaults& d, const TrtllmBudget& b, const TrtllmBlocks& k) {
  if (!d.py) {
    return fmt::format("[windowSize={}] {{.primaryBlocks={}, .secondayBlocks=0}}", d.max_seq_len,
                       k.blocks);
  }
  return d.release.AtLeast(1, 0)
             ? fmt::format("Estimated max memory in KV cache : {:.2f} GiB", ToGiB(b.available))
             : fmt::format("Estimated max tokens in KV cache : {}", k.max_tokens);
}

}  // namespace

std::vector<Setting> DescribeTrtllmSettings(const TrtllmDefaults& d, const TrtllmArgs& a) {
  std::vector<Setting> out;
  auto setting = [&](const std::string& f, const std::string& v, bool user,
                     const std::string& rule) {
    out.push_back({f, v, user, user ? "" : rule});
  };
  setting("--kv_cache_free_gpu_memory_fraction", fmt::format("{}", d.fraction),
          a.free_gpu_memory_fraction.has_value(), "default 0.9");
  setting("--max_seq_len", std::to_string(d.max_seq_len), a.max_seq_len.has_value(),
          "the model's max_position_embeddings");
  setting("--max_num_tokens", std::to_string(d.max_num_tokens), a.max_num_tokens.has_value(),
          "trtllm-serve default 8192");
  setting("--max_batch_size", std::to_string(d.max_batch_size), a.max_batch_size.has_value(),
          "trtllm-serve default 2048");
  setting("tokens_per_block", std::to_string(d.tokens_per_block), a.tokens_per_block.has_value(),
          "KvCacheConfig default 32");
  setting("--tp_size", std::to_string(a.tp), a.tp != 1, "default 1");
  setting("--backend", d.backend, !a.backend.empty(), "the release's default");
  return out;
}

std::vector<Stage> DescribeTrtllmStages(const TrtllmDefaults& d, const TrtllmTerms& t,
                                        const TrtllmCell& c, const TrtllmBudget& b,
                                        const TrtllmBlocks& k, const TrtllmArgs& a) {
  std::vector<Stage> out;
  out.push_back({d.py ? "total - peak + tmp_kv" : "free memory after loading",
                 FreeAfterFormula(t, b), b.free_after, d.py ? kPySrc : kCppFreeSrc, ""});
  out.push_back({"available_kv_mem",
                 fmt::format("{} x fraction {} = {}", FormatGiB(b.free_after), d.fraction,
                             FormatGiB(b.available)),
                 b.available, d.py ? kPySrc : kCppSrc, ""});
  out.push_back({"kv_cache", KvCacheFormula(c, b, k, a, d), k.tokens * c.per_token, kCppSrc, ""});
  return out;
}

std::vector<Figure> DescribeTrtllmFigures(const TrtllmDefaults& d, const TrtllmTerms& t,
                                          const TrtllmBudget& b, const TrtllmBlocks& k,
                                          const TrtllmArgs& a) {
  double concurrency = static_cast<double>(k.tokens) / static_cast<double>(d.max_seq_len);
  return {{"gpus_per_replica", static_cast<double>(a.tp * a.pp), ""},
          {"kv_cache_tokens", static_cast<double>(k.tokens), ""},
          {"num_gpu_blocks", static_cast<double>(k.blocks), ""},
          {"max_concurrency", concurrency, ""},
          {"available_kv_cache_gib", ToGiB(b.available), ""},
          {"activation_peak_gib", ToGiB(t.activation), ""},
          {"tokens_per_block", static_cast<double>(d.tokens_per_block), ""},
          {"log_1", 0, KvLogLine(d, b, k)}};
}

std::vector<MemorySlice> DescribeTrtllmMemory(const TrtllmTerms& t, const TrtllmCell& c,
                                              const TrtllmBlocks& k) {
  int64_t kv = k.tokens * c.per_token;
  return {{"weights", t.weights},
          {"activation peak (profiling)", t.activation},
          {"non-torch (context, NCCL)", t.non_torch},
          {"kv cache", kv},
          {"unused (1 - fraction of free)",
           std::max<int64_t>(0, t.total - t.weights - t.activation - t.non_torch - kv)}};
}

void DescribeTrtllmVerdict(const ModelSpec& model, const TrtllmDefaults& d, const TrtllmBudget& b,
                           const TrtllmBlocks& k, const TrtllmVerdict& v, const TrtllmArgs& a,
                           PlanResult* out) {
  out->ok = v.ok;
  if (d.release.newer_than_modelled) {
    out->warnings.push_back(fmt::format(
        "TensorRT-LLM {} is newer than the newest modelled release (1.2); 1.2's rules are used, "
        "and what changed since is not in them",
        d.release.text));
  }
  if (v.weights_too_large) {
    // The model loader fills the weights before the KV cache is sized; the
    // allocator's own figures are not knowable, so kvplan states its own.
    out->error_message = fmt::format(
        "{} the weights (kvplan: {} of weights per GPU, {} free before loading)",
        kTrtllmLoadOomPrefix, FormatGiB(out->weights_bytes_per_gpu), FormatGiB(v.free_before_load));
  } else if (!v.ok) {
    out->error_message = fmt::format(
        "kvplan: no memory left for the KV cache ({} free after loading); TensorRT-LLM "
        "cannot allocate a single block",
        FormatGiB(b.free_after));
  } else if (v.window_capped) {
    out->warnings.push_back(fmt::format(
        "the KV cache holds {} tokens, fewer than max_seq_len {}: TensorRT-LLM caps the "
        "attention window at the cache size, so a full-length request cannot be served",
        k.tokens, d.max_seq_len));
  }
  if (!model.layer_kinds.empty() && model.NumLayersOfKind(LayerKind::kSliding) > 0) {
    out->warnings.push_back(
        "sliding-window layers are counted as full attention (TensorRT-LLM's per-window pools are "
        "not modelled)");
  }
  if (int state = model.NumLayersOfKind(LayerKind::kLinear); state > 0) {
    // _torch/pyexecutor/mamba_cache_manager.py MambaHybridCacheManager holds a state per
    // request slot besides the KV cache; kvplan counts the KV of the attention layers only.
    out->warnings.push_back(fmt::format(
        "the per-request state of the {} mamba / linear-attention layers (TensorRT-LLM's "
        "MambaHybridCacheManager) is not modelled: the KV cache counts the attention layers only "
        "and no state memory is set aside",
        state));
  }
  if (model.attention != AttentionKind::kMla && model.num_kv_heads < d.attn_tp) {
    out->warnings.push_back(fmt::format(
        "{} KV heads over tp {}: the per-token estimate divides them ({}), as _util.py does",
        model.num_kv_heads, d.attn_tp, "head_dim * kv_heads // tp"));
  }
  for (const std::string& f : a.unknown_flags)
    out->warnings.push_back(UnknownFlagWarning("TensorRT-LLM", f));
  for (const std::string& k : a.ignored_yaml_keys)
    out->warnings.push_back(fmt::format("extra_llm_api_options key {} is not modelled", k));
}

}  // namespace kvplan
