// kvplan: predicts what an LLM-serving launch does with GPU memory.
#include <string_view>

#include "cli/cli_state.h"
#include "cli/command.h"
#include "cli/verbs.h"

int main(int argc, char** argv) {
  // Everything after a standalone `--` is a pasted engine launch command;
  // CLI11 would try to parse it as kvplan's own arguments.
  for (int i = 1; i < argc; ++i) {
    if (std::string_view(argv[i]) == "--") {
      kvplan::cli::LaunchTail().assign(argv + i + 1, argv + argc);
      argc = i;
      break;
    }
  }
  return kvplan::cli::RunCommandLine(
      argc, argv,
      "kvplan: what an SGLang, vLLM or TensorRT-LLM launch will do with GPU memory,\n"
      "before you launch it, and why a launch failed after it did.",
      "kvplan 0.1.0", [](kvplan::cli::Command& app) {
        kvplan::cli::RegisterPlanVerb(app);
        kvplan::cli::RegisterModelsVerb(app);
        kvplan::cli::RegisterGpusVerb(app);
        kvplan::cli::RegisterCompareVerb(app);
        kvplan::cli::RegisterExplainVerb(app);
        kvplan::cli::RegisterDiffVerb(app);
        kvplan::cli::RegisterIngestVerb(app);
        kvplan::cli::RegisterRunsVerb(app);
        kvplan::cli::RegisterPerfVerb(app);
        kvplan::cli::RegisterTuneVerb(app);
        kvplan::cli::RegisterSimulateVerb(app);
      });
}
