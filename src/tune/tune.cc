#include "tune/tune.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "base/units.h"
#include "engines/sglang/graph_estimate.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "perf/cuda_graph.h"
#include "perf/perf_report.h"
#include "perf/step_time.h"
#include "tune/tune_memory.h"

namespace kvplan {
namespace {

// kvplan's reserve for what the engine leaves outside its own accounting:
// NCCL/cuBLAS workspaces and allocator fragmentation (not an engine rule).
constexpr int64_t kMiscReserveBytes = 512 * kMiB;
// Prefill activations per token of a chunk, in hidden-size units of bf16
// (residual, norms, QKV, attention output, MLP intermediate ~ 16 h).
constexpr double kPrefillActivationHiddens = 16;

struct Index {
  int layout, mfs, cgbs, kv, chunk, spec;
};

Index Decompose(const TuneSpace& s, int64_t i) {
  Index x;
  x.spec = static_cast<int>(i % s.specs.size());
  i /= s.specs.size();
  x.chunk = static_cast<int>(i % s.chunked_prefill.size());
  i /= s.chunked_prefill.size();
  x.kv = static_cast<int>(i % s.kv_fp8.size());
  i /= s.kv_fp8.size();
  x.cgbs = static_cast<int>(i % s.cuda_graph_max_bs.size());
  i /= s.cuda_graph_max_bs.size();
  x.mfs = static_cast<int>(i % s.mfs.size());
  i /= s.mfs.size();
  x.layout = static_cast<int>(i);
  return x;
}

TuneCandidate Candidate(const TuneSpace& s, const Index& x) {
  TuneCandidate c = s.layouts[x.layout];
  c.mfs = s.mfs[x.mfs];
  c.cuda_graph_max_bs = s.cuda_graph_max_bs[x.cgbs];
  c.kv_fp8 = s.kv_fp8[x.kv];
  c.chunked_prefill = s.chunked_prefill[x.chunk];
  c.spec = x.spec;
  return c;
}

SglangArgs ArgsFor(const TuneRequest& req, const TuneSpace& s, const TuneCandidate& c) {
  SglangArgs a;
  a.model_path = req.model.id;
  a.tp = c.tp;
  a.pp = c.pp;
  a.ep = c.ep;
  a.dp = c.dp_attention ? c.tp : c.replicas;
  a.enable_dp_attention = c.dp_attention;
  if (c.mfs > 0) a.mem_fraction_static = c.mfs;
  a.kv_cache_dtype = c.kv_fp8 ? "fp8_e4m3" : "auto";
  a.cuda_graph_max_bs = c.cuda_graph_max_bs;
  a.chunked_prefill_size = c.chunked_prefill;
  const TuneSpec& sp = s.specs[c.spec];
  if (sp.algorithm != SpecAlgorithm::kNone) {
    a.speculative_algorithm = SpecAlgorithmName(sp.algorithm);
    a.speculative_draft_model_path = req.draft_path;
    a.speculative_num_steps = sp.steps;
    a.speculative_eagle_topk = sp.topk;
    a.speculative_num_draft_tokens = sp.draft_tokens;
  }
  return a;
}

const ModelSpec* DraftFor(const TuneRequest& req, const TuneSpace& s, const TuneCandidate& c) {
  const bool eagle = s.specs[c.spec].algorithm == SpecAlgorithm::kEagle3;
  return eagle && req.draft ? &*req.draft : nullptr;
}

// Index of a candidate's launch without its mem_fraction_static.
int64_t KeyOf(const TuneSpace& s, const Index& x) {
  int64_t k = x.layout;
  k = k * static_cast<int64_t>(s.cuda_graph_max_bs.size()) + x.cgbs;
  k = k * static_cast<int64_t>(s.kv_fp8.size()) + x.kv;
  k = k * static_cast<int64_t>(s.chunked_prefill.size()) + x.chunk;
  return k * static_cast<int64_t>(s.specs.size()) + x.spec;
}

// Everything the time evaluation reads, built once.
struct TimeSetup {
  TimeSetup() = default;
  TimeSetup(const TimeSetup&) = delete;
  TimeSetup& operator=(const TimeSetup&) = delete;
  ModelGeometry target, draft;
  std::vector<StepContext> target_ctx, draft_ctx;  // per layout x kv dtype
  std::vector<double> ttft_ms;                     // per layout x kv x chunk
};

int64_t SlackNeed(const TuneRequest& req, const TuneSpace& s, const TimeSetup& t,
                  const TuneCandidate& c, const MemPoint& m) {
  Parallelism par;
  par.tp = c.tp;
  par.pp = c.pp;
  const TuneSpec& sp = s.specs[c.spec];
  const bool spec = sp.algorithm != SpecAlgorithm::kNone;
  SglangSpecParams widths;
  widths.draft_tokens = sp.draft_tokens;
  const double graph_tokens = SglangTargetGraphTokens(c.cuda_graph_max_bs, spec, widths);
  int64_t need = CudaGraphMemoryBytes(t.target, par, graph_tokens) + kMiscReserveBytes;
  if (spec) {
    SpecConfig cfg;
    cfg.algorithm = sp.algorithm;
    cfg.num_steps = sp.steps;
    cfg.eagle_topk = sp.topk;
    cfg.num_draft_tokens = sp.draft_tokens;
    need += SpeculativeMemory(t.draft, par, 2, cfg, c.cuda_graph_max_bs, true).graph_bytes;
  }
  need += 4 * (m.max_running + 1) * (m.context_len + 4 + (spec ? sp.draft_tokens : 0));
  need += static_cast<int64_t>(c.chunked_prefill * t.target.hidden * 2 * kPrefillActivationHiddens);
  (void)req;
  return need;
}

// The hot loop's body: no allocation.
void Evaluate(const TuneRequest& req, const TuneSpace& s, const TimeSetup& t, const Index& x,
              const MemPoint& m, TuneResult* out) {
  TuneResult& r = *out;
  r.c = Candidate(s, x);
  const TuneCandidate& c = r.c;
  r.mfs = m.mfs;
  r.kv_tokens = m.tokens;
  r.max_running = m.max_running;
  if (!m.ok) {
    r.verdict = TuneVerdict::kPlannerError;
    return;
  }
  const double slack = static_cast<double>(m.pre) * (1 - m.mfs);
  if (static_cast<double>(SlackNeed(req, s, t, c, m)) > slack) {
    r.verdict = TuneVerdict::kSlackTooSmall;
    return;
  }
  // Requests that fit: each attention-DP rank and each replica has its own pool.
  const double pools = c.dp_attention ? c.tp : c.replicas;
  const double per_pool = std::min<double>(std::floor(static_cast<double>(m.tokens) / req.context),
                                           static_cast<double>(m.max_running));
  const double fit = per_pool * pools;
  double batch = req.concurrency > 0 ? static_cast<double>(req.concurrency) : fit;
  if (fit < 1 || (req.concurrency > 0 && fit < batch)) {
    r.verdict = TuneVerdict::kConcurrency;
    r.batch = fit;
    return;
  }
  r.batch = batch;
  const double per_replica = std::ceil(batch / c.replicas);
  const int ctx_i = x.layout * static_cast<int>(s.kv_fp8.size()) + x.kv;
  const StepContext& tc = t.target_ctx[ctx_i];
  // The grid's cuda_graph_max_bs values are each the last size SGLang's capture list holds.
  const bool graph =
      DecodeReplaysGraph(static_cast<int64_t>(per_replica), c.cuda_graph_max_bs, tc.par);
  const double ctx = static_cast<double>(req.context) / 2;  // mean KV length while decoding
  const TuneSpec& sp = s.specs[c.spec];
  double tpot_us = 0, tok_s = 0;
  if (sp.algorithm == SpecAlgorithm::kNone) {
    tpot_us = ForwardTime(tc, {per_replica, 1, ctx, per_replica, graph}).total_us * c.pp;
    tok_s = batch / tpot_us * 1e6;
  } else {
    SpecConfig cfg;
    cfg.algorithm = sp.algorithm;
    cfg.num_steps = sp.steps;
    cfg.eagle_topk = sp.topk;
    cfg.num_draft_tokens = sp.draft_tokens;
    cfg.accept_length = req.accept_length;
    cfg.sglang_spec_v2 = req.sglang_spec_v2;
    const SpecStep st =
        SpeculativeStep(tc, t.draft_ctx[ctx_i], cfg, SpecEngine::kSglang, per_replica, ctx, graph);
    tpot_us = st.tpot_ms * 1000 * c.pp;
    tok_s = batch / tpot_us * 1e6;
  }
  r.tpot_ms = tpot_us / 1000;
  r.tokens_per_s = tok_s;
  r.ttft_ms = t.ttft_ms[ctx_i * s.chunked_prefill.size() + x.chunk];
  if ((req.tpot_ms && r.tpot_ms > *req.tpot_ms) || (req.ttft_ms && r.ttft_ms > *req.ttft_ms)) {
    r.verdict = TuneVerdict::kLatency;
    return;
  }
  r.verdict = TuneVerdict::kOk;
}

template <typename Fn>
void ParallelFor(int64_t n, int threads, std::atomic<int64_t>* done, const Fn& fn) {
  std::atomic<int64_t> next{0};
  constexpr int64_t kBlock = 256;
  auto worker = [&] {
    for (;;) {
      const int64_t begin = next.fetch_add(kBlock);
      if (begin >= n) return;
      const int64_t end = std::min(n, begin + kBlock);
      for (int64_t i = begin; i < end; ++i) fn(i);
      done->fetch_add(end - begin);
    }
  };
  std::vector<std::thread> pool;
  for (int i = 1; i < threads; ++i) pool.emplace_back(worker);
  worker();
  for (std::thread& th : pool) th.join();
}

// Fills `t` in place: its step contexts point at its own geometries.
void FillTimeSetup(const TuneRequest& req, const TuneSpace& s, TimeSetup* out) {
  TimeSetup& t = *out;
  t.target = MakeGeometry(req.model);
  const bool mtp = std::any_of(s.specs.begin(), s.specs.end(), [](const TuneSpec& x) {
    return x.algorithm == SpecAlgorithm::kNextn;
  });
  t.draft = req.draft
                ? MakeGeometry(*req.draft)
                : (mtp ? MtpDraftGeometry(t.target) : MakeGeometry(SyntheticEagleDraft(req.model)));
  const int64_t prompt = req.prompt > 0 ? req.prompt : std::max<int64_t>(1, req.context / 2);
  for (const TuneCandidate& l : s.layouts) {
    for (bool fp8 : s.kv_fp8) {
      PerfRequest pr;
      pr.model = req.model;  // the attention backend follows the target's attention kind
      pr.attention_backend = req.attention_backend;
      pr.gpu = req.gpu;
      pr.topology = req.topology;
      pr.par.tp = l.tp;
      pr.par.pp = l.pp;
      pr.par.ep = l.ep;
      pr.par.dp = l.dp_attention ? l.tp : 1;
      pr.par.dp_attention = l.dp_attention;
      pr.kv_bytes_per_elem = fp8 ? 1 : 2;
      pr.eff = req.eff;
      t.target_ctx.push_back(MakeStepContext(t.target, pr));
      t.draft_ctx.push_back(MakeStepContext(t.draft, pr));
      for (int chunk : s.chunked_prefill) {
        t.ttft_ms.push_back(PrefillTime(t.target_ctx.back(), prompt, chunk).total_us * l.pp / 1000);
      }
    }
  }
  // The contexts point at the geometries of this object.
  for (StepContext& c : t.target_ctx) c.model = &t.target;
  for (StepContext& c : t.draft_ctx) c.model = &t.draft;
}

std::vector<TuneResult> ParetoFront(std::vector<TuneResult> ok) {
  std::sort(ok.begin(), ok.end(), [](const TuneResult& a, const TuneResult& b) {
    return a.tpot_ms != b.tpot_ms ? a.tpot_ms < b.tpot_ms : a.tokens_per_s > b.tokens_per_s;
  });
  std::vector<TuneResult> front;
  double best = -1;
  for (const TuneResult& r : ok) {
    if (r.tokens_per_s > best * (1 + 1e-9)) {
      front.push_back(r);
      best = r.tokens_per_s;
    }
  }
  return front;
}

}  // namespace

int64_t TuneSpace::Size() const {
  return static_cast<int64_t>(layouts.size() * mfs.size() * cuda_graph_max_bs.size() *
                              kv_fp8.size() * chunked_prefill.size() * specs.size());
}

TuneSpace MakeTuneSpace(const TuneRequest& req) {
  if (req.gpus < 1) throw InputError("--gpus must be at least 1");
  if (req.context < 1) throw InputError("--context must be at least 1");
  TuneSpace s;
  const ModelSpec& m = req.model;
  const bool moe = m.IsMoe();
  const bool mla = m.attention == AttentionKind::kMla;
  for (int tp = 1; tp <= req.gpus; tp *= 2) {
    if (m.num_attention_heads % tp != 0) continue;
    for (int pp = 1; tp * pp <= req.gpus; pp *= 2) {
      if (req.gpus % (tp * pp) != 0 || pp > m.num_layers) continue;
      TuneCandidate c;
      c.tp = tp;
      c.pp = pp;
      c.replicas = req.gpus / (tp * pp);
      s.layouts.push_back(c);
      if (moe && tp > 1 && m.num_experts % tp == 0) {
        c.ep = tp;
        s.layouts.push_back(c);
      }
      if ((moe || mla) && tp > 1 && pp == 1 && c.replicas == 1) {
        TuneCandidate d = c;
        d.dp_attention = true;
        d.ep = 1;
        s.layouts.push_back(d);
        if (moe && m.num_experts % tp == 0) {
          d.ep = tp;
          s.layouts.push_back(d);
        }
      }
    }
  }
  if (s.layouts.empty()) {
    throw InputError(fmt::format("no tensor-parallel size up to {} divides the {} attention heads",
                                 req.gpus, m.num_attention_heads));
  }
  s.mfs = {0, 0.70, 0.75, 0.80, 0.85, 0.88, 0.90, 0.93};
  s.cuda_graph_max_bs = {32, 64, 128, 256, 512};
  s.kv_fp8 = {false, true};
  s.chunked_prefill = {2048, 4096, 8192, 16384};
  s.specs = {TuneSpec{}};
  if (req.draft) {
    for (int steps : {1, 3, 5}) s.specs.push_back({SpecAlgorithm::kEagle3, steps, 1, steps + 1});
  } else if (m.num_nextn_predict_layers > 0) {
    for (int steps : {1, 2, 3}) s.specs.push_back({SpecAlgorithm::kNextn, steps, 1, steps + 1});
  }
  return s;
}

namespace {

// The three passes over the grid (see RunTune), filling `results`.
void SearchGrid(const TuneRequest& req, const TuneSpace& s, const TimeSetup& t, int threads,
                std::atomic<int64_t>* done, std::vector<TuneResult>* results) {
  const int64_t n = s.Size();
  std::vector<MemPoint> mem(static_cast<size_t>(n));
  const int64_t keys = n / static_cast<int64_t>(s.mfs.size());
  std::vector<MemFacts> facts(static_cast<size_t>(keys));
  ParallelFor(n, threads, done, [&](int64_t i) {
    const Index x = Decompose(s, i);
    const TuneCandidate c = Candidate(s, x);
    if (x.mfs == 0) {
      facts[KeyOf(s, x)] = PlanMemoryFacts(req.sglang_version, req.model, req.gpu,
                                           ArgsFor(req, s, c), DraftFor(req, s, c));
    }
  });
  ParallelFor(n, threads, done, [&](int64_t i) {
    const Index x = Decompose(s, i);
    const MemFacts& f = facts[KeyOf(s, x)];
    if (x.mfs != 0 && !f.replayable) {
      const TuneCandidate c = Candidate(s, x);
      mem[i] = PlanMemoryPoint(req.sglang_version, req.model, req.gpu, ArgsFor(req, s, c),
                               DraftFor(req, s, c));
    }
  });
  ParallelFor(n, threads, done, [&](int64_t i) {
    const Index x = Decompose(s, i);
    const MemFacts& f = facts[KeyOf(s, x)];
    const MemPoint m = x.mfs == 0     ? f.at_auto
                       : f.replayable ? ReplayMemory(f, s.mfs[x.mfs])
                                      : mem[i];
    Evaluate(req, s, t, x, m, &(*results)[i]);
  });
}

// Runs `search` on its own thread, calling `progress` a few times a second.
void WithProgress(const std::function<void()>& search, std::atomic<int64_t>* done, int64_t total,
                  const std::function<void(int64_t, int64_t)>& progress) {
  std::mutex mu;
  std::condition_variable cv;
  bool finished = false;
  std::thread work([&] {
    search();
    const std::lock_guard<std::mutex> lock(mu);
    finished = true;
    cv.notify_one();
  });
  std::unique_lock<std::mutex> lock(mu);
  while (!cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return finished; })) {
    progress(done->load(), total);
  }
  lock.unlock();
  work.join();
}

