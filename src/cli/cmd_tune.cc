// `kvplan tune`: search SGLang launch settings for a model on N GPUs and
// print the ranked list and the throughput/latency Pareto front, each with
// the launch command to copy.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "cli/efficiency_flags.h"
#include "cli/gpu_flags.h"
#include "cli/verbs.h"
#include "cli/workload_flags.h"
#include "kvplan/error.h"
#include "kvplan/perf.h"
#include "kvplan/render.h"
#include "kvplan/tune.h"

namespace kvplan::cli {
namespace {

struct TuneOptions {
  TuneQuery query;
  SizingQuery sizing;  // with --rate or --trace: the load and the SLA
  int top = 10;
  bool json = false, no_progress = false;
};

void ProgressBar(int64_t done, int64_t total) {
  constexpr int kWidth = 30;
  const int filled = total > 0 ? static_cast<int>(kWidth * done / total) : kWidth;
  fmt::print(stderr, "\r[{}{}] {:3d}% {}/{}", std::string(filled, '#'),
             std::string(kWidth - filled, ' '),
             total > 0 ? static_cast<int>(100 * done / total) : 100, done / 3, total / 3);
  if (done >= total) fmt::print(stderr, "\n");
  std::fflush(stderr);
}

// With a load (--rate or --trace): the fewest GPUs that meet the SLA.
void RunSizing(const TuneOptions& o) {
  CheckWorkloadBounds(o.sizing.load);
  SizingQuery q = o.sizing;
  q.tune = o.query;
  const std::shared_ptr<const SizingOutcome> outcome = SizeDeployment(q);
  const std::string text =
      o.json ? RenderSizingJson(*outcome) + "\n" : RenderSizingText(*outcome, o.top);
  std::fputs(text.c_str(), stdout);
}

void Run(const TuneOptions& o) {
  if (o.top < 1) throw InputError("--top must be at least 1");
  if (o.sizing.load.rate || !o.sizing.load.trace.empty()) return RunSizing(o);
  if (o.sizing.ttft_p90_ms || o.sizing.tpot_p90_ms) {
    throw InputError(
        "--ttft-p90-ms and --tpot-p90-ms size a deployment under a load: add --rate R "
        "or --trace FILE");
  }
  const SimCalibrationOverrides& c = o.sizing.calib;
  if (c.decode_scale || c.step_fixed_us || c.admission_us) {
    throw InputError(
        "--calib-decode-scale, --calib-step-us and --calib-admission-us set the simulator's "
        "factors for sizing under a load: add --rate R or --trace FILE");
  }
  const bool bar = !o.no_progress && isatty(fileno(stderr));
  const std::shared_ptr<const TuneOutcome> outcome =
      SearchLaunchSettings(o.query, bar ? ProgressBar : TuneProgress{});
  const std::string text =
      o.json ? RenderTuneJson(*outcome) + "\n" : RenderTuneText(*outcome, o.top);
  std::fputs(text.c_str(), stdout);
}

// The load of sizing (as `kvplan simulate` takes it) and its SLA.
void AddSizingOptions(Command* cmd, SizingQuery* q) {
  AddWorkloadOptions(cmd, &q->load, /*closed_loop=*/false);
  cmd->add_option("--ttft-p90-ms", q->ttft_p90_ms, "SLA: p90 time to first token");
  cmd->add_option("--tpot-p90-ms", q->tpot_p90_ms, "SLA: p90 time per output token");
  AddCalibrationOptions(cmd, &q->calib);
}

}  // namespace

void RegisterTuneVerb(Command& app) {
  Command* cmd = app.add_subcommand(
      "tune", "Search SGLang launch settings: ranked list and throughput/latency Pareto front");
  auto o = std::make_shared<TuneOptions>();
  cmd->add_option("--model", o->query.model, "Model id, config.json or model directory");
  AddGpuOption(cmd, &o->query.gpu, /*required=*/false);
  AddGpuCapacityOption(cmd, &o->query.gpu_capacity_mib);
  cmd->add_option("--gpus", o->query.gpus, "GPUs in the node (default 8, said in the output)");
  cmd->add_option("--topology", o->query.topology,
                  "nvswitch, nvlink-pairs, pcie-switch, pcie-dual-socket or pcie-no-p2p");
  cmd->add_option("--context", o->query.context,
                  "Tokens per request (prompt + output) in the KV cache (default " +
                      std::to_string(kDefaultContextTokens) + ")");
  cmd->add_option("--prompt", o->query.prompt, "Prompt length for TTFT (default: context / 2)");
  cmd->add_option("--concurrency", o->query.concurrency, "Requests that must run at once");
  cmd->add_option("--ttft-ms", o->query.ttft_ms, "Time-to-first-token limit");
  cmd->add_option("--tpot-ms", o->query.tpot_ms, "Time-per-output-token limit");
  cmd->add_option("--speculative-draft-model-path,--draft-model", o->query.draft,
                  "EAGLE-3 draft to include speculative settings");
  cmd->add_option("--accept-length", o->query.accept_length, "Mean accepted tokens per iteration");
  cmd->add_option(
      "--engine", o->query.engine,
      "Engine and release: sglang[@VERSION] (default: sglang, newest modelled release)");
  cmd->add_option("--attention-backend", o->query.attention_backend,
                  "SGLang --attention-backend for every candidate (default: SGLang's choice)");
  cmd->add_flag("--spec-v2", o->query.spec_v2,
                "Speculative candidates run with SGLANG_ENABLE_SPEC_V2=1 (overlap scheduler on)");
  cmd->add_option("--threads", o->query.threads, "Worker threads (default: all cores)");
  cmd->add_option("--top", o->top, "Rows to print per table");
  AddSizingOptions(cmd, &o->sizing);
  AddEfficiencyOptions(cmd, &o->query.eff);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--no-progress", o->no_progress, "No progress bar on stderr");
  cmd->callback([o] { Run(*o); });
}

}  // namespace kvplan::cli
