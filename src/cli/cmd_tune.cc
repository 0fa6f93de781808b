// `kvplan tune`: placeholder until the search lands.
#include "cli/verbs.h"

namespace kvplan::cli {
void RegisterTuneVerb(CLI::App& app) { app.add_subcommand("tune", "Search launch settings"); }
}  // namespace kvplan::cli
