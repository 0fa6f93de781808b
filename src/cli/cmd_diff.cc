// `kvplan diff A.log B.log` and `kvplan diff --last-good LOG`.
#include <string>

#include <fmt/core.h>

#include "cli/verbs.h"
#include "explain/log_file.h"
#include "explain/run_diff.h"
#include "kvplan/error.h"
#include "store/run_store.h"

namespace kvplan::cli {

void RegisterDiffVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "diff", "What differs between two launches, the differences that matter first");
  auto paths = std::make_shared<std::vector<std::string>>();
  auto last_good = std::make_shared<bool>(false);
  auto db = std::make_shared<std::string>();
  cmd->add_option("logs", *paths, "A.log B.log, or one LOG with --last-good");
  cmd->add_flag("--last-good", *last_good,
                "compare LOG with the most recent successful run of the same model and "
                "hardware in the run history");
  cmd->add_option("--db", *db, "run database (default $XDG_DATA_HOME/kvplan/runs.db)");
  cmd->callback([paths, last_good, db] {
    if (*last_good) {
      if (paths->size() != 1) throw InputError("diff --last-good takes exactly one LOG");
      LoadedLog b = LoadLog(paths->front());
      const RunRecord& rb = b.runs.back();
      RunStore store(RunStore::ResolvePath(*db));
      std::optional<StoredRun> good = store.LastGood(rb, b.content_hash);
      if (!good) {
        throw InputError(fmt::format(
            "no successful run of {} on {} (TP as in the log) in the run history {}; ingest one "
            "with `kvplan ingest`",
            rb.model.empty() ? "this model" : rb.model,
            rb.gpu_name.empty() ? "this hardware" : rb.gpu_name, RunStore::ResolvePath(*db)));
      }
      std::string a_name = fmt::format("run {} ({})", good->id, good->log_path);
      fmt::print("{}",
                 DiffText(DiffRuns(good->record, rb), good->record, a_name, rb, paths->front()));
      return;
    }
    if (paths->size() != 2)
      throw InputError("diff takes two logs: A.log B.log (or --last-good LOG)");
    LoadedLog a = LoadLog((*paths)[0]);
    LoadedLog b = LoadLog((*paths)[1]);
    const RunRecord& ra = a.runs.back();
    const RunRecord& rb = b.runs.back();
    fmt::print("{}", DiffText(DiffRuns(ra, rb), ra, (*paths)[0], rb, (*paths)[1]));
  });
}

}  // namespace kvplan::cli
