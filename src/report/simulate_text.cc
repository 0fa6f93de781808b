// `kvplan simulate` for people, and its per-request CSV.
#include <iterator>

#include <fmt/format.h>

#include "base/text.h"
#include "kvplan/simulate.h"
#include "report/fit_columns.h"
#include "report/perf_assumed.h"
#include "report/simulate_assumed.h"

namespace kvplan {

std::vector<Assumption> SimulateAssumptions(const SimulateResult& r) {
  std::vector<Assumption> out;
  for (const SimulateAssumed& a : r.assumed) out.push_back({a.key, {}, a.value, a.unit, a.why});
  return out;
}

namespace {

std::string LatencyRow(const char* name, const LatencyStats& s) {
  return fmt::format("  {:<10}{:>12.2f}{:>12.2f}{:>12.2f}{:>12.2f}\n", name, s.mean, s.p50, s.p90,
                     s.p99);
}

std::string Header(const SimulateResult& r) {
  std::string out;
  out += WrapText(fmt::format("{} on {} x{}, {} {}", r.launch.model, r.launch.gpu, r.launch.gpus,
                              r.engine, r.engine_version),
                  2);
  out += WrapText("Workload: " + r.workload, 2);
  const std::string ranks =
      r.dp_ranks > 1 ? fmt::format(" per DP attention rank ({} ranks)", r.dp_ranks) : "";
  out += WrapText(
      fmt::format("KV cache{}: {} tokens (page {}), at most {} running, {} {} tokens; CUDA graphs "
                  "up to batch {}",
                  ranks, WithThousands(r.kv_tokens), r.page_size,
                  WithThousands(r.max_running_requests),
                  r.engine == "vllm" ? "max_num_batched_tokens" : "chunked_prefill_size",
                  WithThousands(r.token_budget), r.cuda_graph_batch),
      2);
  if (!r.speculative.empty()) {
    out += WrapText(fmt::format("Speculative: {}, {:.2f} tokens accepted a step on average",
                                r.speculative, r.accept_length),
                    2);
  }
  return out;
}

std::string PrefixCacheLine(const SimulateResult& r) {
  if (!r.prefix_caching) {
    return fmt::format("Prefix cache: off ({}), no prompt token hit\n",
                       r.engine == "vllm" ? "--no-enable-prefix-caching" : "--disable-radix-cache");
  }
  return WrapText(fmt::format("Prefix cache: {:.1f} % of prompt tokens hit ({} of {}, {})",
                              100.0 * r.prefix_cache_hit_rate, WithThousands(r.prefix_hit_tokens),
                              WithThousands(r.prefix_query_tokens),
                              r.engine == "vllm" ? "vLLM prefix caching, whole blocks"
                                                 : "SGLang radix cache, whole pages"),
                  2);
}

}  // namespace

std::string RenderSimulateText(const SimulateResult& r) {
  std::string out = Header(r);
  out += fmt::format("\n  {:<10}{:>12}{:>12}{:>12}{:>12}\n", "ms", "mean", "p50", "p90", "p99");
  out += LatencyRow("TTFT", r.ttft_ms);
  out += LatencyRow("TPOT", r.tpot_ms);
  out += LatencyRow("ITL", r.itl_ms);
  out += LatencyRow("E2E", r.e2e_ms);
  out += '\n';
  out += fmt::format("Throughput: {:.1f} output tok/s, {:.1f} total tok/s, {:.3f} req/s\n",
                     r.output_tok_s, r.total_tok_s, r.req_s);
  out += WrapText(fmt::format("Completed {} requests in {:.2f} s ({} steps); {} {}; peak KV use "
                              "{:.1f} %",
                              WithThousands(r.completed), r.duration_s, WithThousands(r.steps),
                              r.engine == "vllm" ? "preemptions" : "retractions",
                              WithThousands(r.preemptions), 100.0 * r.peak_kv_utilization),
                  2);
  if (r.prefix_workload) out += PrefixCacheLine(r);
  const std::string assumed = RenderAssumedText(SimulateAssumptions(r));
  if (!assumed.empty()) {
    out += '\n';
    out += assumed;
  }
  if (!r.notes.empty()) {
    out += '\n';
    out += RenderNotesText(r.notes);
  }
  return FitToColumns(out);
}

std::string SimulateCsvHeader() {
  return "id,arrival_ms,input_tokens,output_tokens,ttft_ms,tpot_ms,e2e_ms,preemptions\n";
}

std::string SimulateCsvRow(const RequestOutcome& o) {
  return fmt::format("{},{:.3f},{},{},{:.3f},{:.3f},{:.3f},{}\n", o.id, o.arrival_ms,
                     o.input_tokens, o.output_tokens, o.ttft_ms, o.tpot_ms, o.e2e_ms,
                     o.preemptions);
}

}  // namespace kvplan
