// PLACEHOLDER: `kvplan models` and `kvplan gpus`, replaced by the catalog work.
#include "cli/verbs.h"

namespace kvplan::cli {
void RegisterModelsVerb(CLI::App& app) { app.add_subcommand("models", "List the bundled model catalog"); }
void RegisterGpusVerb(CLI::App& app) { app.add_subcommand("gpus", "List the GPU catalog"); }
}  // namespace kvplan::cli
