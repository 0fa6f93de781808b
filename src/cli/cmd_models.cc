// PLACEHOLDER: `kvplan models`, replaced by the models work.
#include "cli/verbs.h"

namespace kvplan::cli {
void RegisterModelsVerb(CLI::App& app) {
  app.add_subcommand("models", "List the bundled model catalog");
}
}  // namespace kvplan::cli
