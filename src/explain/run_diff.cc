#include "explain/run_diff.h"

#include <algorithm>
#include <cstdlib>
#include <set>

#include <fmt/core.h>

#include "base/text.h"
#include "explain/decode_diff.h"
#include "explain/explain_report.h"
#include "explain/log_replan.h"
#include "explain/log_vllm_replan.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Settings that shape memory, most telling first (the diff's sort order).
const std::vector<std::string>& MemoryOrder() {
  static const std::vector<std::string> keys = {"mem_fraction_static",
                                                "gpu_memory_utilization",
                                                "kv_cache_memory",
                                                "model_path",
                                                "model",
                                                "quantization",
                                                "dtype",
                                                "kv_cache_dtype",
                                                "tp_size",
                                                "tensor_parallel_size",
                                                "dp_size",
                                                "data_parallel_size",
                                                "pp_size",
                                                "pipeline_parallel_size",
                                                "ep_size",
                                                "enable_dp_attention",
                                                "enable_expert_parallel",
                                                "max_total_tokens",
                                                "page_size",
                                                "block_size",
                                                "context_length",
                                                "max_model_len",
                                                "max_running_requests",
                                                "max_num_seqs",
                                                "chunked_prefill_size",
                                                "max_prefill_tokens",
                                                "max_num_batched_tokens",
                                                "cuda_graph_max_bs",
                                                "cuda_graph_bs",
                                                "disable_cuda_graph",
                                                "enforce_eager",
                                                "enable_piecewise_cuda_graph",
                                                "speculative_algorithm",
                                                "speculative_draft_model_path",
                                                "speculative_num_steps",
                                                "speculative_eagle_topk",
                                                "speculative_num_draft_tokens",
                                                "cpu_offload_gb",
                                                "attention_backend",
                                                "swa_full_tokens_ratio",
                                                "mamba_full_memory_ratio"};
  return keys;
}

bool IsMemoryKey(const std::string& key) {
  const auto& k = MemoryOrder();
  return std::find(k.begin(), k.end(), key) != k.end();
}

std::string TokensText(std::optional<int64_t> t) { return t ? WithThousands(*t) : "?"; }

// One re-plan's figures before and after the change, engine-neutral.
struct BeforeAfter {
  double gib_a = 0, gib_b = 0;  // rest_memory (SGLang) or the KV budget (vLLM)
  std::optional<int64_t> tokens_a, tokens_b;
  bool ok_after = false;
  std::string error_after;
};

void Record(const BeforeAfter& r, const std::string& effect, SettingChange* c) {
  c->replanned = true;
  c->rest_a_gib = r.gib_a;
  c->rest_b_gib = r.gib_b;
  c->tokens_a = r.tokens_a;
  c->tokens_b = r.tokens_b;
  c->ok_after = r.ok_after;
  c->error_after = r.error_after;
  c->effect = effect;
}

void Replan(const SglangReplanInputs& base, const std::vector<SettingChange*>& changes,
            SettingChange* report_into, std::string* summary) {
  SglangReplanInputs changed = base;
  for (const SettingChange* c : changes) ApplySglangSet(&changed, c->key, c->b);
  SglangVerdict before = ReplanSglang(base), after = ReplanSglang(changed);
  std::string effect =
      fmt::format("rest_memory {:.2f} -> {:.2f} GiB", before.rest_gib, after.rest_gib);
  if (after.ok) {
    effect +=
        fmt::format(", KV tokens {} -> {}", TokensText(before.tokens), TokensText(after.tokens));
  } else {
    effect += fmt::format(", KV tokens {} -> none: fails (\"{}\")", TokensText(before.tokens),
                          after.error);
  }
  if (report_into != nullptr) {
    Record({before.rest_gib, after.rest_gib, before.tokens, after.tokens, after.ok, after.error},
           effect, report_into);
  }
  if (summary != nullptr) *summary = effect;
}

// vLLM lists only non-default args: a key missing from a run that has the
// list took the default.
std::string VllmDefault(const RunRecord& r, const std::string& key) {
  if (r.engine != "vllm" || r.settings.empty()) return "";
  if (key == "gpu_memory_utilization") return "0.9";
  return "(default)";
}

