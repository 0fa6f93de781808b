// `kvplan tune` for people: the ranked list and the Pareto front, each row
// with the command that launches it.
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "base/text.h"
#include "kvplan/render.h"
#include "report/fit_columns.h"
#include "report/perf_assumed.h"
#include "report/tune_outcome.h"

namespace kvplan {

std::string WrapCommand(const std::string& cmd, size_t indent) {
  std::vector<std::string> parts;  // a flag with its value stays on one line
  size_t start = 0;
  for (size_t at = cmd.find(" --"); at != std::string::npos; at = cmd.find(" --", at + 1)) {
    parts.push_back(cmd.substr(start, at - start));
    start = at + 1;
  }
  parts.push_back(cmd.substr(start));
  const std::string pad(indent, ' ');
  std::string out, line = pad;
  for (const std::string& p : parts) {
    const bool first = line.size() == pad.size();
    if (!first && line.size() + 1 + p.size() + 2 > kTextColumns) {
      out += line + " \\\n";
      line = pad;
      line.append("  ").append(p);
    } else {
      line += (first ? "" : " ") + p;
    }
  }
  return out + line + "\n";
}

namespace {

void PrintTable(std::string& out, const char* title, const TuneRequest& req, const TuneSpace& s,
                const std::vector<TuneResult>& rows, int top) {
  fmt::format_to(std::back_inserter(out), "\n{}\n", title);
  fmt::format_to(std::back_inserter(out), "{:>3} {:>10} {:>9} {:>9} {:>7} {:>10} {:>6}  {}\n", "#",
                 "tok/s", "TPOT ms", "TTFT ms", "reqs", "KV tokens", "mfs", "layout");
  int i = 0;
  const TuneResult* prev = nullptr;
  for (const TuneResult& r : rows) {
    // Candidates that differ only in a setting that changes nothing here
    // (e.g. a chunk size above the prompt) are shown once.
    if (prev != nullptr && prev->tokens_per_s == r.tokens_per_s && prev->tpot_ms == r.tpot_ms &&
        prev->ttft_ms == r.ttft_ms && prev->kv_tokens == r.kv_tokens &&
        prev->c.cuda_graph_max_bs == r.c.cuda_graph_max_bs && prev->c.tp == r.c.tp &&
        prev->c.dp_attention == r.c.dp_attention && prev->c.ep == r.c.ep) {
      continue;
    }
    prev = &r;
    if (++i > top) break;
    std::string layout = fmt::format("tp{} pp{}", r.c.tp, r.c.pp);
    if (r.c.replicas > 1) layout += fmt::format(" x{} replicas", r.c.replicas);
    if (r.c.ep > 1) layout += fmt::format(" ep{}", r.c.ep);
    if (r.c.dp_attention) layout += " dp-attn";
    fmt::format_to(std::back_inserter(out),
                   "{:>3} {:>10.0f} {:>9.1f} {:>9.0f} {:>7.0f} {:>10} {:>6.3f}  {}\n", i,
                   r.tokens_per_s, r.tpot_ms, r.ttft_ms, r.batch, r.kv_tokens, r.mfs, layout);
    out += WrapCommand(LaunchCommand(req, s, r), 4);
  }
}

}  // namespace

std::string RenderTuneText(const TuneOutcome& o, int top) {
  const TuneRequest& req = o.request;
  const TuneReport& rep = o.report;
  const TuneSpace& space = o.space;
  std::string out;
  auto it = std::back_inserter(out);
  out += WrapText(
      fmt::format("{} on {} x {} ({}), {} tokens per request{}{}{}", req.model.id, req.gpus,
                  req.gpu.id, TopologyName(req.topology), req.context,
                  req.concurrency > 0 ? fmt::format(", {} concurrent", req.concurrency) : "",
                  req.ttft_ms ? fmt::format(", TTFT <= {} ms", *req.ttft_ms) : "",
                  req.tpot_ms ? fmt::format(", TPOT <= {} ms", *req.tpot_ms) : ""),
      2);
  fmt::format_to(it, "evaluated {} configurations in {:.2f} s ({}/s), {} feasible\n",
                 WithThousands(rep.evaluated), rep.seconds,
                 WithThousands(std::llround(static_cast<double>(rep.evaluated) / rep.seconds)),
                 WithThousands(rep.feasible));
  const std::string assumed = RenderAssumedText(o.assumed);
  if (!assumed.empty()) out.append("\n").append(assumed);
  if (!rep.notes.empty()) out += RenderNotesText(rep.notes);
  if (rep.ranked.empty()) return FitToColumns(out);
  PrintTable(out, "BEST THROUGHPUT", req, space, rep.ranked, top);
  PrintTable(out, "PARETO FRONT (throughput vs time per output token)", req, space, rep.pareto,
             top);
  return FitToColumns(out);
}

}  // namespace kvplan
