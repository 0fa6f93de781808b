// `kvplan perf` for people (text) and spreadsheets (CSV).
#include <iterator>

#include <fmt/format.h>

#include "base/units.h"
#include "kvplan/render.h"
#include "perf/perf_report.h"
#include "perf/published_collectives.h"
#include "perf/published_decode.h"

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

std::string RenderPerfText(const PerfReport& p) {
  std::string out;
  auto it = std::back_inserter(out);
  fmt::format_to(it, "{} on {} x{} ({}), TP {} PP {} DP {} EP {}{}, context {} tokens\n",
                 p.model_id, p.gpu_id, p.par.tp * p.par.pp * (p.par.dp_attention ? 1 : p.par.dp),
                 p.topology, p.par.tp, p.par.pp, p.par.dp, p.par.ep,
                 p.par.dp_attention ? " (DP attention)" : "", p.context);
  fmt::format_to(it, "allreduce per layer at batch 1: {}\n", p.allreduce);
  fmt::format_to(it, "CUDA graphs: {} captured up to batch {}, ~{:.2f} GiB per rank\n\n",
                 p.cuda_graphs, p.cuda_graph_max_bs, ToGiB(p.cuda_graph_bytes));
  const bool spec = !p.spec.empty();
  if (spec) {
    fmt::format_to(
        it,
        "speculative: {}, acceptance length {:.2f}; draft weights + graphs ~{:.2f} GiB per rank, "
        "draft KV {} B per token per rank\n",
        p.spec, p.accept_length, ToGiB(p.spec_extra_bytes), p.spec_kv_bytes_per_token);
  }
  fmt::format_to(it, "DECODE  {:>6} {:>6} {:>10} {:>11} {:>7} {:>6}", "batch", "graph", "TPOT ms",
                 "tok/s", "comm", "colls");
  if (spec)
    fmt::format_to(it, " {:>12} {:>11} {:>8} {:>12}", "spec TPOT ms", "spec tok/s", "speedup",
                   "verify comm");
  fmt::format_to(it, "\n");
  for (const DecodeRow& r : p.decode) {
    fmt::format_to(it, "        {:>6} {:>6} {:>10.2f} {:>11.1f} {:>6.0f}% {:>6}", r.batch,
                   r.cuda_graph ? "yes" : "no", r.tpot_ms, r.tokens_per_s, r.comm_share * 100,
                   r.collectives);
    if (spec) {
      fmt::format_to(it, " {:>12.2f} {:>11.1f} {:>7.2f}x {:>11.0f}%", r.spec_tpot_ms,
                     r.spec_tokens_per_s, r.spec_speedup, r.spec_verify_comm_share * 100);
    }
    fmt::format_to(it, "\n");
  }
  fmt::format_to(it, "\nPREFILL {:>8} {:>10} {:>7}\n", "prompt", "TTFT ms", "comm");
  for (const PrefillRow& r : p.prefill) {
    fmt::format_to(it, "        {:>8} {:>10.1f} {:>6.0f}%\n", r.prompt, r.ttft_ms,
                   r.comm_share * 100);
  }
  for (const std::string& n : p.notes) fmt::format_to(it, "\nnote: {}", n);
  fmt::format_to(
      it,
      "\nModel: roofline with efficiency factors (docs/perf-validation.md); collectives from "
      "NCCL's cost model.\n");
  return out;
}

std::string RenderPerfValidation() {
  return fmt::format("Collectives\n\n{}\nDecode, one stream\n\n{}", PublishedCollectivesTable(),
                     PublishedDecodeTable());
}

}  // namespace kvplan