// The ranked list, the Pareto front and, when nothing fits, why.
void RankResults(const std::vector<TuneResult>& results, TuneReport* rep) {
  std::vector<TuneResult> ok;
  for (const TuneResult& r : results) {
    if (r.verdict == TuneVerdict::kOk) ok.push_back(r);
  }
  rep->feasible = static_cast<int64_t>(ok.size());
  // Best throughput first; among equals the lower latency, then the larger
  // KV cache (headroom for bursts), then the smaller graph capture.
  std::sort(ok.begin(), ok.end(), [](const TuneResult& a, const TuneResult& b) {
    if (a.tokens_per_s != b.tokens_per_s) return a.tokens_per_s > b.tokens_per_s;
    if (a.tpot_ms != b.tpot_ms) return a.tpot_ms < b.tpot_ms;
    if (a.ttft_ms != b.ttft_ms) return a.ttft_ms < b.ttft_ms;
    if (a.kv_tokens != b.kv_tokens) return a.kv_tokens > b.kv_tokens;  // more headroom
    return a.c.cuda_graph_max_bs < b.c.cuda_graph_max_bs;
  });
  rep->pareto = ParetoFront(ok);
  if (ok.size() > 20) ok.resize(20);
  rep->ranked = std::move(ok);
  if (rep->feasible == 0) {
    int64_t counts[5] = {};
    for (const TuneResult& r : results) ++counts[static_cast<int>(r.verdict)];
    rep->notes.push_back(fmt::format(
        "no configuration meets the constraints: {} refused by the planner, {} without room for "
        "CUDA graphs, {} short of the concurrency, {} over the latency limits",
        counts[1], counts[2], counts[3], counts[4]));
  }
}

}  // namespace

