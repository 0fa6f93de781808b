#include "explain/logged_pools.h"

#include <cmath>
#include <optional>
#include <string>

#include <fmt/core.h>

namespace kvplan {
namespace {

// "K 4.15 + V 4.15 GiB" and their sum, from a KV line's figures under `prefix`.
void KvSizes(const RunRecord& r, const std::string& prefix, LoggedPool* p) {
  std::optional<double> k = r.Figure(prefix + "k_size_gib"), v = r.Figure(prefix + "v_size_gib");
  if (k && v) {
    p->gib = *k + *v;
    p->detail = fmt::format("K {:.2f} + V {:.2f} GiB", *k, *v);
  } else if (std::optional<double> kv = r.Figure(prefix + "kv_size_gib")) {
    p->gib = *kv;
    p->detail = fmt::format("KV {:.2f} GiB", *kv);
  }
}

std::optional<LoggedPool> MambaPool(const RunRecord& r) {
  std::optional<double> slots = r.Figure("mamba_cache_slots");
  std::optional<double> conv = r.Figure("mamba_conv_state_gib");
  std::optional<double> ssm = r.Figure("mamba_ssm_state_gib");
  if (!slots && !conv && !ssm) return std::nullopt;
  LoggedPool p{"Mamba state", slots ? std::llround(*slots) : 0, "request slots", std::nullopt, ""};
  double sum = conv.value_or(0) + ssm.value_or(0);
  p.detail = fmt::format("conv {:.2f} + ssm {:.2f} GiB", conv.value_or(0), ssm.value_or(0));
  for (const auto& [key, name] :
       {std::pair<const char*, const char*>{"mamba_intermediate_ssm_gib", "intermediate ssm"},
        {"mamba_intermediate_conv_gib", "intermediate conv"}}) {
    if (std::optional<double> v = r.Figure(key)) {
      sum += *v;
      p.detail += fmt::format(" + {} {:.2f} GiB", name, *v);
    }
  }
  p.gib = sum;
  return p;
}

}  // namespace

std::vector<LoggedPool> LoggedPoolsOf(const RunRecord& r) {
  std::optional<LoggedPool> mamba = MambaPool(r);
  std::optional<double> swa_tokens = r.Figure("swa_layer_tokens");
  if (!mamba && !swa_tokens) return {};
  std::vector<LoggedPool> pools;
  std::optional<double> full = r.Figure("kv_tokens");
  if (!full && swa_tokens) full = r.Figure("full_layer_tokens");
  if (full) {
    LoggedPool p{swa_tokens ? "full-attention KV" : "KV", std::llround(*full), "tokens",
                 std::nullopt, ""};
    KvSizes(r, "", &p);
    if (!p.gib && r.Figure("kv_tokens") == std::nullopt) {
      p.detail = "full_layer_tokens; its KV line is not in the log";
    }
    pools.push_back(p);
  }
  if (swa_tokens) {
    LoggedPool p{"sliding-window KV", std::llround(*swa_tokens), "tokens", std::nullopt, ""};
    KvSizes(r, "swa_", &p);
    pools.push_back(p);
  }
  if (mamba) pools.push_back(*mamba);
  return pools;
}

}  // namespace kvplan
