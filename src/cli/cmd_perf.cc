// `kvplan perf`: the performance model for one launch: decode tokens/s and
// time per output token against batch size, time to first token against
// prompt length, the communication share, and speculative decoding.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/efficiency_flags.h"
#include "cli/gpu_flags.h"
#include "cli/verbs.h"
#include "kvplan/error.h"
#include "kvplan/perf.h"
#include "kvplan/render.h"

namespace kvplan::cli {
namespace {

struct PerfOptions {
  PerfQuery query;
  bool json = false, csv = false, validation = false;
};

std::string Render(const PerfOptions& o) {
  if (o.validation) return RenderPerfValidation();
  if (o.json && o.csv) throw InputError("choose one of --json and --csv");
  const std::shared_ptr<const PerfReport> report = PredictPerf(o.query);
  if (o.json) return RenderPerfJson(*report) + "\n";
  return o.csv ? RenderPerfCsv(*report) : RenderPerfText(*report);
}

void Run(const PerfOptions& o) { std::fputs(Render(o).c_str(), stdout); }

}  // namespace

void RegisterPerfVerb(Command& app) {
  Command* cmd = app.add_subcommand(
      "perf", "Decode tokens/s, TPOT and TTFT of a launch, with communication and speculation");
  auto o = std::make_shared<PerfOptions>();
  cmd->add_option("--model", o->query.model, "Model id, config.json or model directory");
  AddGpuOption(cmd, &o->query.gpu, /*required=*/false);
  AddGpuCapacityOption(cmd, &o->query.gpu_capacity_mib);
  cmd->add_option("--engine", o->query.engine,
                  "Engine and release: sglang[@VERSION] (default: sglang, newest modelled "
                  "release) or vllm[@VERSION] (vLLM's speculative schedule)");
  cmd->add_option("--tp,--tp-size", o->query.tp, "Tensor parallel size");
  cmd->add_option("--pp,--pp-size", o->query.pp, "Pipeline parallel size");
  cmd->add_option("--dp,--dp-size", o->query.dp, "Data parallel size");
  cmd->add_option("--ep,--ep-size", o->query.ep, "Expert parallel size");
  cmd->add_flag("--enable-dp-attention", o->query.dp_attention, "SGLang DP attention");
  cmd->add_option("--topology", o->query.topology,
                  "nvswitch, nvlink-pairs, pcie-switch, pcie-dual-socket or pcie-no-p2p "
                  "(default: from the GPU)");
  cmd->add_option("--allreduce", o->query.allreduce,
                  "auto (engine rule), nccl, or custom (custom allreduce forced on)");
  cmd->add_option("--kv-cache-dtype", o->query.kv_dtype, "auto, fp8_e4m3, fp8_e5m2, bf16");
  cmd->add_option("--context", o->query.context,
                  "Tokens in each request's KV cache while decoding (default " +
                      std::to_string(kDefaultContextTokens) + ")");
  cmd->add_option("--batch-sizes", o->query.batch_sizes, "Decode batch sizes, e.g. 1,2,4,8")
      ->delimiter(',');
  cmd->add_option("--prompt-lengths", o->query.prompt_lengths, "Prompt lengths for TTFT")
      ->delimiter(',');
  cmd->add_option("--cuda-graph-max-bs", o->query.cuda_graph_max_bs,
                  "SGLang --cuda-graph-max-bs (default: the engine's rule for this launch)");
  cmd->add_flag("--disable-cuda-graph", o->query.disable_cuda_graph, "Run every step eagerly");
  cmd->add_option("--chunked-prefill-size", o->query.chunked_prefill_size,
                  "SGLang prefill chunk in tokens (default: the engine's rule for this launch)");
  cmd->add_option("--speculative-algorithm", o->query.spec_algo,
                  "EAGLE, EAGLE3, NEXTN/MTP, STANDALONE");
  cmd->add_option("--speculative-num-steps", o->query.spec_steps, "Draft depth");
  cmd->add_option("--speculative-eagle-topk", o->query.spec_topk, "Branching per draft step");
  cmd->add_option("--speculative-num-draft-tokens", o->query.spec_draft_tokens, "Tokens verified");
  cmd->add_option("--speculative-draft-model-path", o->query.draft_path, "Draft model");
  cmd->add_option("--accept-length", o->query.accept_length,
                  "Mean accepted tokens per iteration incl. the bonus token");
  cmd->add_flag("--spec-v2", o->query.spec_v2,
                "SGLang with SGLANG_ENABLE_SPEC_V2=1 (overlap scheduler kept on with speculation)");
  cmd->add_option("--attention-backend", o->query.attention_backend,
                  "SGLang --attention-backend (default: the engine's choice for the GPU)");
  AddEfficiencyOptions(cmd, &o->query.eff);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--csv", o->csv, "Print CSV");
  cmd->add_flag("--validation", o->validation,
                "Print the predicted-vs-published collective and decode tables and exit");
  cmd->callback([o] { Run(*o); });
}

}  // namespace kvplan::cli
