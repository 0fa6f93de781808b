// `kvplan explain`'s text, rendered from the one ExplainResult.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <fmt/core.h>

#include "base/format.h"
#include "base/text.h"
#include "base/units.h"
#include "kvplan/explain.h"
#include "logs/decode_summary.h"
#include "report/explain_render.h"
#include "report/fit_columns.h"

namespace kvplan {
namespace {

std::string StageLabel(const std::string& stage) {
  if (stage == kStageInitDistributed) return "init distributed (usage)";
  if (stage == kStageLoadWeightBegin) return "load weight begin";
  if (stage == kStageLoadWeightEnd) return "load weight end";
  if (stage == kStageKvAllocated) return "KV cache allocated";
  if (stage == kStageMemoryPoolEnd) return "memory pool end";
  if (stage == kStageGraphBegin) return "CUDA graph begin";
  if (stage == kStageGraphEnd) return "CUDA graph end";
  if (stage == kStageSummary) return "ready (summary line)";
  return stage;
}

std::string Gib(std::optional<double> v) { return v ? fmt::format("{:.2f}", *v) : "-"; }

void AppendHeader(const ExplainResult& e, std::string* out) {
  const RunRecord& r = e.run;
  *out += fmt::format("{} (launch {} of {}, lines {}-{})\n", e.log_path, r.launch_index + 1,
                      e.launches, r.first_line, r.last_line);
  std::string engine = r.engine.empty() ? "unknown" : r.engine;
  if (!r.version.empty()) engine += " " + r.version;
  if (!r.era.empty()) engine += " (era: " + r.era + ")";
  *out += fmt::format("  engine   {}\n", engine);
  if (!r.model.empty()) {
    std::string cls = r.model_class.empty() ? "" : " (" + r.model_class;
    if (!cls.empty()) cls += r.dtype.empty() ? ")" : ", " + r.dtype + ")";
    *out += fmt::format("  model    {}{}\n", r.model, cls);
  }
  if (!r.gpu_name.empty() && r.gpu_count > 0) {
    *out += fmt::format("  GPU      {}x {}, {} MiB (nvidia-smi in the log)\n", r.gpu_count,
                        r.gpu_name, r.gpu_capacity_mib);
  } else if (!r.gpu_name.empty()) {
    *out += fmt::format("  GPU      {}, {} MiB (--gpu)\n", r.gpu_name, r.gpu_capacity_mib);
  }
  std::string outcome = r.outcome;
  if (r.outcome == "failed") outcome += ": " + r.error;
  if (!e.stops.empty()) outcome += " (" + e.stops + ")";
  *out += WrapText("  outcome  " + outcome, 11);
}

void AppendSettings(const ExplainResult& e, std::string* out) {
  if (e.memory_settings.empty()) return;
  *out += "\nSettings that shape memory (value, provenance, why)\n";
  for (const LoggedSetting& s : e.memory_settings) {
    *out += fmt::format("  {:<26} {:<10} {:<8} {}\n", s.key, s.value.substr(0, 10), s.provenance,
                        s.rule);
  }
  if (!e.run.settings_complete)
    *out += "  (the args line was cut or trimmed: some settings are missing)\n";
}

void AppendTimeline(const ExplainResult& e, std::string* out) {
  if (e.timeline.empty()) return;
  *out += "\nMemory timeline (GiB; min and max over ranks)\n";
  *out += fmt::format("  {:<26} {:>8} {:>8} {:>8} {:>6}\n", "stage", "avail", "usage", "max avail",
                      "ranks");
  for (const TimelineRow& row : e.timeline) {
    *out += fmt::format("  {:<26} {:>8} {:>8} {:>8} {:>6}\n", StageLabel(row.stage),
                        Gib(row.min_avail_gib), Gib(row.min_usage_gib), Gib(row.max_avail_gib),
                        row.ranks);
  }
}

// A hybrid model's pools, each on its own line: the SWA or state pool is not the KV size.
void AppendPools(const ExplainResult& e, std::string* out) {
  if (e.pools.empty()) return;
  *out += "\nMemory pools (per rank, as the log prints them)\n";
  for (const LoggedPool& p : e.pools) {
    std::string size = p.size > 0 ? WithThousands(p.size) + " " + p.unit : "";
    std::string gib = p.gib ? fmt::format("{:.2f} GiB", *p.gib) : "";
    *out += fmt::format("  {:<18} {:>22} {:>10}  {}\n", p.kind, size, gib, p.detail);
  }
}

void AppendCheck(const SglangLogCheck& c, std::string* out) {
  switch (c.kind) {
    case SglangLogCheck::kNone:
      return;
    case SglangLogCheck::kBothFail:
      *out += "  check: kvplan's model also fails this launch -> consistent with the log\n";
      return;
    case SglangLogCheck::kModelFitsButFailed:
      *out +=
          "  check: kvplan's model says this launch fits, but it failed: the failure is "
          "not the KV budget (see the error), or the log is from an era kvplan does not "
          "model\n";
      return;
    case SglangLogCheck::kMatches:
    case SglangLogCheck::kClose:
    case SglangLogCheck::kMismatch:
      break;
  }
  *out += fmt::format(
      "  logged   #tokens: {} (KV pool {:.2f} GiB; implied mem_fraction_static {:.3f})\n",
      WithThousands(c.logged_tokens), c.logged_kv_gib, c.implied_mfs);
  std::string circular =
      c.circular ? " (the fraction is the one this KV line implies: a consistency check only)" : "";
  if (c.kind == SglangLogCheck::kMatches) {
    *out += fmt::format(
        "  check: matches kvplan's model (difference {} tokens, within the +-{} "
        "the log's 2-decimal rounding allows){}\n",
        WithThousands(c.difference), WithThousands(c.tolerance), circular);
  } else if (c.kind == SglangLogCheck::kClose) {
    *out += fmt::format(
        "  check: within 0.5 % of the log (difference {} tokens, {:.3f} %); more than the +-{} "
        "the rounding allows, as derived and assumed inputs (above) can be{}\n",
        WithThousands(c.difference), 100 * c.relative, WithThousands(c.tolerance), circular);
  } else {
    *out += fmt::format(
        "  check: MISMATCH: kvplan's model gives {} tokens, the log {} (difference {}, more than "
        "+-{}). Either the log is from an era kvplan does not model (e.g. speculative decoding "
        "headroom, hybrid SWA/mamba pools, post-capture sizing) or kvplan is wrong.\n",
        WithThousands(c.logged_tokens - c.difference), WithThousands(c.logged_tokens),
        WithThousands(c.difference), WithThousands(c.tolerance));
  }
}

std::string VerdictLine(const SglangReplanVerdict& v) {
  std::string tokens = v.tokens ? WithThousands(*v.tokens) + " KV tokens" : "KV tokens unknown";
  if (v.ok) return fmt::format("starts: rest_memory {:.2f} GiB, {}", v.rest_gib, tokens);
  return fmt::format("fails: rest_memory {:.2f} GiB -> \"{}\"", v.rest_gib, v.error);
}

void AppendSteps(const SglangReplanVerdict& v, std::string* out) {
  for (const std::string& note : v.notes) *out += "  note     " + note + "\n";
  for (const std::string& step : v.steps) *out += "  " + step + "\n";
  if (v.tokens) {
    *out += fmt::format("  => rest_memory = {:.2f} GiB, max_total_num_tokens = {}\n", v.rest_gib,
                        WithThousands(*v.tokens));
  }
  *out += "  verdict: " + VerdictLine(v) + "\n";
}

void AppendSglang(const SglangExplain& s, const ExplainOptions& o, std::string* out) {
  *out += "\nKV budget re-planned from the log's measured memory (kvplan's SGLang model)\n";
  if (!s.unavailable.empty()) {
    *out += WrapText("  not possible: " + s.unavailable, 4);
    if (s.logged_tokens) {
      *out += fmt::format("  logged   #tokens: {} (the KV line; nothing to check it against)\n",
                          WithThousands(*s.logged_tokens));
    }
    return;
  }
  for (const std::string& note : s.inputs) *out += "  input    " + note + "\n";
  *out += fmt::format("  pre      {:.2f} GiB  {}\n", s.pre_gib, s.pre_source);
  *out += fmt::format("  post     {:.2f} GiB  {}\n", s.post_gib, s.post_source);
  for (const ReplanInput& in : s.provenance) {
    // A printed fraction is in the settings above; a derived or assumed one is said here.
    if (in.name != "mem_fraction_static" || in.provenance == "measured") continue;
    *out += fmt::format("  fraction {:g} ({}) {}\n", in.value, in.provenance, in.how);
  }
  const SglangReplanVerdict& v = s.verdict;
  if (s.log_cell_bytes > 0) {
    *out +=
        fmt::format("  cell     {} B per token per rank in the log's KV line; {} B in the model\n",
                    WithThousands(s.log_cell_bytes), WithThousands(v.cell_bytes));
  } else if (v.cell_bytes > 0) {
    *out +=
        fmt::format("  cell     {} B per token per rank from the model (the log has no KV line)\n",
                    WithThousands(v.cell_bytes));
  }
  AppendSteps(v, out);
  AppendCheck(s.check, out);
  if (!s.what_if) return;
  std::string what;
  for (const auto& [flag, value] : o.sets) what += (what.empty() ? "" : " ") + flag + "=" + value;
  *out += fmt::format("\nWhat if {} (same measured memory)\n", what);
  AppendSteps(*s.what_if, out);
}

void AppendVllmWhatIf(const VllmWhatIf& w, double kv_gib, std::string* out) {
  const VllmReplanVerdict& v = w.verdict;
  *out +=
      fmt::format("\nWhat if {}={}: kv = {:.2f} GiB ({:+.2f} GiB){}\n", w.flag, w.value, v.kv_gib,
                  v.kv_gib - kv_gib, v.ok ? "" : fmt::format(" -> fails: \"{}\"", v.error));
  if (!v.tokens || *v.tokens <= 0) return;
  *out += fmt::format("  {} KV tokens", WithThousands(*v.tokens));
  if (w.max_model_len) {
    *out += *v.tokens >= *w.max_model_len
                ? fmt::format(": enough for max_model_len {}", WithThousands(*w.max_model_len))
                : fmt::format(": still short of max_model_len {}", WithThousands(*w.max_model_len));
  }
  *out += "\n";
}

void AppendVllmTokensCheck(const VllmExplain& e, std::string* out) {
  std::string diff = fmt::format(
      "kvplan {} tokens, the log {} ({:+.3f} %)", WithThousands(e.verdict.tokens.value_or(0)),
      WithThousands(e.logged_tokens.value_or(0)), 100 * e.tokens_relative);
  *out += e.matches
              ? "  check: the cell and blocks match the logged tokens within 0.5 %: " + diff + "\n"
              : "  check: MISMATCH in the tokens: " + diff +
                    ". \"Available KV cache memory\" is one worker's while the tokens are the "
                    "min over workers, or kvplan's cell is wrong\n";
}

void AppendVllmFixes(const VllmExplain& e, std::string* out) {
  if (e.fixes.empty()) return;
  *out += fmt::format("\nFixes (from {}; each alone)\n", e.fixes_from);
  TextTable t({"flag", "value", "effect"});
  for (const Fix& f : e.fixes) t.AddRow({f.flag, f.value, f.effect});
  *out += t.Render();
}

void AppendVllm(const VllmExplain& e, std::string* out) {
  *out += "\nKV budget from the log (vLLM)\n";
  for (const auto& [key, value] : e.figures) {
    *out += fmt::format("  {:<24} {}\n", key, FormatFigure(value));
  }
  if (e.logged_kv_gib_for_cell && e.logged_tokens_for_cell) {
    double kv = *e.logged_kv_gib_for_cell, tokens = *e.logged_tokens_for_cell;
    *out += fmt::format(
        "  implied KV bytes per token (all layers, per rank): {} = {:.2f} GiB / {} tokens\n",
        WithThousands(std::llround(kv * static_cast<double>(kGiB) / tokens)), kv,
        WithThousands(static_cast<int64_t>(tokens)));
  }
  if (!e.unavailable.empty()) {
    *out += WrapText("  (not re-planned: " + e.unavailable + ")", 4);
    AppendVllmFixes(e, out);
    return;
  }
  *out += "\nKV budget re-planned from the log's measured terms (kvplan's vLLM model)\n";
  for (const std::string& note : e.inputs) *out += "  input    " + note + "\n";
  const VllmReplanVerdict& v = e.verdict;
  for (const std::string& step : v.steps) *out += "  " + step + "\n";
  *out += e.kv_logged
              ? fmt::format("  => kv = {:.2f} GiB (logged {:.2f})\n", v.kv_gib, e.logged_kv_gib)
              : fmt::format("  => kv = {:.2f} GiB (the log prints no KV budget)\n", v.kv_gib);
  if (v.budget_only) {
    *out += "  verdict: the budget sum only (no model, so no KV tokens to re-plan)\n";
  } else {
    *out +=
        v.ok ? fmt::format("  verdict: starts, {} KV tokens\n", WithThousands(v.tokens.value_or(0)))
             : fmt::format("  verdict: fails: \"{}\"\n", v.error);
  }
  if (e.kv_only) {
    AppendVllmTokensCheck(e, out);
  } else {
    *out += !e.kv_logged ? "  check: none: the log stops before its KV budget\n"
            : e.matches  ? "  check: matches kvplan's model (within the log's rounding)\n"
                        : "  check: MISMATCH with kvplan's model: an era kvplan does not model, or "
                          "kvplan is wrong\n";
  }
  for (const VllmWhatIf& w : e.what_ifs) AppendVllmWhatIf(w, v.kv_gib, out);
  AppendVllmFixes(e, out);
}

void AppendTrtllm(const TrtllmExplain& e, std::string* out) {
  *out += "\nKV cache from the log (TensorRT-LLM)\n";
  for (const auto& [key, value] : e.figures) {
    *out += fmt::format("  {:<28} {}\n", key, FormatFigure(value));
  }
  if (e.bytes_per_token) {
    *out += fmt::format(
        "  implied KV bytes per token (all layers, per rank): {} = {} / {} tokens\n",
        WithThousands(*e.bytes_per_token), FormatGiB(*e.kv_bytes), WithThousands(*e.logged_tokens));
  }
  if (e.block_tokens) {
    std::string against = !e.logged_tokens                      ? ""
                          : *e.block_tokens == *e.logged_tokens ? ": the logged max tokens"
                                                                : ": NOT the logged max tokens";
    *out += fmt::format("  blocks: primary blocks x tokens per block = {} tokens{}\n",
                        WithThousands(*e.block_tokens), against);
  }
  if (e.implied_free_gib) {
    *out += WrapText(fmt::format("  at the default fraction 0.9, the pool implies {:.2f} GiB free "
                                 "at KV sizing",
                                 *e.implied_free_gib),
                     4);
  }
  if (!e.unavailable.empty()) {
    *out += WrapText("  (not re-planned: " + e.unavailable + ")", 4);
    return;
  }
  *out += "\nKV budget re-planned from the log's free memory (kvplan's TensorRT-LLM model)\n";
  for (const std::string& step : e.steps) *out += WrapText("  " + step, 4);
  std::string diff =
      fmt::format("kvplan {} tokens, the log {} ({:+.3f} %)", WithThousands(e.tokens.value_or(0)),
                  WithThousands(e.logged_tokens.value_or(0)), 100 * e.relative);
  *out += WrapText(std::fabs(e.relative) <= 0.005
                       ? "  check: the budget rule matches the logged tokens within 0.5 %: " + diff
                       : "  check: MISMATCH: " + diff +
                             " (a fraction other than the default, or a pool for a draft model)",
                   4);
}

void AppendNotesAndTraceback(const RunRecord& r, std::string* out) {
  if (!r.notes.empty()) {
    *out += "\nNotes\n";
    for (const std::string& n : r.notes) *out += "  " + n + "\n";
  }
  if (!r.traceback.empty() && r.outcome == "failed") {
    *out += fmt::format("\nTraceback (last lines of {})\n", r.traceback.size());
    size_t from = r.traceback.size() > 4 ? r.traceback.size() - 4 : 0;
    for (size_t i = from; i < r.traceback.size(); ++i) *out += "  " + r.traceback[i] + "\n";
    *out += "  " + r.error + "\n";
  }
}

}  // namespace

std::string RenderExplainText(const ExplainResult& e) {
  std::string out;
  AppendHeader(e, &out);
  AppendSettings(e, &out);
  AppendTimeline(e, &out);
  AppendPools(e, &out);
  if (e.sglang) AppendSglang(*e.sglang, e.options, &out);
  if (e.vllm) AppendVllm(*e.vllm, &out);
  if (e.trtllm) AppendTrtllm(*e.trtllm, &out);
  AppendDecodeSection(e, &out);
  AppendNotesAndTraceback(e.run, &out);
  return FitToColumns(out);
}

}  // namespace kvplan
