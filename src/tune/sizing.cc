#include "tune/sizing.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <thread>

#include <fmt/format.h>

#include "kvplan/error.h"

namespace kvplan {
namespace {

// The engine flags of one replica of `c` for the simulator's planner: the flags its printed
// command launches it with (LaunchFlags, the one owner), less --model-path (the query's model)
// and the replicas' --dp-size (each replica is simulated alone).
std::vector<std::string> ReplicaFlags(const SizingRequest& req, const TuneSpace& space,
                                      const TuneCandidate& c) {
  TuneCandidate one = c;
  one.replicas = 1;
  std::vector<std::string> a = LaunchFlags(req.tune, space, one);
  a.erase(a.begin(), a.begin() + 2);  // --model-path and its value
  return a;
}

// What the simulator models: tensor parallelism, whole replicas, speculation, SGLang's DP
// attention (a scheduler per DP rank, simulate.cc LaunchParallelism) and expert parallelism
// (perf's step time at --ep-size); not pipeline stages. A trace cannot be split between
// replicas.
bool Simulable(const TuneResult& r, bool trace) {
  const TuneCandidate& c = r.c;
  return r.verdict == TuneVerdict::kOk && c.pp == 1 && (!trace || c.replicas == 1);
}

// One replica's share of the load: 1/replicas of the rate and of the requests.
// Poisson arrivals split at random stay Poisson at the share; SGLang's DP
// controller deals round robin, which is smoother, so this errs high on TTFT.
WorkloadSpec ReplicaLoad(const WorkloadSpec& load, int replicas) {
  WorkloadSpec w = load;
  if (replicas > 1 && w.rate) {
    *w.rate /= replicas;
    if (w.num_requests) *w.num_requests = (*w.num_requests + replicas - 1) / replicas;
  }
  return w;
}

SimulateQuery LaunchQuery(const SizingRequest& req, const TuneSpace& space,
                          const TuneCandidate& c) {
  SimulateQuery q;
  q.launch.engine = "sglang";
  q.launch.version = req.tune.sglang_version;
  q.launch.model = req.model_arg;
  q.launch.gpu = req.gpu_arg;
  q.launch.gpu_capacity_mib = req.gpu_capacity_mib;
  q.launch.args = ReplicaFlags(req, space, c);
  q.workload = ReplicaLoad(req.load, c.replicas);
  q.eff = req.tune.eff;
  q.calib = req.calib;
  if (c.spec != 0) {
    q.accept_length = req.tune.accept_length;
    q.spec_v2 = req.tune.sglang_spec_v2;
  }
  return q;
}

SizingFigures SimulateLaunch(const SizingRequest& req, const TuneSpace& space,
                             const TuneCandidate& c) {
  SimulateQuery q = LaunchQuery(req, space, c);
  int64_t good = 0;
  q.on_request = [&](const RequestOutcome& o) {
    const bool ttft_ok = !req.ttft_p90_ms || o.ttft_ms <= *req.ttft_p90_ms;
    const bool tpot_ok = !req.tpot_p90_ms || o.tpot_ms <= *req.tpot_p90_ms;
    good += ttft_ok && tpot_ok ? 1 : 0;
  };
  SizingFigures f;
  SimulateResult r;
  try {
    r = Simulate(q);
  } catch (const SimulateLaunchFails& e) {
    f.starts = false;
    f.why = e.what();
    return f;
  }
  const double n = c.replicas;
  f.ttft_p90_ms = r.ttft_ms.p90;
  f.tpot_p90_ms = r.tpot_ms.p90;
  f.e2e_p90_ms = r.e2e_ms.p90;
  f.req_s = r.req_s * n;
  f.output_tok_s = r.output_tok_s * n;
  f.goodput_req_s = r.duration_s > 0 ? static_cast<double>(good) / r.duration_s * n : 0;
  f.kv_tokens = r.kv_tokens;
  f.completed = r.completed * c.replicas;
  f.preemptions = r.preemptions * c.replicas;
  f.meets = (!req.ttft_p90_ms || f.ttft_p90_ms <= *req.ttft_p90_ms) &&
            (!req.tpot_p90_ms || f.tpot_p90_ms <= *req.tpot_p90_ms);
  return f;
}

// Simulates every launch of `launches` on the search's threads; each result
// depends on its launch only, so the order of work does not change it.
void SimulateAll(const SizingRequest& req, const TuneSpace& space,
                 std::vector<SizedLaunch>* launches) {
  const int threads = req.tune.threads > 0
                          ? req.tune.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < launches->size(); i = next.fetch_add(1)) {
      SizedLaunch& s = (*launches)[i];
      s.figures = SimulateLaunch(req, space, s.candidate.c);
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool) th.join();
}

// Best first: meets the SLA, more goodput, then lower p90 TPOT and TTFT, then
// the larger KV cache (headroom for bursts), then the smaller graph capture.
bool Better(const SizedLaunch& a, const SizedLaunch& b) {
  const SizingFigures &x = a.figures, &y = b.figures;
  if (x.meets != y.meets) return x.meets;
  if (x.goodput_req_s != y.goodput_req_s) return x.goodput_req_s > y.goodput_req_s;
  if (x.tpot_p90_ms != y.tpot_p90_ms) return x.tpot_p90_ms < y.tpot_p90_ms;
  if (x.ttft_p90_ms != y.ttft_p90_ms) return x.ttft_p90_ms < y.ttft_p90_ms;
  if (x.kv_tokens != y.kv_tokens) return x.kv_tokens > y.kv_tokens;
  return a.candidate.c.cuda_graph_max_bs < b.candidate.c.cuda_graph_max_bs;
}

// Every launch at `gpus` GPUs that the search finds starting, simulated;
// those that meet the SLA, best first.
std::vector<SizedLaunch> SizeAt(const SizingRequest& req, int gpus, SizingCount* count) {
  TuneRequest t = req.tune;
  t.gpus = gpus;
  const TuneSpace space = MakeTuneSpace(t);
  const std::vector<TuneResult> grid = EvaluateTuneGrid(t, space);
  count->gpus = gpus;
  count->proposed = static_cast<int64_t>(grid.size());
  std::vector<SizedLaunch> tried;
  for (const TuneResult& r : grid) {
    if (Simulable(r, !req.load.trace.empty())) tried.push_back({r, gpus, "", {}});
  }
  SimulateAll(req, space, &tried);
  count->simulated = static_cast<int64_t>(tried.size());
  std::vector<SizedLaunch> met;
  for (SizedLaunch& s : tried) {
    if (!s.figures.meets) continue;
    s.command = LaunchCommand(t, space, s.candidate);
    met.push_back(std::move(s));
  }
  count->met = static_cast<int64_t>(met.size());
  std::stable_sort(met.begin(), met.end(), Better);
  return met;
}

// The cuda_graph_max_bs values tried beside the winner's: three of the search's.
std::vector<int> GraphAlternatives(int winner) {
  std::vector<int> alts;
  for (int v : {64, 128, 256, 512}) {
    if (v != winner && alts.size() < 3) alts.push_back(v);
  }
  return alts;
}

// mem_fraction_static values beside the winner's resolved one, within (0, 0.95].
std::vector<double> FractionAlternatives(double winner) {
  std::vector<double> alts;
  for (double d : {-0.10, -0.05, 0.03}) {
    const double v = std::round((winner + d) * 100) / 100;
    if (v > 0 && v <= 0.95) alts.push_back(v);
  }
  return alts;
}

// The winner again with one memory setting changed at a time.
std::vector<SizingVariant> MemoryVariants(const SizingRequest& req, const TuneSpace& space,
                                          const SizedLaunch& w) {
  std::vector<SizingVariant> out;
  const TuneCandidate& c = w.candidate.c;
  auto add = [&](const std::string& setting, const std::string& value, const TuneCandidate& v) {
    out.push_back({setting, value, false, SimulateLaunch(req, space, v)});
  };
  out.push_back({"cuda_graph_max_bs", std::to_string(c.cuda_graph_max_bs), true, w.figures});
  for (int v : GraphAlternatives(c.cuda_graph_max_bs)) {
    TuneCandidate x = c;
    x.cuda_graph_max_bs = v;
    add("cuda_graph_max_bs", std::to_string(v), x);
  }
  out.push_back({"mem_fraction_static", fmt::format("{:.3f}", w.candidate.mfs), true, w.figures});
  for (double v : FractionAlternatives(w.candidate.mfs)) {
    TuneCandidate x = c;
    x.mfs = v;
    add("mem_fraction_static", fmt::format("{:.3f}", v), x);
  }
  out.push_back({"kv_cache_dtype", c.kv_fp8 ? "fp8_e4m3" : "auto", true, w.figures});
  TuneCandidate x = c;
  x.kv_fp8 = !c.kv_fp8;
  add("kv_cache_dtype", x.kv_fp8 ? "fp8_e4m3" : "auto", x);
  return out;
}

// The speculative setting compared with plain decoding: the winner's own, or
// the search's 3-step chain (its middle depth), or none (index 0).
int ComparedSpec(const TuneSpace& space, const TuneCandidate& winner) {
  if (winner.spec != 0) return winner.spec;
  for (size_t i = 1; i < space.specs.size(); ++i) {
    if (space.specs[i].steps == 3) return static_cast<int>(i);
  }
  return space.specs.size() > 1 ? 1 : 0;
}

// One closed-loop run of the launch at `concurrency` (the load's lengths and
// seed, four rounds of requests); false when the launch does not start.
bool ClosedLoopRun(const SizingRequest& req, const TuneSpace& space, const TuneCandidate& c,
                   int concurrency, SimulateResult* out) {
  SimulateQuery q = LaunchQuery(req, space, c);
  q.workload.rate.reset();
  q.workload.duration_s.reset();
  q.workload.concurrency = concurrency;
  q.workload.num_requests = std::max(16, 4 * concurrency);
  try {
    *out = Simulate(q);
  } catch (const SimulateLaunchFails&) {
    return false;
  }
  return true;
}

// Where speculation stops paying on the winner's launch: plain and
// speculative decoding at concurrency 1, 2, 4, ... 256, the first where the
// speculative launch's output tok/s is no higher.
SpecBreakEven SpecBreakEvenOf(const SizingRequest& req, const TuneSpace& space,
                              const TuneCandidate& winner) {
  SpecBreakEven out;
  if (!req.load.trace.empty()) {
    out.why_not = "a trace's lengths are per request; run kvplan simulate --concurrency";
    return out;
  }
  const int spec = ComparedSpec(space, winner);
  if (spec == 0) {
    out.why_not =
        "no speculative setting to compare: pass --draft-model (EAGLE-3), or a model "
        "with MTP layers";
    return out;
  }
  TuneCandidate plain = winner, with = winner;
  plain.spec = 0;
  with.spec = spec;
  for (int c = 1; c <= 256; c *= 2) {
    SimulateResult p, s;
    if (!ClosedLoopRun(req, space, plain, c, &p) || !ClosedLoopRun(req, space, with, c, &s)) {
      out.why_not = "the launch with speculation does not start with the winner's memory settings";
      return out;
    }
    out.speculative = s.speculative;
    out.points.push_back({c, p.output_tok_s, s.output_tok_s, p.tpot_ms.mean, s.tpot_ms.mean});
    if (s.output_tok_s <= p.output_tok_s) {
      out.stops_paying_at = c;
      break;
    }
  }
  return out;
}

}  // namespace

