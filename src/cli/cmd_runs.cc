// `kvplan runs`: the run history, newest last.
#include <string>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "kvplan/history.h"

namespace kvplan::cli {

void RegisterRunsVerb(Command& app) {
  auto* cmd = app.add_subcommand("runs", "List the run history");
  auto filter = std::make_shared<RunFilter>();
  auto db = std::make_shared<std::string>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--model", filter->model, "only runs whose model contains this text");
  cmd->add_flag("--failed", filter->failed_only, "only failed runs");
  cmd->add_flag("--json", *json, "print JSON");
  cmd->add_option("--db", *db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->callback([filter, db, json] {
    filter->table_only = !*json;  // the table needs a few figures, JSON the whole record
    if (!*json) {
      fmt::print("{}", RenderHistoryText(ListHistory(*db, *filter)));
      return;
    }
    // Run by run as SQLite reads them: a 10,000-run store is not held whole.
    bool first = true;
    ForEachHistoryRun(*db, *filter, [&first](const StoredRun& run) {
      fmt::print("{}", RenderHistoryJsonRun(run, first));
      first = false;
    });
    fmt::print("{}", RenderHistoryJsonEnd(!first));
  });
}

}  // namespace kvplan::cli
