#include "logs/log_replan.h"

#include <charconv>
#include <cmath>

#include <fmt/core.h>

#include "models/model.h"
#include "util/error.h"
#include "util/units.h"

namespace kvplan {
namespace {

double ElemBytes(const std::string& dtype) {
  if (dtype.find("float8") != std::string::npos || dtype.find("fp8") != std::string::npos) {
    return 1;
  }
  if (dtype.find("fp4") != std::string::npos || dtype.find("float4") != std::string::npos) {
    return 0.5;
  }
  if (dtype.find("float32") != std::string::npos) return 4;
  return 2;
}

// Bytes per token per rank of one of K/V from a "K size: x GB" figure of a pool
// holding tokens + page_size slots. The true value is heads*head_dim*layers*elem,
// a multiple of 64 for every real model: snap to it when the 2-decimal rounding
// of the log leaves less than 32 bytes of doubt.
int64_t PerTokenFromSize(double gib, double slots, int64_t* uncertainty) {
  double per = gib * static_cast<double>(kGiB) / slots;
  double doubt = 0.005 * static_cast<double>(kGiB) / slots;
  if (!(per > 0 && per < 1e12)) {  // a garbled KV line: no usable size
    *uncertainty = 0;
    return 0;
  }
  int64_t snapped = static_cast<int64_t>(std::llround(per / 64.0)) * 64;
  if (doubt < 32 && std::fabs(static_cast<double>(snapped) - per) <= doubt) {
    *uncertainty = 0;
    return snapped;
  }
  *uncertainty = static_cast<int64_t>(std::ceil(doubt));
  return static_cast<int64_t>(std::llround(per));
}

// KV bytes per token per rank from the model's geometry, mirroring
// model_runner.py @v0.4.9 (MHA: heads_per_rank*head_dim*layers*2*elem; MLA:
// (kv_lora_rank+qk_rope_head_dim)*layers*elem).
std::optional<int64_t> CellFromModel(const RunRecord& run, double elem, std::string* source) {
  if (run.model.empty()) return std::nullopt;
  ModelSpec m;
  try {
    m = LoadModel(run.model);
  } catch (const std::exception&) {
    return std::nullopt;  // not in the catalog: the log's KV line is the fallback
  }
  if (m.num_layers <= 0 || m.head_dim <= 0) return std::nullopt;
  int tp = static_cast<int>(run.SettingInt("tp_size", 1));
  int dp = static_cast<int>(run.SettingInt("dp_size", 1));
  const LoggedSetting* dpa = run.FindSetting("enable_dp_attention");
  int attn_tp = (dpa != nullptr && dpa->value == "True" && dp > 0) ? tp / dp : tp;
  double cell;
  if (m.attention == AttentionKind::kMla) {
    cell = static_cast<double>(m.kv_lora_rank + m.qk_rope_head_dim) * m.num_layers * elem;
  } else {
    int heads = std::max(1, m.num_kv_heads / std::max(1, attn_tp));
    cell = static_cast<double>(heads) * (m.head_dim + m.v_head_dim) * m.num_layers * elem;
  }
  *source = fmt::format("the geometry of {} ({} layers, TP {})", m.id, m.num_layers, attn_tp);
  return static_cast<int64_t>(cell);
}

std::optional<double> ParseDouble(const std::string& s) {
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

void SetCell(const RunRecord& run, SglangBudget* b) {
  std::string kv_dtype = run.kv_dtype;
  const LoggedSetting* kvs = run.FindSetting("kv_cache_dtype");
  if (kv_dtype.empty() && kvs != nullptr && kvs->value != "auto") kv_dtype = kvs->value;
  if (kv_dtype.empty()) kv_dtype = run.dtype;
  b->kv_elem_bytes = ElemBytes(kv_dtype);
  std::optional<double> tokens = run.Figure("kv_tokens");
  double slots = tokens ? *tokens + static_cast<double>(b->page_size) : 0;
  std::optional<double> k = run.Figure("k_size_gib"), v = run.Figure("v_size_gib");
  std::optional<double> kv = run.Figure("kv_size_gib");
  std::string model_source;
  std::optional<int64_t> geometry = CellFromModel(run, b->kv_elem_bytes, &model_source);
  if (tokens && *tokens > 0 && ((k && v) || kv)) {
    int64_t uk = 0, uv = 0;
    int64_t from_log = kv ? PerTokenFromSize(*kv, slots, &uk)
                          : PerTokenFromSize(*k, slots, &uk) + PerTokenFromSize(*v, slots, &uv);
    if (from_log <= 0) from_log = 0;
    if (geometry && (from_log == 0 || std::llabs(*geometry - from_log) <= uk + uv + 64)) {
      b->cell_bytes = *geometry;
      b->cell_source = model_source + ", agreeing with the log's KV line";
      return;
    }
    b->cell_bytes = from_log;
    b->cell_uncertainty = uk + uv;
    b->cell_source = kv ? "the log's KV line (KV size / (#tokens + page_size))"
                        : "the log's KV line ((K size + V size) / (#tokens + page_size))";
    if (geometry) b->cell_source += fmt::format("; the catalog geometry gives {} B", *geometry);
    return;
  }
  if (geometry) {
    b->cell_bytes = *geometry;
    b->cell_source = model_source;
  }
}

}  // namespace

std::string SettingKey(const std::string& flag) {
  std::string key = flag;
  while (!key.empty() && key[0] == '-') key.erase(0, 1);
  for (char& c : key) {
    if (c == '-') c = '_';
  }
  return key;
}

std::optional<SglangBudget> SglangBudgetOf(const RunRecord& run, std::string* why) {
  SglangBudget b;
  std::optional<double> pre = run.MinAvail(kStageLoadWeightBegin);
  int ranks = run.RankCount(kStageLoadWeightBegin);
  b.pre_source = fmt::format("min over {} rank{} of \"Load weight begin. avail mem\"", ranks,
                             ranks == 1 ? "" : "s");
  std::optional<double> post = run.MinAvail(kStageLoadWeightEnd);
  int post_ranks = run.RankCount(kStageLoadWeightEnd);
  b.post_source = fmt::format("min over {} rank{} of \"Load weight end. avail mem\"", post_ranks,
                              post_ranks == 1 ? "" : "s");
  if (!pre && post) {
    // "Load weight end" also prints the usage: free before = free after + usage.
    std::optional<double> usage = run.MinUsage(kStageLoadWeightEnd);
    if (usage) {
      pre = *post + *usage;
      b.pre_source =
          "post-load free + \"mem usage\" of Load weight end (no Load weight begin line)";
    }
  }
  std::optional<double> mfs = run.SettingNumber("mem_fraction_static");
  if (!pre || !post || !mfs) {
    *why = !post  ? "the log has no \"Load weight end. avail mem=\" line"
           : !pre ? "the log has no \"Load weight begin. avail mem=\" line"
                  : "the log prints no mem_fraction_static (no server_args line)";
    return std::nullopt;
  }
  if (*mfs <= 0 || *mfs > 1) {
    *why = fmt::format("the logged mem_fraction_static {:g} is not a fraction", *mfs);
    return std::nullopt;
  }
  if (std::fabs(*pre) > 1e7 || std::fabs(*post) > 1e7) {  // more than 10 PiB of free memory
    *why = "the logged free memory is not plausible (garbled line?)";
    return std::nullopt;
  }
  b.pre_gib = *pre;
  b.post_gib = *post;
  b.mfs = *mfs;
  if (int64_t page = run.SettingInt("page_size", 1); page >= 1) b.page_size = page;
  if (int64_t cap = run.SettingInt("max_total_tokens", 0); cap > 0) b.max_total_tokens = cap;
  SetCell(run, &b);
  return b;
}

SglangVerdict ReplanSglang(const SglangBudget& b) {
  SglangVerdict v;
  // The engine computes in Python floats (GiB), then truncates to bytes.
  v.rest_gib = b.post_gib - b.pre_gib * (1 - b.mfs);
  v.steps.push_back(
      fmt::format("rest_memory = post - pre x (1 - mfs) = {:.2f} - {:.2f} x (1 - {:g}) "
                  "= {:.2f} GiB",
                  b.post_gib, b.pre_gib, b.mfs, v.rest_gib));
  if (b.cell_bytes <= 0) {
    v.ok = v.rest_gib > 0;
    v.steps.push_back("KV bytes per token unknown: no KV line and the model is not in the catalog");
    if (!v.ok) v.error = "Not enough memory. Please try to increase --mem-fraction-static.";
    return v;
  }
  int64_t rest_bytes = TruncToInt64(v.rest_gib * static_cast<double>(kGiB));
  int64_t tokens = FloorDiv(rest_bytes, b.cell_bytes);
  v.steps.push_back(
      fmt::format("max_total_num_tokens = int(rest x 2^30) // cell_size = {} // {} = {}",
                  rest_bytes, b.cell_bytes, tokens));
  if (b.max_total_tokens && *b.max_total_tokens < tokens) {
    tokens = *b.max_total_tokens;
    v.steps.push_back(
        fmt::format("min(profiled, --max-total-tokens {}) = {}", *b.max_total_tokens, tokens));
  }
  if (b.page_size > 1) {
    tokens = FloorDiv(tokens, b.page_size) * b.page_size;
    v.steps.push_back(fmt::format("aligned down to page_size {}: {}", b.page_size, tokens));
  }
  v.tokens = tokens;
  v.ok = tokens > 0;
  if (!v.ok) v.error = "Not enough memory. Please try to increase --mem-fraction-static.";
  return v;
}

void ApplySglangSet(SglangBudget* b, const std::string& flag, const std::string& value) {
  std::string key = SettingKey(flag);
  std::optional<double> num = ParseDouble(value);
  if (key == "mem_fraction_static") {
    if (!num || *num <= 0 || *num >= 1) {
      throw InputError(
          fmt::format("--set {}={}: expected a fraction between 0 and 1", flag, value));
    }
    b->mfs = *num;
  } else if (key == "max_total_tokens") {
    if (!num || *num < 1 || *num > 1e15)
      throw InputError(fmt::format("--set {}={}: expected a positive integer", flag, value));
    b->max_total_tokens = static_cast<int64_t>(*num);
  } else if (key == "page_size") {
    if (!num || *num < 1 || *num > 1e15)
      throw InputError(fmt::format("--set {}={}: expected a positive integer", flag, value));
    b->page_size = static_cast<int64_t>(*num);
  } else if (key == "kv_cache_dtype") {
    double elem = value == "auto" ? 2 : ElemBytes(value);
    if (b->kv_elem_bytes <= 0 || b->cell_bytes <= 0) {
      throw InputError("--set kv_cache_dtype: the log gives no KV bytes per token to rescale");
    }
    b->cell_bytes =
        static_cast<int64_t>(static_cast<double>(b->cell_bytes) * elem / b->kv_elem_bytes);
    b->kv_elem_bytes = elem;
    b->cell_source += fmt::format(", rescaled to {} ({:g} B per element)", value, elem);
  } else {
    throw InputError(fmt::format(
        "--set {}: kvplan re-plans a logged SGLang run for mem_fraction_static, max_total_tokens, "
        "page_size and kv_cache_dtype only (other flags change what the log measured)",
        flag));
  }
}

std::optional<LoggedVllmBudget> VllmBudgetOf(const RunRecord& run) {
  LoggedVllmBudget b;
  std::optional<double> total = run.Figure("total_gpu_memory_gib");
  std::optional<double> util = run.Figure("gpu_memory_utilization");
  if (!total || !util) return std::nullopt;
  b.total_gib = *total;
  b.util = *util;
  b.non_torch_gib = run.Figure("non_torch_memory_gib").value_or(0);
  if (std::optional<double> peak = run.Figure("peak_torch_memory_gib")) {
    b.peak_includes_weights = true;  // ~v0.6.3: the torch peak includes the weights
    b.activation_gib = *peak;
    b.logged_kv_gib = run.Figure("kv_cache_size_gib").value_or(0);
    return b;
  }
  std::optional<double> w = run.Figure("weights_take_gib");
  std::optional<double> act = run.Figure("activation_peak_gib");
  std::optional<double> kv = run.Figure("available_kv_cache_gib");
  if (!w || !act || !kv) return std::nullopt;
  b.weights_gib = *w;
  b.activation_gib = *act;
  b.logged_kv_gib = *kv;
  return b;
}

double VllmKvGib(const LoggedVllmBudget& b) {
  return b.total_gib * b.util - b.weights_gib - b.non_torch_gib - b.activation_gib;
}

}  // namespace kvplan
