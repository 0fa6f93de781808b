// `kvplan compare` for people: one row per engine and the line on the difference.
#include <fmt/core.h>

#include "base/format.h"
#include "base/units.h"
#include "catalog/gpu.h"
#include "kvplan/render.h"
#include "report/compare_words.h"

namespace kvplan {

std::string RenderCompareText(const CompareResult& c) {
  const CompareRequest& o = c.request;
  std::string out =
      fmt::format("kvplan compare: {} on {}x {} (tensor parallel {}), context {} tokens\n\n",
                  o.model, o.tp, GpuLabel(o.gpu), o.tp, WithThousands(c.context_length));
  TextTable t({"ENGINE", "BUDGET RULE", "KV BUDGET", "WEIGHTS/GPU", "KV B/TOKEN", "KV TOKENS",
               "CONCURRENCY", "STATUS"});
  for (const CompareRow& r : c.rows) {
    if (!r.plan) {
      t.AddRow({CompareEngineName(r.engine), "-", "-", "-", "-", "-", "-", "not planned"});
      continue;
    }
    const PlanResult& p = *r.plan;
    t.AddRow({fmt::format("{} {}", CompareEngineName(r.engine), p.engine_version), BudgetRule(p),
              FormatGiB(p.rest_memory_bytes), FormatGiB(p.weights_bytes_per_gpu),
              WithThousands(p.cell_size_bytes), WithThousands(p.max_total_num_tokens),
              fmt::format("{:.2f}x", CompareConcurrency(p)), p.ok ? "starts" : "fails"});
  }
  out += t.Render();
  for (const CompareRow& r : c.rows) {
    if (!r.error.empty()) out += fmt::format("\n  {}: {}", CompareEngineName(r.engine), r.error);
    if (r.plan && !r.plan->ok) {
      out += fmt::format("\n  {} fails: {}", CompareEngineName(r.engine), r.plan->error_message);
    }
  }
  out += "\n\n" + CompareDifference(c.rows) + "\n";
  return out;
}

}  // namespace kvplan
