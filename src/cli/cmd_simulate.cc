// `kvplan simulate`: a request-level serving simulation of one launch, on the
// planner's KV capacity and limits, the engine's scheduler and the
// performance model's step times.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "cli/cli_state.h"
#include "cli/efficiency_flags.h"
#include "cli/gpu_flags.h"
#include "cli/launch_command.h"
#include "cli/verbs.h"
#include "cli/workload_flags.h"
#include "kvplan/error.h"
#include "kvplan/simulate.h"

namespace kvplan::cli {
namespace {

struct SimulateOptions {
  SimulateQuery query;
  std::string model, gpu, engine = "sglang", csv;
  std::optional<int64_t> gpu_capacity_mib;
  int tp = 1;
  bool json = false;
};

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

// The launch as `kvplan plan` takes it: the engine's own flags after kvplan's (--tp given in
// the engine's own name), or a pasted launch command after `--`, which those flags refine.
PlanRequest LaunchOf(const SimulateOptions& o, Command* cmd) {
  const bool pasted = !LaunchTail().empty();
  if ((o.model.empty() && !pasted) || o.gpu.empty()) {
    throw InputError(
        "kvplan simulate needs --gpu, and --model or a pasted launch command after --");
  }
  PlanRequest req;
  auto [engine, version] = SplitEngineSpec(o.engine);
  req.engine = engine;
  req.version = version;
  if (!o.model.empty()) req.model = o.model;
  req.gpu = o.gpu;
  req.gpu_capacity_mib = o.gpu_capacity_mib;
  if (cmd->count("--tp") > 0) {
    req.args = {engine == "vllm" ? "--tensor-parallel-size" : "--tp-size", std::to_string(o.tp)};
  }
  for (const std::string& a : cmd->remaining()) req.args.push_back(a);
  if (pasted) ApplyPastedLaunch(LaunchTail(), cmd->count("--engine") > 0 ? engine : "", &req);
  return req;
}

void Run(SimulateOptions& o, Command* cmd) {
  CheckWorkloadBounds(o.query.workload);
  o.query.launch = LaunchOf(o, cmd);
  std::unique_ptr<std::FILE, FileCloser> csv;
  if (!o.csv.empty()) {
    csv.reset(std::fopen(o.csv.c_str(), "w"));
    if (!csv) throw InputError(fmt::format("--csv {}: {}", o.csv, std::strerror(errno)));
    std::fputs(SimulateCsvHeader().c_str(), csv.get());
    std::FILE* f = csv.get();
    o.query.on_request = [f](const RequestOutcome& r) { std::fputs(SimulateCsvRow(r).c_str(), f); };
  }
  SimulateResult r;
  try {
    r = Simulate(o.query);
  } catch (const SimulateLaunchFails& e) {
    std::fprintf(stderr, "kvplan simulate: the launch does not start: %s\n", e.what());
    throw VerbExitCode{1};
  }
  std::fputs((o.json ? RenderSimulateJson(r) + "\n" : RenderSimulateText(r)).c_str(), stdout);
}

}  // namespace

void RegisterSimulateVerb(Command& app) {
  Command* cmd = app.add_subcommand(
      "simulate",
      "Serve a workload on a launch: TTFT, TPOT, ITL, E2E and throughput, on the planner's KV\n"
      "capacity and limits and the engine's scheduler. Engine flags go after kvplan's own:\n"
      "  kvplan simulate --model M --gpu h100 --engine vllm --concurrency 16 --max-num-seqs 64");
  auto o = std::make_shared<SimulateOptions>();
  cmd->add_option("--model", o->model, "Model id, config.json or model directory");
  AddGpuOption(cmd, &o->gpu, /*required=*/false);
  AddGpuCapacityOption(cmd, &o->gpu_capacity_mib);
  cmd->add_option("--engine", o->engine,
                  "Engine and release: sglang[@VERSION] (default) or vllm[@VERSION]");
  cmd->add_option("--tp,--tp-size", o->tp, "Tensor parallel size");
  AddWorkloadOptions(cmd, &o->query.workload, /*closed_loop=*/true);
  AddEfficiencyOptions(cmd, &o->query.eff);
  AddCalibrationOptions(cmd, &o->query.calib);
  cmd->add_option("--accept-length", o->query.accept_length,
                  "Speculative decoding: mean accepted tokens per step, incl. the bonus token "
                  "(default: kvplan perf's for the draft)");
  cmd->add_flag("--spec-v2", o->query.spec_v2,
                "SGLang: SGLANG_ENABLE_SPEC_V2=1 (speculation keeps the overlap scheduler)");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_option("--csv", o->csv, "Write one CSV row per finished request to FILE");
  cmd->allow_extras();
  cmd->callback([o, cmd] { Run(*o, cmd); });
}

}  // namespace kvplan::cli
