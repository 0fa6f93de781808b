// PlanTrtllm: TensorRT-LLM takes free_gpu_memory_fraction of the memory that is
// free after weights and activations (vLLM and SGLang take a fraction of the
// total and subtract).
#include <algorithm>
#include <cmath>
#include <optional>

#include <fmt/core.h>

#include "base/units.h"
#include "catalog/weights.h"
#include "engines/trtllm/trtllm.h"
#include "engines/vllm/estimates.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

constexpr const char* kPySrc = "tensorrt_llm/_torch/pyexecutor/_util.py @d8ae02ca KvCacheCreator";
constexpr const char* kCppSrc =
    "cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp @v0.21 calculateMaxNumBlocks";
constexpr const char* kNewest = "1.2.0";

struct TrtRelease {
  int major = 0, minor = 0, patch = 0;
  std::string text;
  bool AtLeast(int a, int b) const { return major > a || (major == a && minor >= b); }
};

TrtRelease ParseRelease(const std::string& version) {
  TrtRelease r;
  r.text = version.empty() ? kNewest : version;
  int parsed = std::sscanf(r.text.c_str(), "%d.%d.%d", &r.major, &r.minor, &r.patch);
  if (parsed < 2 || r.major < 0 || r.minor < 0) {
    throw InputError(fmt::format(
        "unknown TensorRT-LLM version '{}' (expected a release such as 0.21.0 or 1.0.0rc3)",
        version));
  }
  if (!r.AtLeast(0, 9) || r.AtLeast(2, 0)) {
    throw InputError(fmt::format(
        "TensorRT-LLM version '{}' is outside the modelled releases (0.9 to 1.x)", version));
  }
  return r;
}

// _util.py _get_cache_size_per_token @d8ae02ca (resource_manager.py
// get_cache_size_per_token later): bytes * layers on this PP rank * head_dim *
// kv_factor; GQA head_dim = head_dim * kv_heads // tp (tp 1 under attention
// DP), kv_factor 2; MLA head_dim = kv_lora_rank + rope dim, kv_factor 1.
int64_t KvBytesPerToken(const ModelSpec& m, const TrtllmArgs& a, int* layers_out) {
  int attn_layers = 0;
  int per_rank = static_cast<int>(CeilDiv(m.num_layers, a.pp));
  for (int i = 0; i < per_rank; ++i) {
    bool linear =
        static_cast<size_t>(i) < m.layer_kinds.size() && m.layer_kinds[i] == LayerKind::kLinear;
    attn_layers += linear ? 0 : 1;
  }
  *layers_out = attn_layers;
  int64_t bytes = a.kv_dtype == "fp8" ? 1 : (a.kv_dtype == "auto" ? std::max(1, m.dtype_bytes) : 2);
  if (m.attention == AttentionKind::kMla) {
    return bytes * attn_layers * (m.kv_lora_rank + m.qk_rope_head_dim);
  }
  int tp = a.enable_attention_dp ? 1 : a.tp;
  int64_t head_dim = static_cast<int64_t>(m.head_dim) * m.num_kv_heads / tp;
  return bytes * attn_layers * head_dim * 2;
}

struct Terms {
  int64_t total = 0, weights = 0, activation = 0, non_torch = 0;
  std::optional<int64_t> post_load_free;
  std::string total_src, weights_src, act_src, nt_src;
};

}  // namespace

TrtllmMeasured TrtllmMeasuredFromGiB(const std::map<std::string, double>& gib) {
  TrtllmMeasured m;
  for (const auto& [key, value] : gib) {
    if (!(value >= 0) || value > 1e6) {
      throw InputError(
          fmt::format("measured {} must be a non-negative GiB figure, got {}", key, value));
    }
    int64_t b = GiBToBytes(value);
    if (key == "total")
      m.total = b;
    else if (key == "weights")
      m.weights = b;
    else if (key == "activation_peak")
      m.activation_peak = b;
    else if (key == "non_torch")
      m.non_torch = b;
    else if (key == "post_load_free")
      m.post_load_free = b;
    else if (key == "pre_load_free")
      continue;  // not read by TensorRT-LLM's rule
    else {
      throw InputError(
          fmt::format("unknown measured term '{}' for TensorRT-LLM (expected total, "
                      "weights, activation_peak, non_torch or post_load_free)",
                      key));
    }
  }
  return m;
}

