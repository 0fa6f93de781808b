// `kvplan tune` under a load and an SLA, for people: the GPU counts tried,
// the best launches at the fewest GPUs with their commands and simulated
// figures, and what each memory setting does to the best one under the load.
#include <iterator>

#include <fmt/format.h>

#include "base/text.h"
#include "report/fit_columns.h"
#include "report/perf_assumed.h"
#include "report/sizing_outcome.h"
#include "report/tune_outcome.h"

namespace kvplan {
namespace {

std::string SizingLoadText(const WorkloadSpec& w) {
  auto lengths = [](const char* name, const LengthSpec& l) {
    return l.dist == "fixed" ? fmt::format("{} {}", name, l.mean)
                             : fmt::format("{} {} {} (spread {})", name, l.dist, l.mean, l.spread);
  };
  if (!w.trace.empty()) return fmt::format("trace {}{}", w.trace, DescribePrefixes(w));
  std::string s = fmt::format("{} req/s {}", *w.rate, w.arrival);
  if (w.num_requests) s += fmt::format(", {} requests", WithThousands(*w.num_requests));
  if (w.duration_s) s += fmt::format(" for {} s", *w.duration_s);
  return fmt::format("{}, {}, {}{}", s, lengths("input", w.input), lengths("output", w.output),
                     DescribePrefixes(w));
}

std::string SizingSlaText(const SizingRequest& r) {
  std::string s;
  if (r.ttft_p90_ms) s += fmt::format("p90 TTFT <= {} ms", *r.ttft_p90_ms);
  if (r.tpot_p90_ms) s += fmt::format("{}p90 TPOT <= {} ms", s.empty() ? "" : ", ", *r.tpot_p90_ms);
  return s;
}

void PrintCounts(std::string& out, const SizingReport& rep) {
  out += fmt::format("\n{:>6} {:>10} {:>10} {:>13}\n", "GPUs", "searched", "simulated",
                     "meet the SLA");
  for (const SizingCount& c : rep.counts) {
    out += fmt::format("{:>6} {:>10} {:>10} {:>13}\n", c.gpus, c.proposed, c.simulated, c.met);
  }
}

std::string LayoutText(const TuneCandidate& c) {
  std::string s = fmt::format("tp{}", c.tp);
  if (c.replicas > 1) s += fmt::format(" x{} replicas", c.replicas);
  if (c.ep > 1) s += fmt::format(" ep{}", c.ep);
  if (c.dp_attention) s += " dp-attn";
  return s;
}

bool SameOutcome(const SizedLaunch& a, const SizedLaunch& b) {
  const SizingFigures &x = a.figures, &y = b.figures;
  return x.ttft_p90_ms == y.ttft_p90_ms && x.tpot_p90_ms == y.tpot_p90_ms &&
         x.e2e_p90_ms == y.e2e_p90_ms && x.goodput_req_s == y.goodput_req_s &&
         x.kv_tokens == y.kv_tokens && a.candidate.c.tp == b.candidate.c.tp &&
         a.candidate.c.replicas == b.candidate.c.replicas && a.candidate.c.ep == b.candidate.c.ep &&
         a.candidate.c.dp_attention == b.candidate.c.dp_attention &&
         a.candidate.c.kv_fp8 == b.candidate.c.kv_fp8;
}

void PrintWinners(std::string& out, const SizingReport& rep, int top) {
  fmt::format_to(std::back_inserter(out), "\nBEST LAUNCHES ON {} GPU{} (simulated)\n", rep.gpus,
                 rep.gpus == 1 ? "" : "S");
  fmt::format_to(std::back_inserter(out), "{:>3} {:>9} {:>9} {:>9} {:>8} {:>7} {:>8} {:>10}  {}\n",
                 "#", "TTFT p90", "TPOT p90", "E2E p90", "tok/s", "req/s", "goodput", "KV tokens",
                 "layout");
  int i = 0;
  const SizedLaunch* prev = nullptr;
  for (const SizedLaunch& w : rep.winners) {
    // Launches that differ only in a setting that changes nothing under this
    // load (a chunk size above the prompts, a graph size the batches never
    // reach) are shown once: the first, with the smallest such setting.
    if (prev != nullptr && SameOutcome(*prev, w)) continue;
    prev = &w;
    if (++i > top) break;
    const SizingFigures& f = w.figures;
    fmt::format_to(std::back_inserter(out),
                   "{:>3} {:>9.1f} {:>9.2f} {:>9.0f} {:>8.0f} {:>7.2f} {:>8.2f} {:>10}  {}\n", i,
                   f.ttft_p90_ms, f.tpot_p90_ms, f.e2e_p90_ms, f.output_tok_s, f.req_s,
                   f.goodput_req_s, f.kv_tokens, LayoutText(w.candidate.c));
    out += WrapCommand(w.command, 4);
  }
}

void PrintVariants(std::string& out, const SizingReport& rep) {
  out += "\nMEMORY SETTINGS UNDER THIS LOAD (launch #1, one setting changed; * = its own)\n";
  fmt::format_to(std::back_inserter(out), "  {:<20} {:>9} {:>10} {:>9} {:>9} {:>8} {:>8}  {}\n",
                 "setting", "value", "KV tokens", "TTFT p90", "TPOT p90", "tok/s", "goodput",
                 "SLA");
  for (const SizingVariant& v : rep.variants) {
    const SizingFigures& f = v.figures;
    const std::string value = fmt::format("{}{}", v.value, v.is_winner ? " *" : "  ");
    if (!f.starts) {
      out += WrapText(fmt::format("  {:<20} {:>9} does not start: {}", v.setting, value, f.why), 4);
      continue;
    }
    fmt::format_to(std::back_inserter(out),
                   "  {:<20} {:>9} {:>10} {:>9.1f} {:>9.2f} {:>8.0f} {:>8.2f}  {}\n", v.setting,
                   value, f.kv_tokens, f.ttft_p90_ms, f.tpot_p90_ms, f.output_tok_s,
                   f.goodput_req_s, f.meets ? "met" : "missed");
  }
}

void PrintSpecBreakEven(std::string& out, const SpecBreakEven& b) {
  out += "\nSPECULATIVE DECODING ON LAUNCH #1 (closed loop at each concurrency)\n";
  if (!b.why_not.empty()) {
    out += WrapText("  not compared: " + b.why_not, 4);
    return;
  }
  out += WrapText("  " + b.speculative + " against none", 4);
  fmt::format_to(std::back_inserter(out), "  {:>11} {:>11} {:>11} {:>10} {:>10}\n", "concurrency",
                 "plain tok/s", "spec tok/s", "plain TPOT", "spec TPOT");
  for (const SpecPoint& p : b.points) {
    fmt::format_to(std::back_inserter(out), "  {:>11} {:>11.0f} {:>11.0f} {:>10.2f} {:>10.2f}\n",
                   p.concurrency, p.plain_tok_s, p.spec_tok_s, p.plain_tpot_ms, p.spec_tpot_ms);
  }
  out += b.stops_paying_at > 0
             ? fmt::format("  speculation stops paying at concurrency {}\n", b.stops_paying_at)
             : fmt::format("  speculation pays at every concurrency up to {}\n",
                           b.points.empty() ? 0 : b.points.back().concurrency);
}

}  // namespace

std::string RenderSizingText(const SizingOutcome& o, int top) {
  const SizingRequest& req = o.request;
  const SizingReport& rep = o.report;
  std::string out;
  out += WrapText(fmt::format("{} on up to {} x {}: {}", req.tune.model.id, req.tune.gpus,
                              req.tune.gpu.id, SizingLoadText(req.load)),
                  2);
  out += fmt::format("SLA: {}\n", SizingSlaText(req));
  PrintCounts(out, rep);
  if (!rep.winners.empty()) {
    PrintWinners(out, rep, top);
    PrintVariants(out, rep);
    PrintSpecBreakEven(out, rep.spec);
  }
  out += "\ngoodput: requests per second that met the SLA (DistServe's definition)\n";
  const std::string assumed = RenderAssumedText(o.assumed);
  if (!assumed.empty()) out.append("\n").append(assumed);
  out += '\n';
  out += RenderNotesText(rep.notes);
  return FitToColumns(out);
}

}  // namespace kvplan
