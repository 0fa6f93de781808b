// `kvplan plan`: one launch, planned with the engine's own rules.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <fmt/core.h>

#include "cli/cli_state.h"
#include "cli/gpu_flags.h"
#include "cli/launch_command.h"
#include "cli/verbs.h"
#include "kvplan/error.h"
#include "kvplan/plan.h"
#include "kvplan/render.h"

namespace kvplan::cli {
namespace {

struct PlanOptions {
  std::string model;
  std::string gpu;
  std::string engine = "sglang";
  std::optional<int64_t> gpu_capacity_mib;
  double pre_load_free_gib = 0;
  double post_load_free_gib = 0;
  std::vector<std::string> measured;
  std::vector<std::string> env;
  bool json = false;
};

// --env K=V: as if the launch had been given K=V in its environment.
std::vector<std::string> EnvWords(const std::vector<std::string>& env, const std::string& engine) {
  std::vector<std::string> out;
  const std::string prefix = EngineEnvPrefix(engine);
  for (const std::string& kv : env) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos || eq == 0) {
      throw InputError(fmt::format("--env '{}' is not NAME=VALUE (e.g. VLLM_USE_V1=0)", kv));
    }
    if (prefix.empty() || kv.rfind(prefix, 0) != 0) {
      throw InputError(
          fmt::format("--env {}: the {} planner reads no such variable{}", kv.substr(0, eq), engine,
                      prefix.empty() ? "" : fmt::format(" (it reads {}* variables)", prefix)));
    }
    out.push_back(kv);
  }
  return out;
}

std::pair<std::string, double> ParseMeasured(const std::string& kv) {
  const size_t eq = kv.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw InputError(fmt::format("--measured '{}' is not KEY=GIB (e.g. weights=72.3)", kv));
  }
  const std::string value = kv.substr(eq + 1);
  char* end = nullptr;
  const double v = std::strtod(value.c_str(), &end);
  if (value.empty() || end != value.c_str() + value.size() || !std::isfinite(v)) {
    throw InputError(fmt::format("--measured '{}': '{}' is not a number of GiB", kv, value));
  }
  return {kv.substr(0, eq), v};
}

void RunPlan(const PlanOptions& o, Command* cmd) {
  PlanRequest req;
  auto [engine, version] = SplitEngineSpec(o.engine);
  req.engine = engine;
  req.version = version;
  req.args = cmd->remaining();
  if (!LaunchTail().empty()) {
    ApplyPastedLaunch(LaunchTail(), cmd->count("--engine") > 0 ? engine : "", &req);
  }
  for (const std::string& word : EnvWords(o.env, req.engine)) req.args.push_back(word);
  if (!o.model.empty()) req.model = o.model;
  req.gpu = o.gpu;
  req.gpu_capacity_mib = o.gpu_capacity_mib;  // its bounds are the catalog's (FindGpu)
  if (cmd->count("--pre-load-free-gib") > 0)
    req.measured_gib["pre_load_free"] = o.pre_load_free_gib;
  if (cmd->count("--post-load-free-gib") > 0)
    req.measured_gib["post_load_free"] = o.post_load_free_gib;
  for (const std::string& kv : o.measured) {
    auto [key, value] = ParseMeasured(kv);
    req.measured_gib[key] = value;
  }
  const PlanResult r = PlanLaunch(req);
  const PlanContext ctx = PlanContextOf(req, r);
  std::fputs((o.json ? RenderPlanJson(r, ctx) + "\n" : RenderPlanText(r, ctx)).c_str(), stdout);
}

}  // namespace

void RegisterPlanVerb(Command& app) {
  auto o = std::make_shared<PlanOptions>();
  Command* cmd = app.add_subcommand(
      "plan",
      "Plan one launch: will it fit, how many KV-cache tokens and requests, and fixes.\n"
      "Engine flags go after kvplan's own, with the engine's names (e.g. --tp 8\n"
      "--mem-fraction-static 0.55), or paste the whole launch command after `--`:\n"
      "  kvplan plan --gpu h100 -- python -m sglang.launch_server --model-path M --tp 8");
  cmd->add_option("--model", o->model,
                  "Model: catalog id (kvplan models), config.json, model dir or HF cache dir");
  AddGpuOption(cmd, &o->gpu, /*required=*/true);
  cmd->add_option("--engine", o->engine,
                  "Engine and release: sglang[@VERSION], vllm[@VERSION], trtllm[@VERSION] "
                  "(default: sglang, newest modelled release)");
  AddGpuCapacityOption(cmd, &o->gpu_capacity_mib);
  cmd->add_option("--pre-load-free-gib", o->pre_load_free_gib,
                  "Free GiB the engine measured before loading weights (from a log)");
  cmd->add_option("--post-load-free-gib", o->post_load_free_gib,
                  "Free GiB the engine measured after loading weights (from a log)");
  cmd->add_option("--measured", o->measured,
                  "Other measured figures, KEY=GIB (vLLM: weights, activation_peak, non_torch, "
                  "cuda_graph)");
  cmd->add_option("--env", o->env,
                  "The launch's environment, NAME=VALUE (e.g. VLLM_USE_V1=0, "
                  "SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=1)");
  cmd->add_flag("--json", o->json, "Print JSON (schema in README.md)");
  cmd->allow_extras();
  cmd->callback([o, cmd] { RunPlan(*o, cmd); });
}

}  // namespace kvplan::cli
