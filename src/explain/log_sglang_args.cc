#include "explain/log_sglang_args.h"

#include <cmath>
#include <optional>
#include <utility>

#include <fmt/core.h>

namespace kvplan {
namespace {

// The printed value, or nullopt when the run prints None (or nothing).
const LoggedSetting* Printed(const RunRecord& r, const char* key) {
  const LoggedSetting* s = r.FindSetting(key);
  return s == nullptr || s->value == "None" || s->value.empty() ? nullptr : s;
}

std::optional<int64_t> IntOf(const RunRecord& r, const char* key) {
  if (Printed(r, key) == nullptr) return std::nullopt;
  std::optional<double> v = r.SettingNumber(key);
  if (!v || std::fabs(*v) >= 1e15 || *v != std::floor(*v)) return std::nullopt;
  return static_cast<int64_t>(*v);
}

std::string TextOf(const RunRecord& r, const char* key) {
  const LoggedSetting* s = Printed(r, key);
  return s == nullptr ? "" : s->value;
}

bool FlagOf(const RunRecord& r, const char* key) {
  const LoggedSetting* s = Printed(r, key);
  return s != nullptr && s->value == "True";
}

int SmallIntOf(const RunRecord& r, const char* key) {
  std::optional<int64_t> v = IntOf(r, key);
  return v && *v >= 1 && *v <= 4096 ? static_cast<int>(*v) : 1;
}

}  // namespace

SglangArgs SglangArgsOfRun(const RunRecord& r) {
  using Int = std::optional<int64_t> SglangArgs::*;
  using Text = std::string SglangArgs::*;
  static const std::pair<const char*, Int> kInts[] = {
      {"page_size", &SglangArgs::page_size},
      {"context_length", &SglangArgs::context_length},
      {"max_total_tokens", &SglangArgs::max_total_tokens},
      {"chunked_prefill_size", &SglangArgs::chunked_prefill_size},
      {"max_prefill_tokens", &SglangArgs::max_prefill_tokens},
      {"cuda_graph_max_bs", &SglangArgs::cuda_graph_max_bs},
      {"speculative_num_steps", &SglangArgs::speculative_num_steps},
      {"speculative_eagle_topk", &SglangArgs::speculative_eagle_topk},
      {"speculative_num_draft_tokens", &SglangArgs::speculative_num_draft_tokens}};
  static const std::pair<const char*, Text> kTexts[] = {
      {"kv_cache_dtype", &SglangArgs::kv_cache_dtype},
      {"quantization", &SglangArgs::quantization},
      {"attention_backend", &SglangArgs::attention_backend},
      {"speculative_algorithm", &SglangArgs::speculative_algorithm},
      {"speculative_draft_model_path", &SglangArgs::speculative_draft_model_path}};
  SglangArgs a;
  a.model_path = r.model;
  a.tp = SmallIntOf(r, "tp_size");
  a.pp = SmallIntOf(r, "pp_size");
  a.dp = SmallIntOf(r, "dp_size");
  a.ep = SmallIntOf(r, "ep_size");
  a.enable_dp_attention = FlagOf(r, "enable_dp_attention");
  a.disable_cuda_graph = FlagOf(r, "disable_cuda_graph");
  for (const auto& [key, member] : kInts) a.*member = IntOf(r, key);
  for (const auto& [key, member] : kTexts) {
    if (std::string v = TextOf(r, key); !v.empty()) a.*member = v;
  }
  if (Printed(r, "mem_fraction_static") != nullptr) {
    a.mem_fraction_static = r.SettingNumber("mem_fraction_static");
  }
  if (Printed(r, "swa_full_tokens_ratio") != nullptr) {
    a.swa_full_tokens_ratio = r.SettingNumber("swa_full_tokens_ratio");
  }
  // server_args.py (#4908): speculative decoding resets max_running_requests
  // to 48 and prints it; only a user's value is an input.
  const LoggedSetting* reqs = Printed(r, "max_running_requests");
  bool engine_48 = !a.speculative_algorithm.empty() && reqs != nullptr && reqs->value == "48" &&
                   reqs->provenance != "user";
  if (reqs != nullptr && reqs->provenance != "auto" && !engine_48) {
    a.max_running_requests = IntOf(r, "max_running_requests");
  }
  return a;
}

std::string SglangReleaseOfRun(const RunRecord& r, std::string* why) {
  const std::string& era = r.era;
  // The era is set by the first telling line; later lines refine it.
  std::string release;
  if (r.error.find("Loaded weights leave no GPU memory") != std::string::npos ||
      (era.rfind("2026", 0) == 0 && !r.kv_dtype.empty())) {
    release = "main";  // the 2026-05+ formats (dtype: in the KV line, the ValueError)
  } else if (era.rfind("2026", 0) == 0) {
    release = "0.5.10";
  } else if (era.rfind("v0.5.3", 0) == 0 || r.error.find("Current value:") != std::string::npos) {
    release = "0.5.6";
  } else if (era.rfind("v0.4.7-v0.5.x", 0) == 0) {
    release = "0.4.9";
  } else if (era.rfind("v0.4.6", 0) == 0) {
    release = "0.4.6";
  }
  if (release.empty()) {
    *why = "the log's line formats name no era: kvplan assumes SGLang main";
    return "main";
  }
  *why = fmt::format("SGLang {} (representative of the log's era: {})", release,
                     era.empty() ? "from the error text" : era);
  return release;
}

}  // namespace kvplan