PlanResult PlanTrtllm(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const TrtllmArgs& a, const TrtllmMeasured& ms) {
  TrtRelease rel = ParseRelease(version);
  PlanResult out;
  out.engine = "trtllm";
  out.engine_version = rel.text;
  // trtllm-serve's default backend became PyTorch in 1.0 [inferred from the release notes].
  std::string backend =
      a.backend.empty() ? (rel.AtLeast(1, 0) ? "pytorch" : "tensorrt") : a.backend;
  bool py = backend != "tensorrt";
  out.era = py ? "PyTorch backend (KvCacheCreator)" : "TensorRT engine (C++ KV cache manager)";
  out.fraction_name = "free_gpu_memory_fraction";
  // executor.h KvCacheConfig::kDefaultGpuMemFraction = 0.9F; llm_args.py default 0.9.
  out.fraction = a.free_gpu_memory_fraction.value_or(0.9);
  out.fraction_user = a.free_gpu_memory_fraction.has_value();
  if (!py && out.fraction >= 1.0) {
    throw InputError("the C++ KV cache manager needs free_gpu_memory_fraction < 1.0");
  }
  if (model.num_attention_heads > 0 && model.num_attention_heads % a.tp != 0) {
    throw InputError(fmt::format("{} attention heads are not divisible by --tp_size {}",
                                 model.num_attention_heads, a.tp));
  }
  int64_t max_seq_len = a.max_seq_len.value_or(model.max_position_embeddings);
  if (max_seq_len <= 0)
    throw InputError(
        fmt::format("model '{}' has no max_position_embeddings; pass --max_seq_len", model.id));
  int64_t max_num_tokens = a.max_num_tokens.value_or(8192);
  int64_t max_batch_size = a.max_batch_size.value_or(2048);
  int64_t tpb = a.tokens_per_block.value_or(32);
  auto setting = [&](const std::string& f, const std::string& v, bool user,
                     const std::string& rule) {
    out.settings.push_back({f, v, user, user ? "" : rule});
  };
  setting("--kv_cache_free_gpu_memory_fraction", fmt::format("{}", out.fraction), out.fraction_user,
          "default 0.9");
  setting("--max_seq_len", std::to_string(max_seq_len), a.max_seq_len.has_value(),
          "the model's max_position_embeddings");
  setting("--max_num_tokens", std::to_string(max_num_tokens), a.max_num_tokens.has_value(),
          "trtllm-serve default 8192");
  setting("--max_batch_size", std::to_string(max_batch_size), a.max_batch_size.has_value(),
          "trtllm-serve default 2048");
  setting("tokens_per_block", std::to_string(tpb), a.tokens_per_block.has_value(),
          "KvCacheConfig default 32");
  setting("--tp_size", std::to_string(a.tp), a.tp != 1, "default 1");
  setting("--backend", backend, !a.backend.empty(), "the release's default");

  Terms t;
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
  int attn_tp = a.enable_attention_dp ? 1 : a.tp;
  // Profiling runs dummy requests totalling max_num_tokens (_get_token_num_for_estimation).
  t.activation =
      ms.activation_peak.value_or(max_num_tokens * VllmLayerActivationPerToken(model, attn_tp));
  t.act_src = ms.activation_peak ? "measured" : "estimated";
  // CUDA context, NCCL communicators, and NVLS buffers on NVSwitch systems
  // (the profiling peak reads total - free, so they count).
  t.non_torch = ms.non_torch.value_or(EstimateCudaContext() + (a.tp * a.pp > 1 ? 400 * kMiB : 0) +
                                      EstimateNvlsBuffers(a.tp * a.pp, gpu));
  t.nt_src = ms.non_torch ? "measured" : "estimated";
  t.post_load_free = ms.post_load_free;

  int layers = 0;
  int64_t per_token = KvBytesPerToken(model, a, &layers);
  if (per_token <= 0) throw InputError("the model has no attention layers that hold a KV cache");
  int64_t free_after = t.post_load_free.value_or(t.total - t.weights - t.activation - t.non_torch);
  std::string free_formula =
      t.post_load_free
          ? fmt::format("free after loading {} GiB (measured)",
                        fmt::format("{:.2f}", ToGiB(free_after)))
          : fmt::format(
                "total {:.2f} ({}) - weights {:.2f} ({}) - activations {:.2f} ({}) - non-torch "
                "{:.2f} ({}) = {:.2f} GiB",
                ToGiB(t.total), t.total_src, ToGiB(t.weights), t.weights_src, ToGiB(t.activation),
                t.act_src, ToGiB(t.non_torch), t.nt_src, ToGiB(free_after));
  out.stages.push_back(
      {py ? "total - peak + tmp_kv" : "free memory after loading", free_formula, free_after,
       py ? kPySrc : "cpp/tensorrt_llm/batch_manager/kvCacheManager.cpp calculateFreeMemBytes",
       ""});
  // _util.py _cal_max_tokens: (total - peak + tmp_kv) * fraction; C++: (free + pool free) *
  // fraction.
  int64_t available =
      static_cast<int64_t>(std::max(0.0, static_cast<double>(free_after) * out.fraction));
  out.stages.push_back({"available_kv_mem",
                        fmt::format("{:.2f} GiB x fraction {} = {:.2f} GiB", ToGiB(free_after),
                                    out.fraction, ToGiB(available)),
                        available, py ? kPySrc : kCppSrc, ""});
  bool mla = model.attention == AttentionKind::kMla;
  int64_t dim = mla ? model.kv_lora_rank + model.qk_rope_head_dim
                    : static_cast<int64_t>(model.head_dim) * model.num_kv_heads / attn_tp;
  int64_t max_tokens = available / per_token;
  if (a.max_tokens) max_tokens = std::min(max_tokens, *a.max_tokens);
  int64_t blocks = CeilDiv(max_tokens, tpb);
  int64_t tokens = blocks * tpb;
  out.stages.push_back(
      {"kv_cache",
       fmt::format("kv_size_per_token {} B ({} B/elem x {} layers x {} ({}) x kv_factor {}); "
                   "max_tokens {} // {}{} = {}; blocks ceilDiv({}, {}) = {} (min over ranks: "
                   "identical ranks)",
                   per_token, per_token / layers / dim / (mla ? 1 : 2), layers, dim,
                   mla ? "kv_lora_rank + rope dim" : "head_dim x kv_heads // tp", mla ? 1 : 2,
                   available, per_token,
                   a.max_tokens ? fmt::format(", min with max_tokens {}", *a.max_tokens) : "",
                   max_tokens, max_tokens, tpb, blocks),
       tokens * per_token, kCppSrc, ""});
  out.gpu_total_bytes = t.total;
  out.post_load_free_bytes = free_after;
  out.weights_bytes_per_gpu = t.weights;
  out.rest_memory_bytes = available;
  out.cell_size_bytes = per_token;
  out.max_total_num_tokens = tokens;
  out.max_running_requests = max_batch_size;
  out.context_length = max_seq_len;
  double concurrency = static_cast<double>(tokens) / static_cast<double>(max_seq_len);
  out.figures.push_back({"gpus_per_replica", static_cast<double>(a.tp * a.pp), ""});
  out.figures.push_back({"kv_cache_tokens", static_cast<double>(tokens), ""});
  out.figures.push_back({"num_gpu_blocks", static_cast<double>(blocks), ""});
  out.figures.push_back({"max_concurrency", concurrency, ""});
  out.figures.push_back({"available_kv_cache_gib", ToGiB(available), ""});
  out.figures.push_back({"activation_peak_gib", ToGiB(t.activation), ""});
  out.figures.push_back({"tokens_per_block", static_cast<double>(tpb), ""});
  out.figures.push_back(
      {"log_1", 0,
       py ? (rel.AtLeast(1, 0)
                 ? fmt::format("Estimated max memory in KV cache : {:.2f} GiB", ToGiB(available))
                 : fmt::format("Estimated max tokens in KV cache : {}", max_tokens))
          : fmt::format("[windowSize={}] {{.primaryBlocks={}, .secondayBlocks=0}}", max_seq_len,
                        blocks)});
  out.memory = {{"weights", t.weights},
                {"activation peak (profiling)", t.activation},
                {"non-torch (context, NCCL)", t.non_torch},
                {"kv cache", tokens * per_token},
                {"unused (1 - fraction of free)",
                 std::max<int64_t>(
                     0, t.total - t.weights - t.activation - t.non_torch - tokens * per_token)}};
  if (available <= 0 || blocks <= 0) {
    out.ok = false;
    out.error_message = fmt::format(
        "kvplan: no memory left for the KV cache ({:.2f} GiB free after loading); TensorRT-LLM "
        "cannot allocate a single block",
        ToGiB(free_after));
  } else {
    out.ok = true;
    if (tokens < max_seq_len) {
      out.warnings.push_back(fmt::format(
          "the KV cache holds {} tokens, fewer than max_seq_len {}: TensorRT-LLM caps the "
          "attention window at the cache size, so a full-length request cannot be served",
          tokens, max_seq_len));
    }
  }
  if (!model.layer_kinds.empty() && model.NumLayersOfKind(LayerKind::kSliding) > 0) {
    out.warnings.push_back(
        "sliding-window layers are counted as full attention (TensorRT-LLM's per-window pools are "
        "not modelled)");
  }
  if (model.attention != AttentionKind::kMla && model.num_kv_heads < attn_tp) {
    out.warnings.push_back(fmt::format(
        "{} KV heads over tp {}: the per-token estimate divides them ({}), as _util.py does",
        model.num_kv_heads, attn_tp, "head_dim * kv_heads // tp"));
  }
  for (const std::string& f : a.unknown_flags)
    out.warnings.push_back(fmt::format("flag {} is not modelled", f));
  for (const std::string& k : a.ignored_yaml_keys)
    out.warnings.push_back(fmt::format("extra_llm_api_options key {} is not modelled", k));
  return out;
}

std::vector<std::string> TrtllmVersions() { return {"0.17.0", "0.21.0", "1.0.0", kNewest}; }

}  // namespace kvplan
