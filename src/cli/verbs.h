// The kvplan verbs. Each verb lives in its own cmd_<verb>.cc and registers a
// CLI11 subcommand; main.cc only wires them together and maps errors to exit
// codes. Verbs throw InputError for bad input.
#pragma once

#include <CLI/CLI.hpp>

namespace kvplan::cli {

void RegisterPlanVerb(CLI::App& app);
void RegisterModelsVerb(CLI::App& app);
void RegisterGpusVerb(CLI::App& app);
void RegisterCompareVerb(CLI::App& app);
void RegisterExplainVerb(CLI::App& app);
void RegisterDiffVerb(CLI::App& app);
void RegisterIngestVerb(CLI::App& app);
void RegisterRunsVerb(CLI::App& app);
void RegisterPerfVerb(CLI::App& app);
void RegisterTuneVerb(CLI::App& app);

}  // namespace kvplan::cli