// The change alone on A's measured profile, through kvplan's vLLM model.
void ReplanVllmChange(const VllmReplanInputs& base, SettingChange* c, const RunRecord& a,
                      const RunRecord& b) {
  VllmReplanInputs changed = base;
  try {
    ApplyVllmSet(&changed, c->key, c->b);
  } catch (const InputError&) {
    return;  // not a value kvplan can re-plan: listed without an effect
  }
  VllmVerdict before = ReplanVllm(base), after = ReplanVllm(changed);
  Record({before.kv_gib, after.kv_gib, before.tokens, after.tokens, after.ok, after.error},
         fmt::format("KV budget {:.2f} -> {:.2f} GiB{}", before.kv_gib, after.kv_gib,
                     after.ok ? "" : fmt::format(": fails (\"{}\")", after.error)),
         c);
  c->explains_failure = a.outcome == "ok" && b.outcome == "failed" && !c->ok_after;
}

int Rank(const SettingChange& c) {
  if (c.explains_failure) return 0;
  if (c.replanned) return 1;
  if (c.memory) return 2;
  return 3;
}

}  // namespace

RunDiff DiffRuns(const RunRecord& a, const RunRecord& b) {
  RunDiff diff;
  std::vector<std::string> keys;
  for (const LoggedSetting& s : a.settings) keys.push_back(s.key);
  for (const LoggedSetting& s : b.settings) {
    if (a.FindSetting(s.key) == nullptr) keys.push_back(s.key);
  }
  for (const std::string& key : keys) {
    const LoggedSetting* sa = a.FindSetting(key);
    const LoggedSetting* sb = b.FindSetting(key);
    std::string va = sa ? sa->value : "", vb = sb ? sb->value : "";
    if (va == vb) continue;
    SettingChange c;
    c.key = key;
    c.a = va.empty() ? VllmDefault(a, key) : va;
    c.b = vb.empty() ? VllmDefault(b, key) : vb;
    c.a_prov = sa ? sa->provenance : c.a.empty() ? "-" : "auto";
    c.b_prov = sb ? sb->provenance : c.b.empty() ? "-" : "auto";
    c.memory = IsMemoryKey(key);
    diff.changes.push_back(c);
  }
  std::string why;
  std::optional<SglangReplanInputs> base =
      a.engine == "sglang" ? SglangReplanInputsOf(a, &why) : std::nullopt;
  std::vector<SettingChange*> replannable;
  std::string vllm_why;
  std::optional<VllmReplanInputs> vllm =
      a.engine == "vllm" ? VllmReplanInputsOf(a, &vllm_why) : std::nullopt;
  for (SettingChange& c : diff.changes) {
    if (vllm && c.key == "gpu_memory_utilization") {
      ReplanVllmChange(*vllm, &c, a, b);
      if (c.replanned) continue;
    }
    if (!base || !SglangSettingReplannable(c.key) || c.b.empty()) {
      if (c.memory && c.effect.empty()) {
        c.effect = !base ? "not re-planned: " + (why.empty() ? "no SGLang budget in A" : why)
                   : c.key.find("cuda_graph") != std::string::npos
                       ? "no effect on the KV budget: CUDA graphs are captured after the KV pool "
                         "is sized, out of the pre x (1 - mfs) slack"
                       : "not re-planned: it changes what the log measured (weights, "
                         "activations), not the KV formula";
      }
      continue;
    }
    try {
      Replan(*base, {&c}, &c, nullptr);
      replannable.push_back(&c);
      c.explains_failure = a.outcome == "ok" && b.outcome == "failed" && !c.ok_after;
    } catch (const std::exception& e) {
      c.effect = std::string("not re-planned: ") + e.what();
    }
  }
  if (base && !replannable.empty()) {
    Replan(*base, replannable, nullptr, &diff.together);
    diff.together_replanned = true;
  }
  std::stable_sort(
      diff.changes.begin(), diff.changes.end(), [](const SettingChange& x, const SettingChange& y) {
        if (Rank(x) != Rank(y)) return Rank(x) < Rank(y);
        if (x.memory && y.memory) {
          const auto& k = MemoryOrder();
          return std::find(k.begin(), k.end(), x.key) < std::find(k.begin(), k.end(), y.key);
        }
        return false;
      });
  return diff;
}

