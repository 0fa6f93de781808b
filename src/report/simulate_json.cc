// `kvplan simulate --json`.
#include <nlohmann/json.hpp>

#include "kvplan/simulate.h"
#include "logs/run_record_json.h"
#include "report/perf_assumed.h"
#include "report/simulate_assumed.h"

namespace kvplan {
namespace {

nlohmann::json StatsJson(const LatencyStats& s) {
  return {{"mean", s.mean}, {"p50", s.p50}, {"p90", s.p90}, {"p99", s.p99}};
}

}  // namespace

std::string RenderSimulateJson(const SimulateResult& r) {
  nlohmann::json j;
  j["model"] = r.launch.model;
  j["gpu"] = r.launch.gpu;
  j["gpus_per_replica"] = r.launch.gpus;
  j["engine"] = r.engine;
  j["engine_version"] = r.engine_version;
  j["workload"] = r.workload;
  j["kv_tokens"] = r.kv_tokens;
  j["page_size"] = r.page_size;
  if (r.dp_ranks > 1) j["dp_ranks"] = r.dp_ranks;  // kv_tokens and max_running_requests: per rank
  j["max_running_requests"] = r.max_running_requests;
  j[r.engine == "vllm" ? "max_num_batched_tokens" : "chunked_prefill_size"] = r.token_budget;
  j["cuda_graph_batch"] = r.cuda_graph_batch;
  if (!r.speculative.empty()) {
    j["speculative"] = r.speculative;
    j["accept_length"] = r.accept_length;
  }
  j["ttft_ms"] = StatsJson(r.ttft_ms);
  j["tpot_ms"] = StatsJson(r.tpot_ms);
  j["itl_ms"] = StatsJson(r.itl_ms);
  j["e2e_ms"] = StatsJson(r.e2e_ms);
  j["req_s"] = r.req_s;
  j["throughput_tok_s"] = {{"output", r.output_tok_s}, {"total", r.total_tok_s}};
  j["completed"] = r.completed;
  j["duration_s"] = r.duration_s;
  j["steps"] = r.steps;
  j[r.engine == "vllm" ? "preemptions" : "retractions"] = r.preemptions;
  j["peak_kv_utilization"] = r.peak_kv_utilization;
  // Hit tokens / prompt tokens over every admission; 0 with the cache off.
  j["prefix_caching"] = r.prefix_caching;
  j["prefix_cache_hit_rate"] = r.prefix_cache_hit_rate;
  j["prefix_cache_hit_tokens"] = r.prefix_hit_tokens;
  j["prefix_cache_query_tokens"] = r.prefix_query_tokens;
  j["assumed"] = AssumedJson(SimulateAssumptions(r));
  j["notes"] = r.notes;
  // DumpJson: a model path that is not UTF-8 is replaced (U+FFFD), not an internal error.
  return DumpJson(j, 2);
}

}  // namespace kvplan
