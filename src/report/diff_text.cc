// `kvplan diff`'s text, rendered from the one DiffResult.
#include <string>
#include <string_view>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "kvplan/diff.h"
#include "report/diff_render.h"
#include "report/fit_columns.h"

namespace kvplan {
namespace {

std::string Side(const std::string& value, const std::string& prov) {
  if (value.empty()) return "(not printed)";
  std::string shown = value.size() > 48 ? value.substr(0, 45) + "..." : value;
  return prov == "unknown" || prov == "-" ? shown : shown + " (" + prov + ")";
}

std::string Outcome(const RunRecord& r) {
  return r.outcome == "failed" ? "failed: " + r.error : r.outcome;
}

std::string TokensText(std::optional<int64_t> t) { return t ? WithThousands(*t) : "?"; }

std::string Effect(const BeforeAfter& r) {
  if (r.vllm) {
    return fmt::format("KV budget {:.2f} -> {:.2f} GiB{}", r.gib_a, r.gib_b,
                       r.ok_after ? "" : fmt::format(": fails (\"{}\")", r.error_after));
  }
  std::string effect = fmt::format("rest_memory {:.2f} -> {:.2f} GiB", r.gib_a, r.gib_b);
  if (r.ok_after) {
    return effect +
           fmt::format(", KV tokens {} -> {}", TokensText(r.tokens_a), TokensText(r.tokens_b));
  }
  return effect + fmt::format(", KV tokens {} -> none: fails (\"{}\")", TokensText(r.tokens_a),
                              r.error_after);
}

// "" when the change has nothing to say about memory.
std::string Effect(const SettingChange& c) {
  if (c.replanned) {
    return "alone: " + Effect(BeforeAfter{c.vllm, c.rest_a_gib, c.rest_b_gib, c.tokens_a,
                                          c.tokens_b, c.ok_after, c.error_after});
  }
  switch (c.not_replanned) {
    case NotReplanned::kNo:
      return "";
    case NotReplanned::kNoBudget:
      return "not re-planned: " + c.why;
    case NotReplanned::kGraphsAfterKv:
      return "no effect on the KV budget: CUDA graphs are captured after the KV pool is sized, "
             "out of the pre x (1 - mfs) slack";
    case NotReplanned::kChangesMeasured:
      return "not re-planned: it changes what the log measured (weights, activations), not the "
             "KV formula";
    case NotReplanned::kRefused:
      return "not re-planned: " + c.why;
  }
  return "";
}

void AppendTimelines(const RunRecord& a, const RunRecord& b, std::string* out) {
  struct Row {
    const char* label;
    const char* vllm_label;  // the line vLLM prints it in
    std::string_view stage;
    bool avail;
  };
  static const Row rows[] = {
      {"pre-load free (Load weight begin)", "pre-load free", kStageLoadWeightBegin, true},
      {"post-load free (Load weight end)", "post-load free", kStageLoadWeightEnd, true},
      {"weights (Load weight end usage)", "weights (model loading took)", kStageLoadWeightEnd,
       false},
      {"memory pool end", "memory pool end", kStageMemoryPoolEnd, true},
      {"CUDA graph begin", "CUDA graph begin", kStageGraphBegin, true},
      {"CUDA graph usage", "CUDA graph usage", kStageGraphEnd, false},
      {"CUDA graph end", "CUDA graph end", kStageGraphEnd, true},
  };
  bool vllm = a.engine == "vllm" && b.engine == "vllm";
  std::string body;
  for (const Row& row : rows) {
    std::optional<double> x = row.avail ? a.MinAvail(row.stage) : a.MinUsage(row.stage);
    std::optional<double> y = row.avail ? b.MinAvail(row.stage) : b.MinUsage(row.stage);
    if (!x && !y) continue;
    auto f = [](std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; };
    body += fmt::format("  {:<36} {:>9} {:>9}\n", vllm ? row.vllm_label : row.label, f(x), f(y));
  }
  for (const char* key : {"kv_tokens", "k_size_gib", "kv_size_gib", "max_total_num_tokens",
                          "available_kv_cache_gib", "gpu_kv_cache_tokens", "num_gpu_blocks"}) {
    std::optional<double> x = a.Figure(key), y = b.Figure(key);
    if (!x && !y) continue;
    auto f = [](std::optional<double> v) { return v ? FormatFigure(*v) : "-"; };
    body += fmt::format("  {:<36} {:>9} {:>9}\n", key, f(x), f(y));
  }
  if (body.empty()) return;
  *out += fmt::format(
      "\nMemory timeline side by side (GiB, min over ranks)\n  {:<36} {:>9} {:>9}\n", "", "A", "B");
  *out += body;
}

void AppendHeader(const DiffResult& d, std::string* out) {
  const RunRecord& a = d.a;
  const RunRecord& b = d.b;
  *out +=
      WrapText(fmt::format("A  {} (launch {}): {}", d.a_name, a.launch_index + 1, Outcome(a)), 3);
  *out +=
      WrapText(fmt::format("B  {} (launch {}): {}", d.b_name, b.launch_index + 1, Outcome(b)), 3);
  // What the runs are comes before what they set: a different model, engine or GPU
  // explains more than any setting.
  if (a.model != b.model) {
    *out += WrapText(fmt::format("   model: {} -> {}", a.model.empty() ? "(not printed)" : a.model,
                                 b.model.empty() ? "(not printed)" : b.model),
                     5);
  }
  if (a.engine != b.engine || a.version != b.version) {
    *out += fmt::format("   engine: {} {} -> {} {}\n", a.engine, a.version, b.engine, b.version);
  }
  if (a.gpu_name != b.gpu_name || a.gpu_count != b.gpu_count) {
    *out +=
        fmt::format("   GPU: {}x {} -> {}x {}\n", a.gpu_count, a.gpu_name, b.gpu_count, b.gpu_name);
  }
}

}  // namespace

std::string RenderDiffText(const DiffResult& d) {
  std::string out;
  AppendHeader(d, &out);
  std::string memory, rest;
  for (const SettingChange& c : d.changes) {
    // A long value (a capture list) wraps under the values, not under the key.
    std::string line = WrapText(
        fmt::format("  {:<24} {} -> {}", c.key, Side(c.a, c.a_prov), Side(c.b, c.b_prov)), 27);
    if (!c.memory && !c.replanned) {
      rest += line;
      continue;
    }
    memory += line;
    if (std::string effect = Effect(c); !effect.empty()) memory += WrapText("      " + effect, 8);
    if (c.explains_failure) memory += "      => this change alone reproduces B's failure\n";
  }
  out += "\nEffective settings that differ (re-planned on A's measured memory)\n";
  out += memory.empty() ? "  none that shape memory\n" : memory;
  if (d.together) out += WrapText("  all re-planned changes together: " + Effect(*d.together), 4);
  AppendTimelines(d.a, d.b, &out);
  out += DecodeDiffText(d);
  if (!rest.empty()) out += "\nOther differences\n" + rest;
  return FitToColumns(out);
}

}  // namespace kvplan
