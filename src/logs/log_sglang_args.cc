#include "logs/log_sglang_args.h"

#include <cmath>
#include <optional>

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
  SglangArgs a;
  a.model_path = r.model;
  a.tp = SmallIntOf(r, "tp_size");
  a.pp = SmallIntOf(r, "pp_size");
  a.dp = SmallIntOf(r, "dp_size");
  a.ep = SmallIntOf(r, "ep_size");
  a.enable_dp_attention = FlagOf(r, "enable_dp_attention");
  if (Printed(r, "mem_fraction_static") != nullptr) {
    a.mem_fraction_static = r.SettingNumber("mem_fraction_static");
  }
  if (std::string kv = TextOf(r, "kv_cache_dtype"); !kv.empty()) a.kv_cache_dtype = kv;
  a.page_size = IntOf(r, "page_size");
  a.context_length = IntOf(r, "context_length");
  a.max_total_tokens = IntOf(r, "max_total_tokens");
  a.chunked_prefill_size = IntOf(r, "chunked_prefill_size");
  a.max_prefill_tokens = IntOf(r, "max_prefill_tokens");
  a.cuda_graph_max_bs = IntOf(r, "cuda_graph_max_bs");
  a.disable_cuda_graph = FlagOf(r, "disable_cuda_graph");
  a.quantization = TextOf(r, "quantization");
  a.attention_backend = TextOf(r, "attention_backend");
  a.speculative_algorithm = TextOf(r, "speculative_algorithm");
  a.speculative_draft_model_path = TextOf(r, "speculative_draft_model_path");
  a.speculative_num_steps = IntOf(r, "speculative_num_steps");
  a.speculative_eagle_topk = IntOf(r, "speculative_eagle_topk");
  a.speculative_num_draft_tokens = IntOf(r, "speculative_num_draft_tokens");
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
