// PLACEHOLDER: `kvplan plan`.
#include "cli/verbs.h"

namespace kvplan::cli {
void RegisterPlanVerb(CLI::App& app) { app.add_subcommand("plan", "Plan a launch"); }
}  // namespace kvplan::cli
