// `kvplan explain`'s decode section: what the run measured while decoding,
// the speculative acceptance, and kvplan's prediction beside it.
#include <algorithm>
#include <vector>

#include <fmt/core.h>

#include "base/format.h"

#include "logs/decode_summary.h"
#include "report/explain_render.h"

namespace kvplan {
namespace {

void AppendBatches(const DecodeSummary& d, std::string* out) {
  const DecodeBatchFigures* common = d.MostCommon();
  if (common == nullptr) {
    *out += "  no busy report (every one says 0 tok/s or 0 running requests)\n";
    return;
  }
  std::vector<const DecodeBatchFigures*> rows = {common};
  if (const DecodeBatchFigures* one = d.Batch(1); one != nullptr && one != common) {
    rows.push_back(one);
  }
  for (const DecodeBatchFigures& b : d.batches) {
    if (rows.size() >= 4) break;
    if (std::find(rows.begin(), rows.end(), &b) == rows.end()) rows.push_back(&b);
  }
  for (const DecodeBatchFigures* b : rows) {
    std::string accept =
        b->mean_accept_len ? fmt::format(", accept length {:.2f}", *b->mean_accept_len) : "";
    *out += fmt::format("  at {:<22} median {:>8.1f} tok/s over {} report{}{}{}\n",
                        RunningRequests(b->running_reqs), b->median_tok_s, b->samples,
                        b->samples == 1 ? "" : "s", b == common ? " (most common)" : "", accept);
  }
}

void AppendSpeculation(const ExplainResult& e, std::string* out) {
  const DecodeSummary& d = e.run.decode;
  const std::string& spec = e.speculation;
  if (!d.mean_accept_len && spec.empty()) return;
  std::string line = "  speculation  " + (spec.empty() ? "(not in the args)" : spec);
  if (d.mean_accept_len) line += fmt::format(", mean accept length {:.2f}", *d.mean_accept_len);
  if (d.mean_accept_rate) line += fmt::format(" (accept rate {:.2f})", *d.mean_accept_rate);
  if (!d.mean_accept_len) line += ", no accept length in the reports";
  *out += line + "\n";
  if (!d.per_position_acceptance.empty()) {
    std::string rates;
    for (double p : d.per_position_acceptance)
      rates += fmt::format("{}{:.3f}", rates.empty() ? "" : ", ", p);
    *out += "  per-position acceptance  " + rates + "\n";
  }
  if (e.nothing_accepted_cause) {
    *out += fmt::format(
        "  WARNING: no draft token is accepted (mean accept length {:.2f}; 1.00 is the target's "
        "own token alone): every draft step is wasted work.\n           {}\n",
        *d.mean_accept_len, *e.nothing_accepted_cause);
  }
}

void AppendPrediction(const DecodePrediction& p, std::string* out) {
  if (!p.why_not.empty()) {
    *out += "  kvplan predicts nothing: " + p.why_not + "\n";
    return;
  }
  for (const DecodePredictionRow& row : p.rows) {
    *out += fmt::format("  kvplan predicts {:>8.1f} tok/s at {} (measured {:.1f}: {:+.0f} %)\n",
                        row.predicted_tok_s, RunningRequests(row.running_reqs), row.measured_tok_s,
                        (row.measured_tok_s / row.predicted_tok_s - 1) * 100);
  }
  std::string inputs;
  for (const std::string& i : p.inputs) inputs += (inputs.empty() ? "" : ", ") + i;
  // The hint on a line of its own: wrapped after the inputs, it would split the command.
  *out += WrapText("  (" + inputs + ")", 3);
  *out += "  calibrate with kvplan perf --kernel-us / --memory-efficiency\n";
}

}  // namespace

std::string RunningRequests(int64_t n) {
  return fmt::format("{} running request{}", n, n == 1 ? "" : "s");
}

void AppendDecodeSection(const ExplainResult& e, std::string* out) {
  const DecodeSummary& d = e.run.decode;
  if (d.empty()) return;
  std::string whose = d.rank.empty() ? "" : " of " + d.rank;
  std::string idle = d.idle > 0 ? fmt::format("; {} idle left out", d.idle) : "";
  *out += fmt::format("\nDecode, measured ({} report{}{}, lines {}-{}{})\n", d.samples,
                      d.samples == 1 ? "" : "s", whose, d.first_line, d.last_line, idle);
  AppendBatches(d, out);
  AppendSpeculation(e, out);
  if (std::optional<double> off = d.GraphOffShare()) {
    *out += fmt::format("  CUDA graph   off in {} of {} busy reports ({:.0f}%)\n", d.graph_off,
                        d.graph_reports, *off * 100);
  }
  if (d.capped) {
    *out += fmt::format("  (more than {} reports: the medians are over the first ones)\n",
                        DecodeSummarizer::kMaxKeptSamples);
  }
  if (e.decode_prediction) AppendPrediction(*e.decode_prediction, out);
}

}  // namespace kvplan
