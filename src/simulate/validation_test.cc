// `kvplan simulate` against measured public serving runs
// (tests/data/real/serving/, copied from ../shared/serving). Nothing in the
// simulator or the performance model was fitted to these points: the errors
// below are what the uncalibrated model gives, and each bound is the error
// this commit achieves on that source and metric, rounded up, so that a
// change that makes any point worse fails here. How each run is expressed:
//  - sim-to-real (vLLM 0.15.1, inference-perf): each stage simulated alone at
//    its rate for its duration, constant arrivals (the README: "test fixtures
//    use load.type constant; not verified per run"), fixed lengths at the
//    study's approximate means (the per-request lengths were not published),
//    the engine flags the record lists.
//  - aic-silicon-sample (closed loop from an idle server, the engine's
//    defaults): InferenceX rows send 10 x concurrency requests with lengths
//    uniform over [0.8 L, L] (random_range_ratio 0.8); AIConfigurator's
//    gap-analysis rows (these two) 20 x concurrency requests of exactly L
//    (its aiperf template bench_run.sh.j2: --isl-stddev/--osl-stddev 0,
//    concurrency x BENCH_MULTI_ROUND 20). The record's single TTFT/TPOT value
//    is compared with the simulated mean (the sample does not say which).
//  - llmservingsim-bench (vLLM 0.19.0, RTX 4090): the run's own trace replayed
//    (arrivals and lengths per request), the engine flags the record lists;
//    the model is the catalog's Llama-3.1-8B-Instruct (the same architecture
//    and sizes as the base model that ran).
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "kvplan/simulate.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

struct PointError {
  std::string run, point, metric;
  double measured = 0, simulated = 0;
  double Percent() const { return 100.0 * (simulated - measured) / measured; }
};

std::vector<nlohmann::json> Runs() {
  std::vector<nlohmann::json> runs;
  std::ifstream in(testing::RealData("serving/runs.jsonl"));
  for (std::string line; std::getline(in, line);) runs.push_back(nlohmann::json::parse(line));
  return runs;
}

SimulateQuery Launch(const nlohmann::json& run) {
  SimulateQuery q;
  q.launch.engine = run["engine"];
  q.launch.version = run["engine_version"];
  q.launch.model = run["model"];
  q.launch.gpu = "h100-sxm";
  const int tp = run["parallel"]["tp"];
  q.launch.args = {q.launch.engine == "vllm" ? "--tensor-parallel-size" : "--tp-size",
                   std::to_string(tp)};
  return q;
}

// The run's recorded engine flags (vLLM's names), as its launch command spelled them.
void AddEngineFlags(const nlohmann::json& run, SimulateQuery* q) {
  const nlohmann::json& f = run["engine_flags"];
  for (const char* k :
       {"max_num_seqs", "max_model_len", "max_num_batched_tokens", "gpu_memory_utilization"}) {
    std::string flag = std::string("--") + k;
    for (char& c : flag) c = c == '_' ? '-' : c;
    q->launch.args.push_back(flag);
    q->launch.args.push_back(f[k].dump());
  }
}

void SimToReal(const nlohmann::json& run, std::vector<PointError>* out,
               const std::vector<std::string>& layout = {}) {
  SimulateQuery q = Launch(run);
  AddEngineFlags(run, &q);
  q.launch.args.insert(q.launch.args.end(), layout.begin(), layout.end());
  q.workload.arrival = "constant";
  q.workload.input = {"fixed", run["workload"]["isl"]["mean_approx"].get<int64_t>(), 0};
  q.workload.output = {"fixed", run["workload"]["osl"]["mean_approx"].get<int64_t>(), 0};
  for (const nlohmann::json& p : run["points"]) {
    q.workload.rate = p["rate_rps"].get<double>();
    q.workload.duration_s = p["duration_s"].get<double>();
    const SimulateResult r = Simulate(q);
    const nlohmann::json& m = p["measured"];
    const std::string id = run["id"], label = p["label"];
    out->push_back({id, label, "e2e mean", m["e2e_ms"]["mean"], r.e2e_ms.mean});
    out->push_back({id, label, "e2e p90", m["e2e_ms"]["p90"], r.e2e_ms.p90});
    out->push_back({id, label, "ttft mean", m["ttft_ms"]["mean"], r.ttft_ms.mean});
    out->push_back({id, label, "itl mean", m["itl_ms"]["mean"], r.itl_ms.mean});
  }
}

void Concurrency(const nlohmann::json& run, std::vector<PointError>* out) {
  SimulateQuery q = Launch(run);
  const int64_t isl = run["workload"]["isl"]["fixed"], osl = run["workload"]["osl"]["fixed"];
  const bool gap_analysis = run["sub_source"][0].get<std::string>().starts_with("aic-gap-analysis");
  if (gap_analysis) {
    q.workload.input = {"fixed", isl, 0};
    q.workload.output = {"fixed", osl, 0};
  } else {
    // Uniform over [0.8 L, L]: mean 0.9 L, half-width 0.1 L.
    q.workload.input = {"uniform", isl * 9 / 10, 1.0 / 9};
    q.workload.output = {"uniform", osl * 9 / 10, 1.0 / 9};
  }
  for (const nlohmann::json& p : run["points"]) {
    const int c = p["concurrency"];
    q.workload.concurrency = c;
    q.workload.num_requests = (gap_analysis ? 20 : 10) * c;
    const SimulateResult r = Simulate(q);
    const nlohmann::json& m = p["measured"];
    const std::string id = run["id"], label = p["label"];
    out->push_back({id, label, "ttft", m["ttft_ms"]["reported"], r.ttft_ms.mean});
    out->push_back({id, label, "tpot", m["tpot_ms"]["reported"], r.tpot_ms.mean});
  }
}

