// `kvplan ingest`'s text, one log at a time.
#include <fmt/core.h>

#include "kvplan/history.h"

namespace kvplan {
namespace {

std::string Describe(const RunRecord& r) {
  std::string what = r.engine.empty() ? "unknown engine" : r.engine;
  if (!r.model.empty()) what += " " + r.model;
  what += ", " + r.outcome;
  if (r.outcome == "failed") what += ": " + r.error.substr(0, 100);
  return what;
}

}  // namespace

std::string RenderIngestedLogText(const IngestedLog& log) {
  if (log.outcome.already_present) {
    return fmt::format("{}: already ingested (same content, {}...)\n", log.path,
                       log.content_hash.substr(0, 12));
  }
  int n = log.outcome.runs_stored;
  std::string out = fmt::format("{}: {} run{} stored\n", log.path, n, n == 1 ? "" : "s");
  for (const RunRecord& r : log.runs) {
    out += fmt::format("  launch {}: {}\n", r.launch_index + 1, Describe(r));
  }
  return out;
}

}  // namespace kvplan
