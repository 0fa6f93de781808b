// PLACEHOLDER: `kvplan gpus`, replaced by the GPU catalog work.
#include "cli/verbs.h"

namespace kvplan::cli {
void RegisterGpusVerb(CLI::App& app) { app.add_subcommand("gpus", "List the GPU catalog"); }
}  // namespace kvplan::cli
