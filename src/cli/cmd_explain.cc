// `kvplan explain LOG`: a run's memory accounting rebuilt from its log.
#include <string>
#include <vector>

#include <fmt/core.h>

#include "cli/gpu_flags.h"
#include "cli/verbs.h"
#include "kvplan/explain.h"

namespace kvplan::cli {

void RegisterExplainVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "explain", "Rebuild a run's memory accounting from its start-up log and check it");
  auto request = std::make_shared<ExplainRequest>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("log", request->log_path, "SGLang or vLLM start-up log")->required();
  cmd->add_option("--set", request->sets,
                  "re-plan with FLAG=VALUE from the run's measured memory, e.g. "
                  "--set mem-fraction-static=0.55 (repeatable)");
  cmd->add_option("--launch", request->launch,
                  "which launch of a log holding several (1-based; "
                  "default: the last)");
  cmd->add_flag("--json", *json, "print JSON");
  AddGpuOption(cmd, &request->gpu, /*required=*/false,
               "the GPU the run used (id, alias or FILE.json), when the log names none or one "
               "kvplan cannot tell (for the re-plan, the default-rule provenance of "
               "mem_fraction_static and the decode prediction)");
  AddGpuCapacityOption(cmd, &request->gpu_capacity_mib);
  cmd->callback([request, json] {
    ExplainResult result = ExplainLog(*request);
    fmt::print("{}", *json ? RenderExplainJson(result) : RenderExplainText(result));
  });
}

}  // namespace kvplan::cli
