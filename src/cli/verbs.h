// The kvplan verbs. Each verb lives in its own cmd_<verb>.cc and registers a
// CLI11 subcommand; main.cc only wires them together and maps errors to exit
// codes. Verbs throw InputError for bad input.
#pragma once

#include "cli/command.h"

namespace kvplan::cli {

void RegisterPlanVerb(Command& app);
void RegisterModelsVerb(Command& app);
void RegisterGpusVerb(Command& app);
void RegisterCompareVerb(Command& app);
void RegisterExplainVerb(Command& app);
void RegisterDiffVerb(Command& app);
void RegisterIngestVerb(Command& app);
void RegisterRunsVerb(Command& app);
void RegisterPerfVerb(Command& app);
void RegisterTuneVerb(Command& app);
void RegisterSimulateVerb(Command& app);

}  // namespace kvplan::cli
