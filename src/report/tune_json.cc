// `kvplan tune --json`: every ranked candidate and the Pareto front, each with
// its launch command.
#include <nlohmann/json.hpp>

#include "kvplan/render.h"
#include "logs/run_record_json.h"
#include "report/perf_assumed.h"
#include "report/tune_outcome.h"

namespace kvplan {
namespace {

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

}  // namespace

std::string RenderTuneJson(const TuneOutcome& o) {
  const TuneRequest& req = o.request;
  const TuneReport& rep = o.report;
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
  for (const TuneResult& r : rep.ranked) j["ranked"].push_back(ResultJson(req, o.space, r));
  for (const TuneResult& r : rep.pareto) j["pareto"].push_back(ResultJson(req, o.space, r));
  j["notes"] = rep.notes;
  j["assumed"] = AssumedJson(o.assumed);
  return DumpJson(j, 2);
}

}  // namespace kvplan