std::vector<TuneResult> EvaluateTuneGrid(const TuneRequest& req, const TuneSpace& s,
                                         const std::function<void(int64_t, int64_t)>& progress) {
  const int64_t n = s.Size();
  const int threads = req.threads > 0
                          ? req.threads
                          : std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<TuneResult> results(static_cast<size_t>(n));
  TimeSetup t;
  FillTimeSetup(req, s, &t);
  std::atomic<int64_t> done{0};
  // Phase 1 plans memory with SGLang's planner: once per launch at the
  // automatic fraction, and per candidate where the replay does not apply.
  // Phase 2 replays the other fractions and times each candidate without
  // allocating. Progress counts all three passes (3n steps).
  auto search = [&] { SearchGrid(req, s, t, threads, &done, &results); };
  if (!progress) {
    search();
  } else {
    WithProgress(search, &done, 3 * n, progress);
  }
  if (progress) progress(3 * n, 3 * n);
  return results;
}

TuneReport RunTune(const TuneRequest& req, const std::function<void(int64_t, int64_t)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  const TuneSpace s = MakeTuneSpace(req);
  const int64_t n = s.Size();
  const std::vector<TuneResult> results = EvaluateTuneGrid(req, s, progress);
  TuneReport rep;
  rep.evaluated = n;
  RankResults(results, &rep);
  rep.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return rep;
}

