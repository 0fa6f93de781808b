// `kvplan compare`: SGLang, vLLM and TensorRT-LLM side by side for the same
// model, GPU, tensor parallelism and context length, each with its own default
// memory knob, and one line on where the difference in KV capacity comes from.
#include <cstdio>
#include <memory>

#include "cli/gpu_flags.h"
#include "cli/verbs.h"
#include "kvplan/compare.h"
#include "kvplan/render.h"

namespace kvplan::cli {
namespace {

struct CompareOptions {
  CompareRequest request;
  bool json = false;
};

void RunCompare(const CompareOptions& o) {
  const CompareResult r = CompareEngines(o.request);
  std::fputs((o.json ? RenderCompareJson(r) + "\n" : RenderCompareText(r)).c_str(), stdout);
}

}  // namespace

void RegisterCompareVerb(Command& app) {
  auto o = std::make_shared<CompareOptions>();
  Command* cmd = app.add_subcommand(
      "compare",
      "SGLang, vLLM and TensorRT-LLM side by side on the same GPUs: the KV budget each takes,\n"
      "weights, KV bytes per token, KV tokens and concurrency, and why they differ.");
  cmd->add_option("--model", o->request.model, "Model: catalog id, config.json or model dir")
      ->required();
  AddGpuOption(cmd, &o->request.gpu, /*required=*/true);
  AddGpuCapacityOption(cmd, &o->request.gpu_capacity_mib);
  cmd->add_option("--tp", o->request.tp, "Tensor parallel size (default 1)");
  cmd->add_option("--context-length", o->request.context_length,
                  "Context length for every engine (default: the model's)");
  cmd->add_option("--engine", o->request.engines,
                  "An engine's release, NAME@VERSION (sglang@0.5.6, vllm@0.11.0, trtllm@1.0.0); "
                  "repeatable; default: the newest each");
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->callback([o] { RunCompare(*o); });
}

}  // namespace kvplan::cli
