// kvplan: predicts what an LLM-serving launch does with GPU memory.
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "cli/cli_state.h"
#include "cli/verbs.h"
#include "util/error.h"

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
  CLI::App app{
      "kvplan: what an SGLang, vLLM or TensorRT-LLM launch will do with GPU memory,\n"
      "before you launch it, and why a launch failed after it did."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "kvplan 0.1.0");
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
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    if (argc > 1 && app.get_subcommands().empty() && argv[1][0] != '-') {
      std::string verbs;
      for (const CLI::App* sub : app.get_subcommands({})) {
        verbs += (verbs.empty() ? "" : ", ") + sub->get_name();
      }
      fmt::print(stderr, "kvplan: error: unknown verb '{}' (expected one of: {})\n", argv[1],
                 verbs);
    } else {
      fmt::print(stderr, "kvplan: error: {}\n", e.what());
    }
    return kvplan::kExitBadInput;
  } catch (const kvplan::InputError& e) {
    fmt::print(stderr, "kvplan: error: {}\n", e.what());
    return kvplan::kExitBadInput;
  } catch (const std::exception& e) {
    fmt::print(stderr, "kvplan: internal error: {}\n", e.what());
    return 1;
  }
  return 0;
}
