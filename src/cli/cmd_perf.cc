// `kvplan perf`: the performance model for one launch: decode tokens/s and
// time per output token against batch size, time to first token against
// prompt length, the communication share, and speculative decoding.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/units.h"
#include "cli/efficiency_flags.h"
#include "cli/verbs.h"
#include "engines/sglang/cell.h"
#include "kvplan/error.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency_options.h"
#include "perf/perf_report.h"
#include "perf/published_collectives.h"
#include "perf/published_decode.h"

namespace kvplan::cli {
namespace {

struct PerfOptions {
  std::string model, gpu, engine = "sglang", topology, allreduce = "auto", kv_dtype = "auto";
  int tp = 1, pp = 1, dp = 1, ep = 1;
  bool dp_attention = false;
  int64_t context = 4096;
  std::vector<int> batch_sizes;
  std::vector<int64_t> prompt_lengths;
  std::optional<int> cuda_graph_max_bs;
  bool disable_cuda_graph = false;
  int chunked_prefill_size = 8192;
  std::string spec_algo, draft_path;
  std::optional<int> spec_steps, spec_topk, spec_draft_tokens;
  std::optional<double> accept_length;
  bool spec_v2 = false;
  std::string attention_backend;
  bool json = false, csv = false, validation = false;
  Efficiency eff;
};

AllreducePolicy ParsePolicy(const std::string& s) {
  if (s == "auto") return AllreducePolicy::kEngineDefault;
  if (s == "nccl") return AllreducePolicy::kNcclOnly;
  if (s == "custom") return AllreducePolicy::kForceCustom;
  throw InputError("--allreduce '" + s + "': expected auto, nccl or custom");
}

PerfRequest BuildRequest(const PerfOptions& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan perf needs --model and --gpu");
  if (o.engine != "sglang" && o.engine != "vllm") {
    throw InputError("--engine '" + o.engine + "': expected sglang or vllm");
  }
  PerfRequest r;
  r.model = LoadModel(o.model);
  r.gpu = FindGpu(o.gpu);
  r.par.tp = o.tp;
  r.par.pp = o.pp;
  r.par.dp = o.dp;
  r.par.ep = o.ep;
  r.par.dp_attention = o.dp_attention;
  r.topology = o.topology.empty() ? DefaultTopology(r.gpu) : ParseTopology(o.topology);
  r.allreduce = ParsePolicy(o.allreduce);
  r.kv_bytes_per_elem = SglangKvElementBytes(o.kv_dtype, r.model);
  r.context = o.context;
  if (!o.batch_sizes.empty()) r.batch_sizes = o.batch_sizes;
  if (!o.prompt_lengths.empty()) r.prompt_lengths = o.prompt_lengths;
  if (o.cuda_graph_max_bs && *o.cuda_graph_max_bs < 0) {
    throw InputError("--cuda-graph-max-bs must be >= 0");
  }
  // Unset: 256, or 48 with speculative decoding, where SGLang caps the running
  // requests at 48 (#4908) and so never replays a larger decode graph.
  const int default_bs = o.spec_algo.empty() ? 256 : 48;
  r.cuda_graph_max_bs = o.disable_cuda_graph ? 0 : o.cuda_graph_max_bs.value_or(default_bs);
  r.chunked_prefill_size = o.chunked_prefill_size;
  const SpecAlgorithm algo = ParseSpecAlgorithm(o.spec_algo);
  r.spec =
      ResolveSglangSpec(algo, r.model.architecture, o.spec_steps, o.spec_topk, o.spec_draft_tokens);
  if (o.accept_length) {
    if (algo == SpecAlgorithm::kNone)
      throw InputError("--accept-length needs --speculative-algorithm");
    if (*o.accept_length < 1.0 || *o.accept_length > r.spec.num_draft_tokens + 1.0) {
      throw InputError(
          fmt::format("--accept-length {} must be between 1 and num_draft_tokens + 1 ({})",
                      *o.accept_length, r.spec.num_draft_tokens + 1));
    }
    r.spec.accept_length = o.accept_length;
  }
  if (!o.draft_path.empty()) r.draft = LoadModel(o.draft_path);
  r.spec_engine = o.engine == "vllm" ? SpecEngine::kVllm : SpecEngine::kSglang;
  r.spec.sglang_spec_v2 = o.spec_v2;
  if (o.spec_v2 && o.engine != "sglang") throw InputError("--spec-v2 is an SGLang setting");
  if (!o.attention_backend.empty() && o.engine != "sglang") {
    throw InputError("--attention-backend is an SGLang setting");
  }
  CheckSglangAttentionBackend(o.attention_backend);
  r.attention_backend = o.attention_backend;
  r.eff = CheckedEfficiency(o.eff);
  return r;
}

nlohmann::json ToJson(const PerfReport& p) {
  nlohmann::json j;
  j["model"] = p.model_id;
  j["gpu"] = p.gpu_id;
  j["topology"] = p.topology;
  j["tp"] = p.par.tp;
  j["pp"] = p.par.pp;
  j["dp"] = p.par.dp;
  j["ep"] = p.par.ep;
  j["enable_dp_attention"] = p.par.dp_attention;
  j["context"] = p.context;
  j["allreduce"] = p.allreduce;
  j["cuda_graph_max_bs"] = p.cuda_graph_max_bs;
  j["cuda_graphs"] = p.cuda_graphs;
  j["cuda_graph_bytes_per_rank"] = p.cuda_graph_bytes;
  if (!p.spec.empty()) {
    j["speculative"] = p.spec;
    j["accept_length"] = p.accept_length;
    j["draft_weights_and_graphs_bytes_per_rank"] = p.spec_extra_bytes;
    j["draft_kv_bytes_per_token_per_rank"] = p.spec_kv_bytes_per_token;
  }
  for (const DecodeRow& r : p.decode) {
    nlohmann::json d = {{"batch", r.batch},           {"cuda_graph", r.cuda_graph},
                        {"tpot_ms", r.tpot_ms},       {"tokens_per_s", r.tokens_per_s},
                        {"comm_share", r.comm_share}, {"collectives_per_step", r.collectives}};
    if (!p.spec.empty()) {
      d["spec_tpot_ms"] = r.spec_tpot_ms;
      d["spec_tokens_per_s"] = r.spec_tokens_per_s;
      d["spec_speedup"] = r.spec_speedup;
      d["spec_verify_comm_share"] = r.spec_verify_comm_share;
    }
    j["decode"].push_back(d);
  }
  for (const PrefillRow& r : p.prefill) {
    j["prefill"].push_back(
        {{"prompt", r.prompt}, {"ttft_ms", r.ttft_ms}, {"comm_share", r.comm_share}});
  }
  j["notes"] = p.notes;
  return j;
}

void PrintCsv(const PerfReport& p) {
  const bool spec = !p.spec.empty();
  fmt::print("table,batch_or_prompt,cuda_graph,tpot_or_ttft_ms,tokens_per_s,comm_share{}\n",
             spec ? ",spec_tpot_ms,spec_tokens_per_s,spec_speedup" : "");
  for (const DecodeRow& r : p.decode) {
    fmt::print("decode,{},{},{:.4f},{:.2f},{:.4f}", r.batch, r.cuda_graph ? 1 : 0, r.tpot_ms,
               r.tokens_per_s, r.comm_share);
    if (spec)
      fmt::print(",{:.4f},{:.2f},{:.4f}", r.spec_tpot_ms, r.spec_tokens_per_s, r.spec_speedup);
    fmt::print("\n");
  }
  for (const PrefillRow& r : p.prefill) {
    fmt::print("prefill,{},0,{:.4f},,{:.4f}{}\n", r.prompt, r.ttft_ms, r.comm_share,
               spec ? ",,," : "");
  }
}

void PrintText(const PerfReport& p) {
  fmt::print("{} on {} x{} ({}), TP {} PP {} DP {} EP {}{}, context {} tokens\n", p.model_id,
             p.gpu_id, p.par.tp * p.par.pp * (p.par.dp_attention ? 1 : p.par.dp), p.topology,
             p.par.tp, p.par.pp, p.par.dp, p.par.ep, p.par.dp_attention ? " (DP attention)" : "",
             p.context);
  fmt::print("allreduce per layer at batch 1: {}\n", p.allreduce);
  fmt::print("CUDA graphs: {} captured up to batch {}, ~{:.2f} GiB per rank\n\n", p.cuda_graphs,
             p.cuda_graph_max_bs, ToGiB(p.cuda_graph_bytes));
  const bool spec = !p.spec.empty();
  if (spec) {
    fmt::print(
        "speculative: {}, acceptance length {:.2f}; draft weights + graphs ~{:.2f} GiB per rank, "
        "draft KV {} B per token per rank\n",
        p.spec, p.accept_length, ToGiB(p.spec_extra_bytes), p.spec_kv_bytes_per_token);
  }
  fmt::print("DECODE  {:>6} {:>6} {:>10} {:>11} {:>7} {:>6}", "batch", "graph", "TPOT ms", "tok/s",
             "comm", "colls");
  if (spec)
    fmt::print(" {:>12} {:>11} {:>8} {:>12}", "spec TPOT ms", "spec tok/s", "speedup",
               "verify comm");
  fmt::print("\n");
  for (const DecodeRow& r : p.decode) {
    fmt::print("        {:>6} {:>6} {:>10.2f} {:>11.1f} {:>6.0f}% {:>6}", r.batch,
               r.cuda_graph ? "yes" : "no", r.tpot_ms, r.tokens_per_s, r.comm_share * 100,
               r.collectives);
    if (spec) {
      fmt::print(" {:>12.2f} {:>11.1f} {:>7.2f}x {:>11.0f}%", r.spec_tpot_ms, r.spec_tokens_per_s,
                 r.spec_speedup, r.spec_verify_comm_share * 100);
    }
    fmt::print("\n");
  }
  fmt::print("\nPREFILL {:>8} {:>10} {:>7}\n", "prompt", "TTFT ms", "comm");
  for (const PrefillRow& r : p.prefill) {
    fmt::print("        {:>8} {:>10.1f} {:>6.0f}%\n", r.prompt, r.ttft_ms, r.comm_share * 100);
  }
  for (const std::string& n : p.notes) fmt::print("\nnote: {}", n);
  fmt::print(
      "\nModel: roofline with efficiency factors (docs/perf-validation.md); collectives from "
      "NCCL's cost model.\n");
}

void Run(const PerfOptions& o) {
  if (o.validation) {
    fmt::print("Collectives\n\n{}\nDecode, one stream\n\n{}", PublishedCollectivesTable(),
               PublishedDecodeTable());
    return;
  }
  if (o.json && o.csv) throw InputError("choose one of --json and --csv");
  const PerfReport report = RunPerf(BuildRequest(o));
  if (o.json) {
    fmt::print("{}\n", ToJson(report).dump(2));
  } else if (o.csv) {
    PrintCsv(report);
  } else {
    PrintText(report);
  }
}

}  // namespace

void RegisterPerfVerb(Command& app) {
  Command* cmd = app.add_subcommand(
      "perf", "Decode tokens/s, TPOT and TTFT of a launch, with communication and speculation");
  auto o = std::make_shared<PerfOptions>();
  cmd->add_option("--model", o->model, "Model id, config.json or model directory");
  cmd->add_option("--gpu", o->gpu, "GPU id from `kvplan gpus`");
  cmd->add_option("--engine", o->engine, "sglang (default) or vllm (speculative schedule)");
  cmd->add_option("--tp,--tp-size", o->tp, "Tensor parallel size");
  cmd->add_option("--pp,--pp-size", o->pp, "Pipeline parallel size");
  cmd->add_option("--dp,--dp-size", o->dp, "Data parallel size");
  cmd->add_option("--ep,--ep-size", o->ep, "Expert parallel size");
  cmd->add_flag("--enable-dp-attention", o->dp_attention, "SGLang DP attention");
  cmd->add_option("--topology", o->topology,
                  "nvswitch, nvlink-pairs, pcie-switch, pcie-dual-socket or pcie-no-p2p "
                  "(default: from the GPU)");
  cmd->add_option("--allreduce", o->allreduce,
                  "auto (engine rule), nccl, or custom (custom allreduce forced on)");
  cmd->add_option("--kv-cache-dtype", o->kv_dtype, "auto, fp8_e4m3, fp8_e5m2, bf16");
  cmd->add_option("--context", o->context, "Tokens in each request's KV cache while decoding");
  cmd->add_option("--batch-sizes", o->batch_sizes, "Decode batch sizes, e.g. 1,2,4,8")
      ->delimiter(',');
  cmd->add_option("--prompt-lengths", o->prompt_lengths, "Prompt lengths for TTFT")->delimiter(',');
  cmd->add_option(
      "--cuda-graph-max-bs", o->cuda_graph_max_bs,
      "Largest decode batch replayed from a CUDA graph (default 256; 48 with speculation)");
  cmd->add_flag("--disable-cuda-graph", o->disable_cuda_graph, "Run every step eagerly");
  cmd->add_option("--chunked-prefill-size", o->chunked_prefill_size, "Prefill chunk (tokens)");
  cmd->add_option("--speculative-algorithm", o->spec_algo, "EAGLE, EAGLE3, NEXTN/MTP, STANDALONE");
  cmd->add_option("--speculative-num-steps", o->spec_steps, "Draft depth");
  cmd->add_option("--speculative-eagle-topk", o->spec_topk, "Branching per draft step");
  cmd->add_option("--speculative-num-draft-tokens", o->spec_draft_tokens, "Tokens verified");
  cmd->add_option("--speculative-draft-model-path", o->draft_path, "Draft model");
  cmd->add_option("--accept-length", o->accept_length,
                  "Mean accepted tokens per iteration incl. the bonus token");
  cmd->add_flag("--spec-v2", o->spec_v2,
                "SGLang with SGLANG_ENABLE_SPEC_V2=1 (overlap scheduler kept on with speculation)");
  cmd->add_option("--attention-backend", o->attention_backend,
                  "SGLang --attention-backend (default: the engine's choice for the GPU)");
  AddEfficiencyOptions(cmd, &o->eff);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--csv", o->csv, "Print CSV");
  cmd->add_flag("--validation", o->validation,
                "Print the predicted-vs-published collective and decode tables and exit");
  cmd->callback([o] { Run(*o); });
}

}  // namespace kvplan::cli
