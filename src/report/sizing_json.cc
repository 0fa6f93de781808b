// `kvplan tune --json` under a load and an SLA: every winner with its command
// and simulated figures, the GPU counts tried and the memory-setting table.
#include <nlohmann/json.hpp>

#include "logs/run_record_json.h"
#include "report/perf_assumed.h"
#include "report/sizing_outcome.h"

namespace kvplan {
namespace {

nlohmann::json FiguresJson(const SizingFigures& f) {
  if (!f.starts) return {{"starts", false}, {"why", f.why}};
  return {{"starts", true},
          {"ttft_p90_ms", f.ttft_p90_ms},
          {"tpot_p90_ms", f.tpot_p90_ms},
          {"e2e_p90_ms", f.e2e_p90_ms},
          {"req_s", f.req_s},
          {"output_tok_s", f.output_tok_s},
          {"goodput_req_s", f.goodput_req_s},
          {"kv_tokens", f.kv_tokens},
          {"completed", f.completed},
          {"retractions", f.preemptions},
          {"meets_sla", f.meets}};
}

nlohmann::json WinnerJson(const SizedLaunch& w) {
  const TuneCandidate& c = w.candidate.c;
  nlohmann::json j = FiguresJson(w.figures);
  j["gpus"] = w.gpus;
  j["tp"] = c.tp;
  j["replicas"] = c.replicas;
  j["ep"] = c.ep;
  j["enable_dp_attention"] = c.dp_attention;
  j["mem_fraction_static"] = w.candidate.mfs;
  j["cuda_graph_max_bs"] = c.cuda_graph_max_bs;
  j["kv_cache_dtype"] = c.kv_fp8 ? "fp8_e4m3" : "auto";
  j["chunked_prefill_size"] = c.chunked_prefill;
  j["command"] = w.command;
  return j;
}

}  // namespace

std::string RenderSizingJson(const SizingOutcome& o) {
  const SizingRequest& req = o.request;
  const SizingReport& rep = o.report;
  nlohmann::json j;
  j["model"] = req.tune.model.id;
  j["gpu"] = req.tune.gpu.id;
  j["max_gpus"] = req.tune.gpus;
  j["sla"] = nlohmann::json::object();
  if (req.ttft_p90_ms) j["sla"]["ttft_p90_ms"] = *req.ttft_p90_ms;
  if (req.tpot_p90_ms) j["sla"]["tpot_p90_ms"] = *req.tpot_p90_ms;
  j["gpus"] = rep.gpus;
  j["counts"] = nlohmann::json::array();
  for (const SizingCount& c : rep.counts) {
    j["counts"].push_back(
        {{"gpus", c.gpus}, {"searched", c.proposed}, {"simulated", c.simulated}, {"met", c.met}});
  }
  j["winners"] = nlohmann::json::array();
  for (const SizedLaunch& w : rep.winners) j["winners"].push_back(WinnerJson(w));
  j["memory_settings"] = nlohmann::json::array();
  for (const SizingVariant& v : rep.variants) {
    nlohmann::json x = FiguresJson(v.figures);
    x["setting"] = v.setting;
    x["value"] = v.value;
    x["winner"] = v.is_winner;
    j["memory_settings"].push_back(x);
  }
  if (!rep.winners.empty()) {
    nlohmann::json sp = {{"speculative", rep.spec.speculative},
                         {"stops_paying_at_concurrency", rep.spec.stops_paying_at},
                         {"points", nlohmann::json::array()}};
    if (!rep.spec.why_not.empty()) sp["not_compared"] = rep.spec.why_not;
    for (const SpecPoint& p : rep.spec.points) {
      sp["points"].push_back({{"concurrency", p.concurrency},
                              {"plain_output_tok_s", p.plain_tok_s},
                              {"spec_output_tok_s", p.spec_tok_s},
                              {"plain_tpot_ms", p.plain_tpot_ms},
                              {"spec_tpot_ms", p.spec_tpot_ms}});
    }
    j["speculation"] = sp;
  }
  j["notes"] = rep.notes;
  j["assumed"] = AssumedJson(o.assumed);
  return DumpJson(j, 2);
}

}  // namespace kvplan