const char* TuneVerdictName(TuneVerdict v) {
  switch (v) {
    case TuneVerdict::kOk:
      return "ok";
    case TuneVerdict::kPlannerError:
      return "planner refuses";
    case TuneVerdict::kSlackTooSmall:
      return "no room for CUDA graphs";
    case TuneVerdict::kConcurrency:
      return "KV cache too small for the concurrency";
    case TuneVerdict::kLatency:
      return "over the latency limit";
  }
  return "?";
}

std::vector<std::string> LaunchFlags(const TuneRequest& req, const TuneSpace& s,
                                     const TuneCandidate& c) {
  const TuneSpec& sp = s.specs[c.spec];
  std::vector<std::string> a;
  // Each flag as the planned release spells it (engines/common/suggested_flags.h); "" for a
  // flag without a value.
  auto add = [&](std::string_view flag, std::string value) {
    a.push_back(SglangFlagToWrite(req.sglang_version, flag));
    if (!value.empty()) a.push_back(std::move(value));
  };
  add("--model-path", req.model.id);
  add("--tp-size", std::to_string(c.tp));
  if (c.dp_attention) {
    add("--dp-size", std::to_string(c.tp));
    add("--enable-dp-attention", "");
  }
  if (!c.dp_attention && c.replicas > 1) add("--dp-size", std::to_string(c.replicas));
  if (c.pp > 1) add("--pp-size", std::to_string(c.pp));
  if (c.ep > 1) add("--ep-size", std::to_string(c.ep));
  if (c.mfs > 0) add("--mem-fraction-static", fmt::format("{}", c.mfs));
  add("--cuda-graph-max-bs", std::to_string(c.cuda_graph_max_bs));
  if (c.kv_fp8) add("--kv-cache-dtype", "fp8_e4m3");
  add("--chunked-prefill-size", std::to_string(c.chunked_prefill));
  if (!req.attention_backend.empty()) add("--attention-backend", req.attention_backend);
  if (sp.algorithm != SpecAlgorithm::kNone) {
    add("--speculative-algorithm", SpecAlgorithmName(sp.algorithm));
    if (!req.draft_path.empty()) add("--speculative-draft-model-path", req.draft_path);
    add("--speculative-num-steps", std::to_string(sp.steps));
    add("--speculative-eagle-topk", std::to_string(sp.topk));
    add("--speculative-num-draft-tokens", std::to_string(sp.draft_tokens));
  }
  return a;
}

std::string LaunchCommand(const TuneRequest& req, const TuneSpace& s, const TuneResult& r) {
  const bool spec = s.specs[r.c.spec].algorithm != SpecAlgorithm::kNone;
  std::string cmd = fmt::format("{}python -m sglang.launch_server",
                                spec && req.sglang_spec_v2 ? "SGLANG_ENABLE_SPEC_V2=1 " : "");
  for (const std::string& word : LaunchFlags(req, s, r.c)) cmd += " " + word;
  return cmd;
}

}  // namespace kvplan