void Trace(const nlohmann::json& run, std::vector<PointError>* out) {
  SimulateQuery q = Launch(run);
  q.launch.model = "meta-llama/Llama-3.1-8B-Instruct";
  q.launch.gpu = "rtx-4090";
  AddEngineFlags(run, &q);
  q.workload.trace = testing::RealData("serving/workload-sharegpt-llama-3.1-8b-300-sps10.csv");
  const SimulateResult r = Simulate(q);
  const nlohmann::json& m = run["measured"];
  const std::string id = run["id"];
  auto add = [&](const char* metric, const nlohmann::json& measured, double simulated) {
    out->push_back({id, "trace", metric, measured.get<double>(), simulated});
  };
  add("ttft mean", m["ttft_ms"]["mean"], r.ttft_ms.mean);
  add("ttft p50", m["ttft_ms"]["p50"], r.ttft_ms.p50);
  add("ttft p90", m["ttft_ms"]["p90"], r.ttft_ms.p90);
  add("tpot mean", m["tpot_ms"]["mean"], r.tpot_ms.mean);
  add("tpot p50", m["tpot_ms"]["p50"], r.tpot_ms.p50);
  add("e2e mean", m["e2e_ms"]["mean"], r.e2e_ms.mean);
  add("e2e p90", m["e2e_ms"]["p90"], r.e2e_ms.p90);
  add("output tok/s", m["throughput_tok_s"]["output"], r.output_tok_s);
  add("req/s", m["req_s"], r.req_s);
}

// The largest |error| in percent this commit reaches, by run prefix and metric.
double Bound(const PointError& e) {
  // LLMServingSim's RTX 4090 trace: TTFT p90 +20.1 % since the weights count vLLM's rotary
  // table (32 MiB less KV; the run's TPOT, E2E and throughput errors all fell with it), +21.9 %
  // since the small memory kernels take their 3 us (TPOT +21 % -> +22 %, the queue with it).
  if (e.run.starts_with("lss-")) return e.metric.starts_with("tpot") ? 25 : 23;
  const bool s2r = e.run.starts_with("s2r-"), sglang = e.run.find("sglang") != std::string::npos;
  if (s2r) {
    if (e.metric.starts_with("e2e")) return 15;
    if (e.metric == "itl mean") return 20;
    return 50;  // TTFT
  }
  if (sglang) return e.metric == "tpot" ? 20 : 35;
  // vLLM at concurrency 8 to 32: the client's bursts of C prompts of exactly
  // 1,024 tokens are prefilled in one or two 8,192-token steps that kvplan
  // times at ~400 ms on two H100s; the run measured 154-250 ms, which no
  // prefill of those tokens reaches there (vLLM's prefix cache, on by
  // default and not modelled, is the likely difference).
  return e.metric == "tpot" ? 15 : 170;
}

TEST(SimulateValidationTest, MeasuredRunsWithinTheErrorsThisModelReaches) {
  std::vector<PointError> errors;
  for (const nlohmann::json& run : Runs()) {
    if (run["source"] == "sim-to-real") {
      SimToReal(run, &errors);
    } else if (run["source"] == "llmservingsim-bench") {
      Trace(run, &errors);
    } else {
      Concurrency(run, &errors);
    }
  }
  ASSERT_EQ(errors.size(), 2u * 2 * 4 + 5 * 2 + 3 * 2 + 9);
  for (const PointError& e : errors) {
    std::cout << e.run << " " << e.point << " " << e.metric << ": measured " << e.measured
              << " simulated " << e.simulated << " (" << std::round(e.Percent()) << " %)\n";
    EXPECT_LE(std::abs(e.Percent()), Bound(e)) << e.run << " " << e.point << " " << e.metric;
  }
}

// s2r-10 of the validation points (serving/validation-runs.jsonl, SOURCES.md): Mixtral-8x7B
// on two H100s, vLLM 0.15.1, the experts split over both (--enable-expert-parallel, EP = TP x
// DP = 2; the record's provenance: the study's harness enables it for MoE models), at 5 and
// 10 req/s. Expressed as the other sim-to-real runs; the bounds are what this commit reaches,
// rounded up (E2E +7.6 %, ITL +6.5 %, TTFT -20.5 % at worst).
TEST(SimulateValidationTest, AnExpertParallelRunWithinWhatThisModelReaches) {
  std::ifstream in(testing::RealData("serving/validation-runs.jsonl"));
  std::vector<PointError> errors;
  for (std::string line; std::getline(in, line);) {
    const nlohmann::json run = nlohmann::json::parse(line);
    if (run["id"] != "s2r-10-mixtral-8x7b-tp2-codegen") continue;
    ASSERT_EQ(run["parallel"]["ep"], 2);
    SimToReal(run, &errors, {"--enable-expert-parallel"});
  }
  ASSERT_EQ(errors.size(), 2u * 4);
  for (const PointError& e : errors) {
    const double bound = e.metric.starts_with("ttft") ? 25 : 10;
    EXPECT_LE(std::abs(e.Percent()), bound) << e.point << " " << e.metric << ": measured "
                                            << e.measured << " simulated " << e.simulated;
  }
}

}  // namespace
}  // namespace kvplan
