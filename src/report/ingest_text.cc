// `kvplan ingest`'s text, one log at a time.
#include <fmt/core.h>

#include "kvplan/history.h"
#include "report/fit_columns.h"

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
  if (!log.error.empty()) return fmt::format("{}: not ingested: {}\n", log.path, log.error);
  if (log.outcome.already_present) {
    return fmt::format("{}: already ingested (same content, {}...)\n", log.path,
                       log.content_hash.substr(0, 12));
  }
  int n = log.outcome.runs_stored;
  std::string out;
  if (!log.outcome.grown_from.empty()) {
    int u = log.outcome.runs_updated;
    out = fmt::format("{}: grown since ingested as {}: {} run{} updated, {} stored\n", log.path,
                      log.outcome.grown_from, u, u == 1 ? "" : "s", n);
  } else {
    out = fmt::format("{}: {} run{} stored\n", log.path, n, n == 1 ? "" : "s");
  }
  for (const RunRecord& r : log.runs) {
    out += fmt::format("  launch {}: {}\n", r.launch_index + 1, Describe(r));
  }
  return FitToColumns(out);
}

std::string RenderOpenedStoreText(const OpenedStore& store) {
  return store.created ? fmt::format("created new run store {}\n", store.db_path) : "";
}

std::string RenderStoreWarningText(const OpenedStore& store) {
  if (store.network_fs.empty()) return "";
  return fmt::format(
      "warning: run store {} is on a network filesystem ({}), where SQLite's file locks are not "
      "reliable: ingests running at once may corrupt it; keep it on a local disk (--db)\n",
      store.db_path, store.network_fs);
}

}  // namespace kvplan
