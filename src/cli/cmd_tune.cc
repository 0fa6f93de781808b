// `kvplan tune`: search SGLang launch settings for a model on N GPUs and
// print the ranked list and the throughput/latency Pareto front, each with
// the launch command to copy.
#include <unistd.h>

#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "cli/efficiency_flags.h"
#include "cli/verbs.h"
#include "kvplan/error.h"
#include "perf/attention_kernels.h"
#include "perf/efficiency_options.h"
#include "tune/tune.h"

namespace kvplan::cli {
namespace {

struct TuneOptions {
  std::string model, gpu, topology, draft, version, attention_backend;
  bool spec_v2 = false;
  int gpus = 8;
  int64_t context = 4096, prompt = 0, concurrency = 0;
  std::optional<double> ttft_ms, tpot_ms, accept_length;
  int threads = 0, top = 10;
  bool json = false, no_progress = false;
  Efficiency eff;
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

nlohmann::json ResultJson(const TuneRequest& req, const TuneSpace& s, const TuneResult& r) {
  return {{"tokens_per_s", r.tokens_per_s},
          {"tpot_ms", r.tpot_ms},
          {"ttft_ms", r.ttft_ms},
          {"concurrent_requests", r.batch},
          {"kv_tokens_per_rank", r.kv_tokens},
          {"max_running_requests", r.max_running},
          {"mem_fraction_static", r.mfs},
          {"tp", r.c.tp},
          {"pp", r.c.pp},
          {"replicas", r.c.replicas},
          {"ep", r.c.ep},
          {"enable_dp_attention", r.c.dp_attention},
          {"cuda_graph_max_bs", r.c.cuda_graph_max_bs},
          {"kv_cache_dtype", r.c.kv_fp8 ? "fp8_e4m3" : "auto"},
          {"chunked_prefill_size", r.c.chunked_prefill},
          {"command", LaunchCommand(req, s, r)}};
}

void PrintTable(const char* title, const TuneRequest& req, const TuneSpace& s,
                const std::vector<TuneResult>& rows, int top) {
  fmt::print("\n{}\n", title);
  fmt::print("{:>3} {:>10} {:>9} {:>9} {:>7} {:>10} {:>6}  {}\n", "#", "tok/s", "TPOT ms",
             "TTFT ms", "reqs", "KV tokens", "mfs", "layout");
  int i = 0;
  const TuneResult* prev = nullptr;
  for (const TuneResult& r : rows) {
    // Candidates that differ only in a setting that changes nothing here
    // (e.g. a chunk size above the prompt) are shown once.
    if (prev != nullptr && prev->tokens_per_s == r.tokens_per_s && prev->tpot_ms == r.tpot_ms &&
        prev->ttft_ms == r.ttft_ms && prev->kv_tokens == r.kv_tokens &&
        prev->c.cuda_graph_max_bs == r.c.cuda_graph_max_bs && prev->c.tp == r.c.tp &&
        prev->c.dp_attention == r.c.dp_attention && prev->c.ep == r.c.ep) {
      continue;
    }
    prev = &r;
    if (++i > top) break;
    std::string layout = fmt::format("tp{} pp{}", r.c.tp, r.c.pp);
    if (r.c.replicas > 1) layout += fmt::format(" x{} replicas", r.c.replicas);
    if (r.c.ep > 1) layout += fmt::format(" ep{}", r.c.ep);
    if (r.c.dp_attention) layout += " dp-attn";
    fmt::print("{:>3} {:>10.0f} {:>9.1f} {:>9.0f} {:>7.0f} {:>10} {:>6.3f}  {}\n", i,
               r.tokens_per_s, r.tpot_ms, r.ttft_ms, r.batch, r.kv_tokens, r.mfs, layout);
    fmt::print("    {}\n", LaunchCommand(req, s, r));
  }
}

void Run(const TuneOptions& o) {
  if (o.model.empty() || o.gpu.empty()) throw InputError("kvplan tune needs --model and --gpu");
  if (o.top < 1) throw InputError("--top must be at least 1");
  if (o.concurrency < 0) throw InputError("--concurrency must be >= 0");
  if ((o.ttft_ms && *o.ttft_ms <= 0) || (o.tpot_ms && *o.tpot_ms <= 0)) {
    throw InputError("--ttft-ms and --tpot-ms must be positive");
  }
  TuneRequest req;
  req.model = LoadModel(o.model);
  req.gpu = FindGpu(o.gpu);
  req.gpus = o.gpus;
  req.topology = o.topology.empty() ? DefaultTopology(req.gpu) : ParseTopology(o.topology);
  req.context = o.context;
  req.prompt = o.prompt;
  req.concurrency = o.concurrency;
  req.ttft_ms = o.ttft_ms;
  req.tpot_ms = o.tpot_ms;
  req.accept_length = o.accept_length;
  req.sglang_version = o.version;
  CheckSglangAttentionBackend(o.attention_backend);
  req.attention_backend = o.attention_backend;
  req.sglang_spec_v2 = o.spec_v2;
  req.threads = o.threads;
  req.eff = CheckedEfficiency(o.eff);
  if (!o.draft.empty()) {
    req.draft = LoadModel(o.draft);
    req.draft_path = o.draft;
  }
  const TuneSpace space = MakeTuneSpace(req);
  const bool bar = !o.no_progress && isatty(fileno(stderr));
  const TuneReport rep = RunTune(req, bar ? ProgressBar : std::function<void(int64_t, int64_t)>{});
  if (o.json) {
    nlohmann::json j;
    j["model"] = req.model.id;
    j["gpu"] = req.gpu.id;
    j["gpus"] = req.gpus;
    j["topology"] = TopologyName(req.topology);
    j["evaluated"] = rep.evaluated;
    j["feasible"] = rep.feasible;
    j["seconds"] = rep.seconds;
    j["ranked"] = nlohmann::json::array();
    j["pareto"] = nlohmann::json::array();
    for (const TuneResult& r : rep.ranked) j["ranked"].push_back(ResultJson(req, space, r));
    for (const TuneResult& r : rep.pareto) j["pareto"].push_back(ResultJson(req, space, r));
    j["notes"] = rep.notes;
    fmt::print("{}\n", j.dump(2));
    return;
  }
  fmt::print("{} on {} x {} ({}), {} tokens per request{}{}{}\n", req.model.id, req.gpus,
             req.gpu.id, TopologyName(req.topology), req.context,
             req.concurrency > 0 ? fmt::format(", {} concurrent", req.concurrency) : "",
             req.ttft_ms ? fmt::format(", TTFT <= {} ms", *req.ttft_ms) : "",
             req.tpot_ms ? fmt::format(", TPOT <= {} ms", *req.tpot_ms) : "");
  fmt::print("evaluated {} configurations in {:.2f} s ({:.0f}/s), {} feasible\n", rep.evaluated,
             rep.seconds, rep.evaluated / rep.seconds, rep.feasible);
  for (const std::string& n : rep.notes) fmt::print("note: {}\n", n);
  if (rep.ranked.empty()) return;
  PrintTable("BEST THROUGHPUT", req, space, rep.ranked, o.top);
  PrintTable("PARETO FRONT (throughput vs time per output token)", req, space, rep.pareto, o.top);
}

}  // namespace

void RegisterTuneVerb(Command& app) {
  Command* cmd = app.add_subcommand(
      "tune", "Search SGLang launch settings: ranked list and throughput/latency Pareto front");
  auto o = std::make_shared<TuneOptions>();
  cmd->add_option("--model", o->model, "Model id, config.json or model directory");
  cmd->add_option("--gpu", o->gpu, "GPU id from `kvplan gpus`");
  cmd->add_option("--gpus", o->gpus, "GPUs in the node");
  cmd->add_option("--topology", o->topology,
                  "nvswitch, nvlink-pairs, pcie-switch, pcie-dual-socket or pcie-no-p2p");
  cmd->add_option("--context", o->context, "Tokens per request (prompt + output) in the KV cache");
  cmd->add_option("--prompt", o->prompt, "Prompt length for TTFT (default: context / 2)");
  cmd->add_option("--concurrency", o->concurrency, "Requests that must run at once");
  cmd->add_option("--ttft-ms", o->ttft_ms, "Time-to-first-token limit");
  cmd->add_option("--tpot-ms", o->tpot_ms, "Time-per-output-token limit");
  cmd->add_option("--speculative-draft-model-path,--draft-model", o->draft,
                  "EAGLE-3 draft to include speculative settings");
  cmd->add_option("--accept-length", o->accept_length, "Mean accepted tokens per iteration");
  cmd->add_option("--engine-version", o->version, "SGLang release (default: newest modelled)");
  cmd->add_option("--attention-backend", o->attention_backend,
                  "SGLang --attention-backend for every candidate (default: SGLang's choice)");
  cmd->add_flag("--spec-v2", o->spec_v2,
                "Speculative candidates run with SGLANG_ENABLE_SPEC_V2=1 (overlap scheduler on)");
  cmd->add_option("--threads", o->threads, "Worker threads (default: all cores)");
  cmd->add_option("--top", o->top, "Rows to print per table");
  AddEfficiencyOptions(cmd, &o->eff);
  cmd->add_flag("--json", o->json, "Print JSON");
  cmd->add_flag("--no-progress", o->no_progress, "No progress bar on stderr");
  cmd->callback([o] { Run(*o); });
}

}  // namespace kvplan::cli
