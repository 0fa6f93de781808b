// `kvplan perf` for people (text) and spreadsheets (CSV).
#include <iterator>

#include <fmt/format.h>

#include "base/units.h"
#include "kvplan/render.h"
#include "perf/perf_report.h"
#include "perf/published_collectives.h"
#include "perf/published_decode.h"
#include "report/fit_columns.h"
#include "report/perf_assumed.h"

namespace kvplan {

std::string RenderPerfCsv(const PerfReport& p) {
  std::string out;
  auto it = std::back_inserter(out);
  const bool spec = !p.spec.empty();
  fmt::format_to(it, "table,batch_or_prompt,cuda_graph,tpot_or_ttft_ms,tokens_per_s,comm_share{}\n",
                 spec ? ",spec_tpot_ms,spec_tokens_per_s,spec_speedup" : "");
  for (const DecodeRow& r : p.decode) {
    fmt::format_to(it, "decode,{},{},{:.4f},{:.2f},{:.4f}", r.batch, r.cuda_graph ? 1 : 0,
                   r.tpot_ms, r.tokens_per_s, r.comm_share);
    if (spec)
      fmt::format_to(it, ",{:.4f},{:.2f},{:.4f}", r.spec_tpot_ms, r.spec_tokens_per_s,
                     r.spec_speedup);
    fmt::format_to(it, "\n");
  }
  for (const PrefillRow& r : p.prefill) {
    fmt::format_to(it, "prefill,{},0,{:.4f},,{:.4f}{}\n", r.prompt, r.ttft_ms, r.comm_share,
                   spec ? ",,," : "");
  }
  return out;
}

namespace {

// The launch, its allreduce, graphs and speculation, each wrapped to 100 columns.
std::string PerfHeader(const PerfReport& p) {
  std::string out;
  // The launch on one line, its layout on the next: together they pass 100 columns.
  out +=
      WrapText(fmt::format("{} on {} x{} ({})", p.model_id, p.gpu_id,
                           p.par.tp * p.par.pp * (p.par.dp_attention ? 1 : p.par.dp), p.topology),
               2);
  out += fmt::format("TP {} PP {} DP {} EP {}{}, context {} tokens\n", p.par.tp, p.par.pp, p.par.dp,
                     p.par.ep, p.par.dp_attention ? " (DP attention)" : "", p.context);
  out += WrapText(fmt::format("allreduce per layer at batch 1: {}", p.allreduce), 2);
  if (p.cuda_graph_max_bs == 0) {
    out += "CUDA graphs: disabled, every decode step runs eagerly\n";
  } else {
    out += WrapText(fmt::format("CUDA graphs: {} captured up to batch {} (cuda_graph_max_bs {}), "
                                "~{:.2f} GiB per rank",
                                p.cuda_graphs, p.largest_graphed_batch, p.cuda_graph_max_bs,
                                ToGiB(p.cuda_graph_bytes)),
                    2);
  }
  if (!p.spec.empty()) {
    out += WrapText(
        fmt::format("speculative: {}, acceptance length {:.2f}; draft weights + graphs ~{:.2f} GiB "
                    "per rank, draft KV {} B per token per rank",
                    p.spec, p.accept_length, ToGiB(p.spec_extra_bytes), p.spec_kv_bytes_per_token),
        2);
  }
  return out;
}

void DecodeTable(const PerfReport& p, std::string* out) {
  auto it = std::back_inserter(*out);
  const bool spec = !p.spec.empty();
  fmt::format_to(it, "DECODE {:>5} {:>5} {:>8} {:>9} {:>5} {:>5}", "batch", "graph", "TPOT ms",
                 "tok/s", "comm", "colls");
  if (spec)
    fmt::format_to(it, " {:>12} {:>10} {:>7} {:>11}", "spec TPOT ms", "spec tok/s", "speedup",
                   "verify comm");
  fmt::format_to(it, "\n");
  for (const DecodeRow& r : p.decode) {
    fmt::format_to(it, "       {:>5} {:>5} {:>8.2f} {:>9.1f} {:>4.0f}% {:>5}", r.batch,
                   r.cuda_graph ? "yes" : "no", r.tpot_ms, r.tokens_per_s, r.comm_share * 100,
                   r.collectives);
    if (spec) {
      fmt::format_to(it, " {:>12.2f} {:>10.1f} {:>6.2f}x {:>10.0f}%", r.spec_tpot_ms,
                     r.spec_tokens_per_s, r.spec_speedup, r.spec_verify_comm_share * 100);
    }
    fmt::format_to(it, "\n");
  }
}

}  // namespace

std::string RenderPerfText(const PerfReport& p) {
  std::string out = PerfHeader(p);
  const std::string assumed = RenderAssumedText(p.assumed);
  if (!assumed.empty()) out.append("\n").append(assumed);
  out += "\n";
  DecodeTable(p, &out);
  auto it = std::back_inserter(out);
  fmt::format_to(it, "\nPREFILL {:>8} {:>10} {:>7}\n", "prompt", "TTFT ms", "comm");
  for (const PrefillRow& r : p.prefill) {
    fmt::format_to(it, "        {:>8} {:>10.1f} {:>6.0f}%\n", r.prompt, r.ttft_ms,
                   r.comm_share * 100);
  }
  if (!p.notes.empty()) out.append("\n").append(RenderNotesText(p.notes));
  out += '\n';
  out += WrapText(
      "Model: roofline with efficiency factors (docs/perf-validation.md); collectives from "
      "NCCL's cost model.",
      2);
  return FitToColumns(out);
}

std::string RenderPerfValidation() {
  return fmt::format("Collectives\n\n{}\nDecode, one stream\n\n{}", PublishedCollectivesTable(),
                     PublishedDecodeTable());
}

}  // namespace kvplan
