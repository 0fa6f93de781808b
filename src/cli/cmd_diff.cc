// `kvplan diff A.log B.log` and `kvplan diff --last-good LOG`.
#include <string>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "kvplan/diff.h"

namespace kvplan::cli {

void RegisterDiffVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "diff", "What differs between two launches, the differences that matter first");
  auto request = std::make_shared<DiffRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("logs", request->logs, "A.log B.log, or one LOG with --last-good");
  cmd->add_flag("--last-good", request->last_good,
                "compare LOG with the most recent successful run of the same model and "
                "hardware in the run history");
  cmd->add_option("--db", request->db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->add_flag("--json", *json, "print JSON");
  cmd->callback([request, json] {
    DiffResult diff = DiffLogs(*request);
    fmt::print("{}", *json ? RenderDiffJson(diff) : RenderDiffText(diff));
  });
}

}  // namespace kvplan::cli