SizingReport RunSizing(const SizingRequest& req) {
  if (!req.ttft_p90_ms && !req.tpot_p90_ms) {
    throw InputError("sizing needs an SLA: --ttft-p90-ms and/or --tpot-p90-ms");
  }
  if (!req.load.rate && req.load.trace.empty()) {
    throw InputError("sizing needs a load: --rate R or --trace FILE");
  }
  SizingReport rep;
  for (int gpus = 1; gpus <= req.tune.gpus && rep.winners.empty(); ++gpus) {
    SizingCount count;
    rep.winners = SizeAt(req, gpus, &count);
    rep.counts.push_back(count);
    if (!rep.winners.empty()) rep.gpus = gpus;
  }
  if (!rep.winners.empty()) {
    TuneRequest t = req.tune;
    t.gpus = rep.gpus;
    const TuneSpace space = MakeTuneSpace(t);
    rep.variants = MemoryVariants(req, space, rep.winners.front());
    rep.spec = SpecBreakEvenOf(req, space, rep.winners.front().candidate.c);
  }
  rep.notes.push_back(
      "Proposed: tensor parallelism, whole replicas (each replica simulated alone at its "
      "share of the rate), DP attention and expert parallelism (each simulated as its command "
      "launches it); pipeline stages are not simulated.");
  if (!req.load.trace.empty()) {
    rep.notes.push_back("A trace is not split between replicas: only single-replica launches.");
  }
  if (rep.winners.empty()) {
    rep.notes.push_back(fmt::format("no launch on 1 to {} GPUs meets the SLA", req.tune.gpus));
  }
  return rep;
}

}  // namespace kvplan