namespace {

std::string Side(const std::string& value, const std::string& prov) {
  if (value.empty()) return "(not printed)";
  std::string shown = value.size() > 48 ? value.substr(0, 45) + "..." : value;
  return prov == "unknown" || prov == "-" ? shown : shown + " (" + prov + ")";
}

std::string Outcome(const RunRecord& r) {
  return r.outcome == "failed" ? "failed: " + r.error : r.outcome;
}

void AppendTimelines(const RunRecord& a, const RunRecord& b, std::string* out) {
  struct Row {
    const char* label;
    std::string_view stage;
    bool avail;
  };
  static const Row rows[] = {
      {"pre-load free (Load weight begin)", kStageLoadWeightBegin, true},
      {"post-load free (Load weight end)", kStageLoadWeightEnd, true},
      {"weights (Load weight end usage)", kStageLoadWeightEnd, false},
      {"memory pool end", kStageMemoryPoolEnd, true},
      {"CUDA graph begin", kStageGraphBegin, true},
      {"CUDA graph usage", kStageGraphEnd, false},
      {"CUDA graph end", kStageGraphEnd, true},
  };
  std::string body;
  for (const Row& row : rows) {
    std::optional<double> x = row.avail ? a.MinAvail(row.stage) : a.MinUsage(row.stage);
    std::optional<double> y = row.avail ? b.MinAvail(row.stage) : b.MinUsage(row.stage);
    if (!x && !y) continue;
    auto f = [](std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; };
    body += fmt::format("  {:<36} {:>9} {:>9}\n", row.label, f(x), f(y));
  }
  for (const char* key : {"kv_tokens", "k_size_gib", "kv_size_gib", "max_total_num_tokens",
                          "available_kv_cache_gib", "gpu_kv_cache_tokens", "num_gpu_blocks"}) {
    std::optional<double> x = a.Figure(key), y = b.Figure(key);
    if (!x && !y) continue;
    auto f = [](std::optional<double> v) { return v ? fmt::format("{:g}", *v) : "-"; };
    body += fmt::format("  {:<36} {:>9} {:>9}\n", key, f(x), f(y));
  }
  if (body.empty()) return;
  *out += fmt::format(
      "\nMemory timeline side by side (GiB, min over ranks)\n  {:<36} {:>9} {:>9}\n", "", "A", "B");
  *out += body;
}

}  // namespace

std::string DiffText(const RunDiff& diff, const RunRecord& a, const std::string& a_name,
                     const RunRecord& b, const std::string& b_name) {
  std::string out;
  out += fmt::format("A  {} (launch {}): {}\n", a_name, a.launch_index + 1, Outcome(a));
  out += fmt::format("B  {} (launch {}): {}\n", b_name, b.launch_index + 1, Outcome(b));
  if (a.engine != b.engine || a.version != b.version) {
    out += fmt::format("   engine: {} {} -> {} {}\n", a.engine, a.version, b.engine, b.version);
  }
  if (a.gpu_name != b.gpu_name || a.gpu_count != b.gpu_count) {
    out +=
        fmt::format("   GPU: {}x {} -> {}x {}\n", a.gpu_count, a.gpu_name, b.gpu_count, b.gpu_name);
  }
  std::string memory, rest;
  for (const SettingChange& c : diff.changes) {
    std::string line =
        fmt::format("  {:<24} {} -> {}\n", c.key, Side(c.a, c.a_prov), Side(c.b, c.b_prov));
    if (!c.memory && !c.replanned) {
      rest += line;
      continue;
    }
    memory += line;
    if (!c.effect.empty()) {
      memory += fmt::format("      {}{}\n", c.replanned ? "alone: " : "", c.effect);
    }
    if (c.explains_failure) {
      memory += fmt::format("      => this change alone reproduces B's failure\n");
    }
  }
  out += "\nEffective settings that differ (re-planned on A's measured memory)\n";
  out += memory.empty() ? "  none that shape memory\n" : memory;
  if (diff.together_replanned) out += "  all re-planned changes together: " + diff.together + "\n";
  AppendTimelines(a, b, &out);
  out += DecodeDiffText(a, b);
  if (!rest.empty()) out += "\nOther differences\n" + rest;
  return out;
}

}  // namespace kvplan
