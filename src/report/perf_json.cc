// `kvplan perf --json`.
#include <nlohmann/json.hpp>

#include "kvplan/render.h"
#include "logs/run_record_json.h"
#include "perf/perf_report.h"
#include "report/perf_assumed.h"

namespace kvplan {
namespace {

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
  j["largest_graphed_batch"] = p.largest_graphed_batch;
  j["cuda_graphs"] = p.cuda_graphs;
  j["cuda_graph_bytes_per_rank"] = p.cuda_graph_bytes;
  if (!p.spec.empty()) {
    j["speculative"] = p.spec;
    j["speculative_algorithm"] = SpecAlgorithmName(p.spec_config.algorithm);
    j["speculative_num_steps"] = p.spec_config.num_steps;
    j["speculative_eagle_topk"] = p.spec_config.eagle_topk;
    j["speculative_num_draft_tokens"] = p.spec_config.num_draft_tokens;
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
  j["assumed"] = AssumedJson(p.assumed);
  return j;
}

}  // namespace

std::string RenderPerfJson(const PerfReport& r) { return DumpJson(ToJson(r), 2); }

}  // namespace kvplan
