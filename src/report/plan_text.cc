#include <algorithm>

#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "kvplan/render.h"
#include "report/fit_columns.h"

namespace kvplan {
namespace {

// Full-length requests at once: tokens / context, except where the engine's own
// concurrency differs because not every layer holds per-token KV (vLLM's hybrid
// state layers hold one block per request whatever its length).
double FullLengthRequests(const PlanResult& r) {
  bool state_layers = false;
  double concurrency = 0;
  for (const Figure& f : r.figures) {
    if (f.key == "mamba_state_layers" && f.value > 0) state_layers = true;
    if (f.key == "max_concurrency") concurrency = f.value;
  }
  if (state_layers) return concurrency;
  return r.context_length > 0
             ? static_cast<double>(r.max_total_num_tokens) / static_cast<double>(r.context_length)
             : 0;
}

// Whose tokens the count is (issue 11 item 4): "per GPU" only where one GPU holds
// the pool; a TP x PP group shares one count, each GPU holding its share of every
// token, and a deployment of several pools adds its total.
std::string KvTokensPhrase(const PlanResult& r) {
  const KvScope& s = r.kv_scope;
  const std::string name = KvScopeName(s.kind);
  std::string out = fmt::format("{} KV tokens per {}", WithThousands(r.max_total_num_tokens), name);
  if (s.gpus > 1) out += fmt::format(" ({} GPUs)", s.gpus);
  if (s.pools > 1) {
    out += fmt::format(", {} in the whole deployment",
                       WithThousands(r.max_total_num_tokens * s.pools));
    out += s.gpus > 1 ? fmt::format(" ({} {}s, {} GPUs)", s.pools, name, s.pools * s.gpus)
                      : fmt::format(" ({} GPUs)", s.pools);
  }
  // A model without attention layers (pure Mamba) holds no bytes per token: its blocks are
  // whole requests' state, so a "0 B per token" would only mislead.
  if (r.cell_size_bytes == 0) return out + " (state pages only: no attention layers)";
  return out + fmt::format(" ({} B per token{})", WithThousands(r.cell_size_bytes),
                           s.gpus > 1 ? " on each GPU" : "");
}

std::string StageValue(const Stage& s) {
  if (!s.value.empty()) return s.value;
  if (s.bytes == 0) return "";
  return FormatGiB(s.bytes, 3);
}

}  // namespace

std::string RenderMemoryBar(const PlanResult& r, int width) {
  if (r.memory.empty() || r.gpu_total_bytes <= 0) return "";
  static const char* kFill[] = {"░", "█", "▓", "▒", "#", "=", "+", "~"};
  std::string bar, legend;
  int used_cells = 0;
  int64_t used = 0;
  for (size_t i = 0; i < r.memory.size(); ++i) {
    const MemorySlice& m = r.memory[i];
    if (m.bytes <= 0) continue;
    used += m.bytes;
    const int cells = static_cast<int>(
        static_cast<double>(m.bytes) / static_cast<double>(r.gpu_total_bytes) * width + 0.5);
    const char* fill = kFill[i % 8];
    for (int c = 0; c < cells && used_cells < width; ++c, ++used_cells) bar += fill;
    legend +=
        fmt::format("    {} {:<44} {:>11}  {:>5.1f}%\n", fill, m.label, FormatGiB(m.bytes),
                    100.0 * static_cast<double>(m.bytes) / static_cast<double>(r.gpu_total_bytes));
  }
  const int64_t free_bytes = r.gpu_total_bytes - used;
  while (used_cells < width) {
    bar += "·";
    ++used_cells;
  }
  legend += fmt::format("    · {:<44} {:>11}  {:>5.1f}%\n", "free",
                        FormatGiB(std::max<int64_t>(0, free_bytes)),
                        100.0 * static_cast<double>(std::max<int64_t>(0, free_bytes)) /
                            static_cast<double>(r.gpu_total_bytes));
  return fmt::format("  [{}] {}\n{}", bar, FormatGiB(r.gpu_total_bytes), legend);
}

std::string RenderPlanText(const PlanResult& r, const PlanContext& ctx) {
  std::string out;
  out += fmt::format("{} {}, rules of {} · {} on {}x {}\n\n", r.engine, r.engine_version, r.era,
                     ctx.model, ctx.gpus, ctx.gpu);
  if (!r.settings.empty()) {
    out += "Settings\n";
    TextTable t({"flag", "value", "set by"});
    for (const Setting& s : r.settings) {
      t.AddRow(
          {s.flag, s.value, s.user ? "user" : (s.rule.empty() ? "engine" : "engine: " + s.rule)});
    }
    out += t.Render() + "\n";
  }
  if (!r.stages.empty()) {
    out += "Memory accounting, per GPU\n";
    TextTable t({"stage", "value", "how"});
    for (const Stage& s : r.stages) t.AddRow({s.name, StageValue(s), s.formula});
    out += t.Render() + "\n";
  }
  if (r.ok) {
    const double per_request = FullLengthRequests(r);
    out += WrapText(fmt::format("Verdict: OK. {}, max_running_requests {}, {:.2f} full-length ({} "
                                "tokens) requests at once.",
                                KvTokensPhrase(r), WithThousands(r.max_running_requests),
                                per_request, WithThousands(r.context_length)),
                    2) +
           "\n";
  } else if (r.not_modelled) {
    out += "Verdict: NOT PLANNED. kvplan does not model this launch:\n" +
           WrapText("  " + r.error_message, 2) + "\n";
  } else {
    out += "Verdict: FAILS at start-up. The engine says:\n" + WrapText("  " + r.error_message, 2) +
           "\n";
  }
  std::string bar = RenderMemoryBar(r);
  if (!bar.empty()) out += "One GPU's memory\n" + bar + "\n";
  if (!r.warnings.empty()) {
    out += "Warnings\n";
    for (const std::string& w : r.warnings) out += WrapText("  - " + w, 4);
    out += "\n";
  }
  if (!r.fixes.empty()) {
    out += r.ok ? "Ways to more KV cache\n" : "Fixes\n";
    TextTable t({"flag", "value", "effect"});
    for (const Fix& f : r.fixes) t.AddRow({f.flag, f.value, f.effect});
    out += t.Render();
  }
  return FitToColumns(out);
}

}  // namespace kvplan
