// `kvplan explain LOG`: a run's memory accounting rebuilt from its log.
#include <string>
#include <vector>

#include <fmt/core.h>

#include "catalog/gpu.h"
#include "cli/verbs.h"
#include "explain/default_rule.h"
#include "explain/explain_report.h"
#include "explain/log_file.h"

namespace kvplan::cli {

void RegisterExplainVerb(Command& app) {
  auto* cmd = app.add_subcommand(
      "explain", "Rebuild a run's memory accounting from its start-up log and check it");
  auto path = std::make_shared<std::string>();
  auto sets = std::make_shared<std::vector<std::string>>();
  auto launch = std::make_shared<int>(0);
  auto json = std::make_shared<bool>(false);
  auto gpu = std::make_shared<std::string>();
  cmd->add_option("log", *path, "SGLang or vLLM start-up log")->required();
  cmd->add_option("--set", *sets,
                  "re-plan with FLAG=VALUE from the run's measured memory, e.g. "
                  "--set mem-fraction-static=0.55 (repeatable)");
  cmd->add_option("--launch", *launch,
                  "which launch of a log holding several (1-based; "
                  "default: the last)");
  cmd->add_flag("--json", *json, "print JSON");
  cmd->add_option("--gpu", *gpu,
                  "the GPU the run used, when the log has no nvidia-smi table (for the "
                  "default-rule provenance of mem_fraction_static and the decode prediction)");
  cmd->callback([path, sets, launch, json, gpu] {
    LoadedLog log = LoadLog(*path);
    RunRecord run = PickLaunch(log, *path, *launch);
    if (!gpu->empty()) {
      const GpuSpec& g = FindGpu(*gpu);
      if (run.gpu_name.empty()) {
        run.gpu_name = g.name;
        run.gpu_capacity_mib = g.capacity_mib;
      }
      ApplyDefaultRuleProvenance(&run, g.capacity_mib);
    }
    ExplainOptions options;
    for (const std::string& s : *sets) options.sets.push_back(ParseSet(s));
    if (*json) {
      fmt::print("{}\n", DumpJson(ExplainJson(run, options), 2));
    } else {
      fmt::print("{}", ExplainText(run, *path, static_cast<int>(log.runs.size()), options));
    }
  });
}

}  // namespace kvplan::cli
