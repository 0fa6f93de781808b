// `kvplan compare` for people: one row per engine and the line on the difference.
#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "catalog/gpu.h"
#include "kvplan/render.h"
#include "report/compare_words.h"
#include "report/fit_columns.h"

namespace kvplan {

std::string RenderCompareText(const CompareResult& c) {
  const CompareRequest& o = c.request;
  std::string out =
      fmt::format("kvplan compare: {} on {}x {} (TP {}), context {} tokens{}\n\n", o.model, o.tp,
                  GpuLabel(o.gpu, o.gpu_capacity_mib), o.tp, WithThousands(c.context_length),
                  // A default is said as one (issue 11 item 4): no --context-length given.
                  o.context_length > 0 ? "" : " (the model's)");
  // The budget rules are prose: a table of their own, so the figures stay in 100 columns.
  TextTable t(
      {"ENGINE", "KV BUDGET", "WEIGHTS/GPU", "KV B/TOKEN", "KV TOKENS", "CONCURRENCY", "STATUS"});
  TextTable rules({"ENGINE", "KV BUDGET RULE"});
  for (const CompareRow& r : c.rows) {
    if (!r.plan) {
      t.AddRow({CompareEngineName(r.engine), "-", "-", "-", "-", "-", "not planned"});
      continue;
    }
    const PlanResult& p = *r.plan;
    const std::string engine = fmt::format("{} {}", CompareEngineName(r.engine), p.engine_version);
    t.AddRow({engine, FormatGiB(p.rest_memory_bytes), FormatGiB(p.weights_bytes_per_gpu),
              WithThousands(p.cell_size_bytes), WithThousands(p.max_total_num_tokens),
              fmt::format("{:.2f}x", CompareConcurrency(p)), p.ok ? "starts" : "fails"});
    rules.AddRow({engine, BudgetRule(p)});
  }
  out += t.Render();
  out += '\n';
  out += rules.Render();
  for (const CompareRow& r : c.rows) {
    if (!r.error.empty()) {
      out += '\n';
      out += WrapText(fmt::format("  {}: {}", CompareEngineName(r.engine), r.error), 4);
    }
    if (r.plan && !r.plan->ok) {
      out += '\n';
      out += WrapText(
          fmt::format("  {} fails: {}", CompareEngineName(r.engine), r.plan->error_message), 4);
    }
  }
  out += '\n';
  out += WrapText(CompareDifference(c.rows), 0);
  // A release kvplan chose is said as one: which rows, and the flag that picks another.
  std::string chosen;
  for (const CompareRow& r : c.rows) {
    if (r.release_given || !r.plan) continue;
    chosen += fmt::format("{}{} {}", chosen.empty() ? "" : ", ", CompareEngineName(r.engine),
                          r.plan->engine_version);
  }
  if (!chosen.empty()) {
    out += '\n';
    out += WrapText(fmt::format("Releases: {} are the newest kvplan models; --engine "
                                "NAME@VERSION (repeatable) plans yours.",
                                chosen),
                    0);
  }
  return FitToColumns(out);
}

}  // namespace kvplan
