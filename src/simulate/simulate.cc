// kvplan::Simulate (kvplan/simulate.h): the launch planned as `kvplan plan`
// plans it, its KV pool and request limits handed to the engine's scheduler,
// each step timed by the performance model, the workload run to its end.
#include <algorithm>
#include <charconv>
#include <optional>
#include <string_view>

#include <fmt/format.h>

#include "base/checked_math.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "engines/engine.h"
#include "engines/sglang/cell.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/stages.h"
#include "engines/vllm/stages.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"
#include "kvplan/simulate.h"
#include "perf/efficiency_options.h"
#include "simulate/accept_sampler.h"
#include "simulate/batch_step_time.h"
#include "simulate/calibration.h"
#include "simulate/sglang_scheduler.h"
#include "simulate/simulator.h"
#include "simulate/vllm_graphs.h"
#include "simulate/vllm_scheduler.h"
#include "simulate/workload.h"

namespace kvplan {
namespace {

// Engine flags whose effect the simulation does not model: refused rather
// than ignored, so a result never silently describes another launch.
constexpr std::string_view kUnmodelled[] = {"--pp",
                                            "--pp-size",
                                            "--pipeline-parallel-size",
                                            "-pp",
                                            "--enable-mixed-chunk",
                                            "--num-scheduler-steps",
                                            "--enable-overlap-schedule"};

void RefuseUnmodelled(const PlanRequest& launch) {
  for (const std::string& arg : launch.args) {
    const std::string_view flag = std::string_view(arg).substr(0, arg.find('='));
    for (std::string_view u : kUnmodelled) {
      const bool prefix = u.back() == '-';
      if (prefix ? flag.starts_with(u) : flag == u) {
        throw InputError(fmt::format(
            "kvplan simulate does not model {} yet (pipeline parallelism, mixed chunks, "
            "multi-step scheduling)",
            std::string(flag)));
      }
    }
  }
}

double FigureOr(const PlanResult& p, const std::string& key, double fallback) {
  const Figure* f = p.FindFigure(key);
  return f ? f->value : fallback;
}

std::string SettingOr(const PlanResult& p, const std::string& flag, const std::string& fallback) {
  for (const Setting& s : p.settings) {
    if (s.flag == flag) return s.value;
  }
  return fallback;
}

PlanResult PlanOrFail(const PlanRequest& launch) {
  if (launch.engine != "sglang" && launch.engine != "vllm") {
    throw InputError(fmt::format(
        "--engine {}: kvplan simulate models the sglang and vllm schedulers", launch.engine));
  }
  PlanResult plan = PlanLaunch(launch);
  if (plan.engine == "vllm" && plan.era.starts_with("V0")) {
    throw InputError(
        fmt::format("kvplan simulate models vLLM's V1 scheduler; vllm@{} runs the V0 engine ({})",
                    plan.engine_version, plan.era));
  }
  if (!plan.ok) throw SimulateLaunchFails(plan.error_message);
  return plan;
}

// The value of an engine flag the planner does not read (`--flag V` or `--flag=V`), if the
// launch sets it.
std::optional<std::string> FlagValue(const PlanRequest& launch, std::string_view flag) {
  const std::vector<std::string>& a = launch.args;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] == flag && i + 1 < a.size()) return a[i + 1];
    if (a[i].starts_with(std::string(flag) + "=")) return a[i].substr(flag.size() + 1);
  }
  return std::nullopt;
}

// The integer value of such a flag, or `fallback` when the launch does not set it.
int64_t IntFlagOr(const PlanRequest& launch, std::string_view flag, int64_t fallback) {
  const std::optional<std::string> value = FlagValue(launch, flag);
  if (!value) return fallback;
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(value->data(), value->data() + value->size(), v);
  if (ec != std::errc() || end != value->data() + value->size() || v < 1 || v > kMaxInputCount) {
    throw InputError(fmt::format("{} takes a whole number from 1 to {}, got '{}'",
                                 std::string(flag), kMaxInputCount, *value));
  }
  return v;
}

// The launch's layout as the engine's own planner reads it (SglangParallelism,
// VllmParallelism), for the step time and the schedulers; what the simulation
// cannot run is refused in one line.
Parallelism LaunchParallelism(const PlanRequest& launch, const PlanResult& plan) {
  if (plan.engine == "vllm") {
    const Parallelism par = VllmParallelism(ParseVllmArgs(launch.args, plan.engine_version));
    if (par.dp > 1) {
      // vllm/v1/engine/core_client.py DPLBAsyncMPClient: the API server places requests on its
      // engines by their published queue lengths, which the simulation does not reproduce.
      throw InputError(fmt::format(
          "--data-parallel-size {}: vLLM's DP load balancer is not modelled; simulate one "
          "engine at 1/{} of the load",
          par.dp, par.dp));
    }
    return par;
  }
  Parallelism par = SglangParallelism(ParseSglangArgs(launch.args, plan.engine_version));
  // DP attention as the engine runs it (the plan): a DeepSeek DSA model's forced DP attention
  // and dp_size (engines/sglang/dsa_overrides.h) replace the typed flags.
  par.dp_attention = plan.dp_attention;
  if (plan.dp_attention) par.dp = std::max(1, plan.kv_scope.pools);
  if (par.dp > 1 && !par.dp_attention) {
    throw InputError(
        fmt::format("--dp-size {} without --enable-dp-attention (whole replicas): simulate one "
                    "at 1/{} of the load",
                    par.dp, par.dp));
  }
  // server_args.py: --load-balance-method round_robin (the default; "auto" from v0.5.8, which
  // is round_robin outside PD disaggregation)
  const std::optional<std::string> lb = FlagValue(launch, "--load-balance-method");
  if (par.dp > 1 && lb && *lb != "round_robin" && *lb != "auto") {
    throw InputError(fmt::format(
        "--load-balance-method {}: kvplan simulate deals requests round robin (expected "
        "round_robin or auto)",
        *lb));
  }
  return par;
}

// vLLM replays the decode graphs of its own capture sizes (vllm_graphs.h).
void UseVllmCaptureSizes(const PlanRequest& launch, const PlanResult& plan, BatchStepTimer* t) {
  const VllmArgs a = ParseVllmArgs(launch.args, plan.engine_version);
  t->UseCaptureSizes(VllmLaunchCaptureSizes(VllmGraphSizingOf(
      launch.args, plan.max_running_requests,
      static_cast<int64_t>(FigureOr(plan, "max_num_batched_tokens", 8192)), a.enforce_eager)));
}

// vLLM's --speculative-config method as perf's algorithm.
SpecAlgorithm VllmSpecAlgorithm(const std::string& method) {
  if (method == "eagle") return SpecAlgorithm::kEagle;
  if (method == "eagle3") return SpecAlgorithm::kEagle3;
  if (method == "mtp" || method.ends_with("_mtp")) return SpecAlgorithm::kNextn;
  if (method == "draft_model") return SpecAlgorithm::kStandalone;
  throw InputError(
      fmt::format("--speculative-config method '{}': kvplan simulate models eagle, eagle3, mtp and "
                  "draft_model (a draft that runs on the GPU)",
                  method));
}

// The launch's speculative settings as perf takes them: SGLang's resolved by
// its own rule (ResolveSglangSpec), vLLM's num_speculative_tokens as a chain.
void SetSpeculation(const SimulateQuery& q, const PlanResult& plan, PerfRequest* r) {
  std::string draft;
  if (plan.engine == "vllm") {
    const VllmArgs a = ParseVllmArgs(q.launch.args, plan.engine_version);
    if (!a.speculative) return;
    r->spec_engine = SpecEngine::kVllm;
    r->spec.algorithm = VllmSpecAlgorithm(a.speculative->method);
    r->spec.num_steps = static_cast<int>(a.speculative->num_speculative_tokens);
    r->spec.num_draft_tokens = r->spec.num_steps + 1;
    draft = a.speculative->model;
  } else {
    const SglangArgs a = ParseSglangArgs(q.launch.args, plan.engine_version);
    if (a.speculative_algorithm.empty()) return;
    auto narrow = [](std::optional<int64_t> v) {
      return v ? std::optional<int>(static_cast<int>(*v)) : std::nullopt;
    };
    r->spec = ResolveSglangSpec(ParseSpecAlgorithm(a.speculative_algorithm), r->model.architecture,
                                narrow(a.speculative_num_steps), narrow(a.speculative_eagle_topk),
                                narrow(a.speculative_num_draft_tokens), plan.engine_version);
    r->spec.sglang_spec_v2 = q.spec_v2;
    draft = a.speculative_draft_model_path;
  }
  if (!draft.empty() && r->spec.algorithm != SpecAlgorithm::kNextn) r->draft = LoadModel(draft);
  if (q.accept_length) {
    const int depth = SpecChainDepth(r->spec);
    if (!(*q.accept_length >= 1.0 && *q.accept_length <= depth + 1.0)) {
      throw InputError(
          fmt::format("--accept-length {} must be between 1 and {} (the {} draft "
                      "tokens a step can accept + the bonus token)",
                      *q.accept_length, depth + 1, depth));
    }
    r->spec.accept_length = q.accept_length;
  }
}

// The performance model's request for the planned launch: its model, GPU,
// tensor parallelism and KV dtype; graph sizes as `kvplan perf` resolves them;
// the speculative settings.
PerfRequest PerfRequestOf(const SimulateQuery& q, const PlanResult& plan, const PlanContext& ctx) {
  const PlanRequest& launch = q.launch;
  const Efficiency& eff = q.eff;
  PerfRequest r;
  r.model = LoadModel(ctx.model);
  r.gpu = GpuWithCapacity(launch.gpu, launch.gpu_capacity_mib);
  RequireStepTimeFigures(r.gpu, "kvplan simulate");
  r.par = LaunchParallelism(launch, plan);
  r.par.tp = std::max(1, r.par.tp);
  r.topology = DefaultTopology(r.gpu);
  r.kv_bytes_per_elem = SglangKvElementBytes(SettingOr(plan, "--kv-cache-dtype", "auto"), r.model);
  if (launch.engine == "sglang") r.sglang_version = plan.engine_version;
  const SglangLaunchDefaults d = SglangLaunchDefaultsOf(r);
  r.cuda_graph_max_bs = static_cast<int>(FigureOr(plan, "cuda_graph_max_bs", d.cuda_graph_max_bs));
  r.eff = CheckedEfficiency(eff);
  SetSpeculation(q, plan, &r);
  if (r.spec.algorithm == SpecAlgorithm::kNone && (q.accept_length || q.spec_v2)) {
    throw InputError(fmt::format(
        "{} needs a speculative launch ({})", q.accept_length ? "--accept-length" : "--spec-v2",
        plan.engine == "vllm" ? "--speculative-config" : "--speculative-algorithm"));
  }
  if (q.spec_v2 && plan.engine == "vllm") throw InputError("--spec-v2 is an SGLang setting");
  return r;
}

// Whether the engine caches prompt prefixes for this launch.
bool PrefixCachingOn(const PlanRequest& launch, const PlanResult& plan) {
  if (plan.engine == "vllm") {
    // vllm/engine/arg_utils.py _set_default_args_v1 @v0.8.5: "V1 enables prefix caching by
    // default" (None -> True); data/flags/vllm/ keeps the flag's default None to 0.23.0
    return ParseVllmArgs(launch.args, plan.engine_version).enable_prefix_caching.value_or(true);
  }
  // server_args.py (v0.4-v0.5): disable_radix_cache default False
  return !ParseSglangArgs(launch.args, plan.engine_version).disable_radix_cache;
}

// SGLang's --schedule-policy: fcfs (server_args.py default, v0.4-v0.5) or lpm;
// the others reorder the queue in ways kvplan does not model.
bool SglangLongestPrefixFirst(const PlanRequest& launch, const PlanResult& plan) {
  const std::string policy = FlagValue(launch, "--schedule-policy").value_or("fcfs");
  if (policy != "fcfs" && policy != "lpm") {
    throw InputError(fmt::format(
        "--schedule-policy {}: kvplan simulate models fcfs (the default) and lpm", policy));
  }
  // schedule_policy.py _validate_and_adjust_policy (v0.5): lpm without the radix cache is fcfs
  return policy == "lpm" && PrefixCachingOn(launch, plan);
}

// One scheduler's limits (under DP attention, one rank's: the plan's request limit and
// chunk are per rank).
SglangSchedulerLimits SglangLimitsOf(const PlanRequest& launch, const PlanResult& plan,
                                     const Parallelism& par) {
  SglangSchedulerLimits l;
  l.longest_prefix_first = SglangLongestPrefixFirst(launch, plan);
  l.max_running_requests = plan.max_running_requests;
  l.chunked_prefill_size = static_cast<int64_t>(FigureOr(plan, "chunked_prefill_size", 8192));
  l.max_prefill_tokens = ParseSglangArgs(launch.args, plan.engine_version)
                             .max_prefill_tokens.value_or(l.max_prefill_tokens);
  l.scheduler_recv_interval = IntFlagOr(launch, "--scheduler-recv-interval", 1);
  // server_args.py _handle_data_parallelism (v0.4.6 onward): under DP attention
  // schedule_conservativeness = schedule_conservativeness * 0.3
  if (par.dp_attention && par.dp > 1) l.schedule_conservativeness *= 0.3;
  return l;
}

bool HasFlag(const PlanRequest& launch, std::string_view flag) {
  return std::any_of(launch.args.begin(), launch.args.end(),
                     [flag](const std::string& a) { return a == flag; });
}

// vLLM's --async-scheduling / --no-async-scheduling, the last one given (argparse's
// BooleanOptionalAction); the release's flag table refuses them where its parser lacks them.
std::optional<bool> VllmAsyncFlag(const PlanRequest& launch) {
  std::optional<bool> given;
  for (const std::string& a : launch.args) {
    if (a == "--async-scheduling") given = true;
    if (a == "--no-async-scheduling") given = false;
  }
  return given;
}

// Whether the engine chooses each step's batch while the previous one runs.
// SGLang: the overlap scheduler, on by default from v0.4 (server_args.py
// disable_overlap_schedule; scheduler.py event_loop_overlap launches batch N,
// then processes batch N-1's results, then receives and schedules N+1);
// vLLM: async scheduling (VllmSchedulesAhead).
bool SchedulesAhead(const PlanRequest& launch, const PlanResult& plan, const SpecConfig& spec) {
  if (plan.engine == "vllm") return VllmSchedulesAhead(plan.engine_version, VllmAsyncFlag(launch));
  // server_args.py @v0.5.6: "Overlap scheduler is disabled because of using eagle3 or standalone
  // speculative decoding" unless SGLANG_ENABLE_SPEC_V2 (perf's sglang_spec_v2)
  if (spec.algorithm != SpecAlgorithm::kNone && !spec.sglang_spec_v2) return false;
  std::string canonical;
  int64_t key = 0;
  SglangEraFor(plan.engine_version, &canonical, &key);
  return key >= SglangVersionKey(0, 4, 0) && !HasFlag(launch, "--disable-overlap-schedule");
}

struct EngineSetup {
  std::unique_ptr<EngineScheduler> scheduler;
  // SGLang DP attention: one more scheduler per further DP rank (the plan's
  // pool and request limit are one rank's, tokens.cc SglangRunningOf).
  std::vector<std::unique_ptr<EngineScheduler>> more_ranks;
  KvPool kv;
};

EngineSetup SetupEngine(const PlanRequest& launch, const PlanResult& plan, const PerfRequest& perf,
                        SimulateResult* out) {
  const SpecConfig& spec = perf.spec;
  const bool speculative = spec.algorithm != SpecAlgorithm::kNone;
  EngineSetup e;
  out->max_running_requests = plan.max_running_requests;
  if (plan.engine == "vllm") {
    VllmSchedulerLimits l;
    l.max_num_batched_tokens = static_cast<int64_t>(FigureOr(plan, "max_num_batched_tokens", 8192));
    l.max_num_seqs = plan.max_running_requests;
    if (speculative) l.num_spec_tokens = spec.num_steps;
    e.kv.page_tokens = static_cast<int64_t>(FigureOr(plan, "block_size", 16));
    e.kv.total_pages = VllmUsableBlocks(static_cast<int64_t>(FigureOr(plan, "num_gpu_blocks", 0)));
    out->token_budget = l.max_num_batched_tokens;
    e.scheduler = std::make_unique<VllmScheduler>(l);
  } else {
    SglangSchedulerLimits l = SglangLimitsOf(launch, plan, perf.par);
    // scheduler.py (v0.5) decode_mem_cache_buf_multiplier
    if (speculative)
      l.decode_reserve_tokens = spec.num_draft_tokens + spec.eagle_topk * spec.num_steps;
    e.kv.page_tokens = std::max<int64_t>(1, static_cast<int64_t>(FigureOr(plan, "page_size", 1)));
    e.kv.total_pages = plan.max_total_num_tokens / e.kv.page_tokens;
    out->token_budget = l.chunked_prefill_size;
    e.scheduler = std::make_unique<SglangScheduler>(l);
    // managers/data_parallel_controller.py launch_dp_attention_schedulers: a scheduler per rank
    if (perf.par.dp_attention) out->dp_ranks = std::max(1, perf.par.dp);
    for (int i = 1; i < out->dp_ranks; ++i)
      e.more_ranks.push_back(std::make_unique<SglangScheduler>(l));
  }
  e.kv.free_pages = e.kv.total_pages;
  out->kv_tokens = e.kv.total_pages * e.kv.page_tokens;
  out->page_size = e.kv.page_tokens;
  return e;
}

// Prefix caching on a model with recurrent-state layers keeps states per cached
// prefix (SGLang's mamba radix cache, vLLM's mamba_cache_mode), which the
// simulation's one token pool does not hold.
void RequireAttentionOnly(const ModelSpec& model, const std::string& engine) {
  if (model.NumLayersOfKind(LayerKind::kLinear) == 0) return;
  throw InputError(fmt::format(
      "kvplan simulate does not model prefix caching on {} (recurrent-state layers); pass {} "
      "or a workload without shared prefixes",
      model.architecture,
      engine == "vllm" ? "--no-enable-prefix-caching" : "--disable-radix-cache"));
}

// The workload's defaults, declared: 1,000 requests (the benchmark clients'
// default --num-prompts) unless a duration or a trace ends the run.
WorkloadSpec ResolveWorkload(const WorkloadSpec& w, SimulateResult* out) {
  WorkloadSpec r = w;
  if (r.trace.empty() && !r.num_requests && !r.duration_s) {
    r.num_requests = 1000;
    out->assumed.push_back(
        {"num_requests", "1000", "", "sglang.bench_serving / vllm bench serve --num-prompts"});
  }
  return r;
}

std::string NotModelledNote(bool prefixes) {
  return prefixes ? "Not modelled: CUDA graphs for prefill and mixed steps (run eagerly); "
                    "prefix-cache hits on tokens past a request's group prefix."
                  : "Not modelled: prefix-cache hits (requests share no prefix), CUDA graphs for "
                    "prefill and mixed steps (run eagerly).";
}

void AddNotes(const WorkloadSpec& w, const BatchStepTimer& timer, const SimCalibration& cal,
              SimulateResult* out) {
  if (w.trace.empty() && (w.rate || w.input.dist != "fixed" || w.output.dist != "fixed") &&
      !w.seed) {
    out->assumed.push_back({"seed", "0", "", "kvplan's default random seed"});
  }
  out->cuda_graph_batch = timer.largest_graphed_batch();
  out->notes.push_back(NotModelledNote(out->prefix_workload));
  if (out->dp_ranks > 1) {
    // layers/dp_attention.py DpPaddingMode (SGLang v0.5): decode steps gather every rank's tokens
    // padded to the largest rank's (MAX_LEN) when that costs less than the sum; a step with a
    // prefill gathers their sum (SUM_LEN).
    out->notes.push_back(fmt::format(
        "DP attention: {} schedulers dealt requests round robin; a step runs every rank at the "
        "busiest rank's batch (SGLang pads decode steps to the largest rank; a step with a "
        "prefill gathers only the ranks' sum, so its MoE layers take less than modelled).",
        out->dp_ranks));
  }
  if (cal.decode_scale != 1 || cal.step_fixed_us != 0 || cal.admission_us != 0) {
    out->notes.push_back(fmt::format(
        "Calibrated on measured runs (docs/SIMULATOR_VALIDATION.md; --calib-* flags): decode "
        "steps x{:g}, {:g} ms more per step, {:g} ms from sending a request to the scheduler.",
        cal.decode_scale, cal.step_fixed_us / 1000, cal.admission_us / 1000));
  } else if (*cal.outside_fit != '\0') {
    out->notes.push_back(
        fmt::format("Not calibrated: {} (docs/SIMULATOR_VALIDATION.md); --calib-* flags set them.",
                    cal.outside_fit));
  }
  if (out->engine == "vllm") {
    out->notes.push_back(
        timer.largest_graphed_batch() == 0
            ? "vLLM: no CUDA graphs (--enforce-eager or no capture size fits): every step runs "
              "eagerly."
            : fmt::format("vLLM: a decode batch replays the CUDA graph of the next of its capture "
                          "sizes (the largest {}); a larger batch runs eagerly.",
                          timer.largest_graphed_batch()));
  }
}

// The acceptance draws' own stream: the workload's seed, offset so that the
// lengths a seed gives do not change with speculation.
uint64_t SpecSeed(const WorkloadSpec& w) {
  constexpr uint64_t kSpecStream = 0x5bd1e995;
  return static_cast<uint64_t>(w.seed.value_or(0)) ^ kSpecStream;
}

void AddSpecNotes(const PerfRequest& perf, const BatchStepTimer& timer, SimulateResult* out) {
  const SpecConfig& s = perf.spec;
  out->speculative =
      fmt::format("{} steps {} topk {} draft tokens {}", SpecAlgorithmName(s.algorithm),
                  s.num_steps, s.eagle_topk, s.num_draft_tokens);
  out->accept_length = timer.accept_length();
  out->cuda_graph_batch = timer.spec_largest_graphed_batch();
  for (const std::string& n : timer.spec_notes()) out->notes.push_back("kvplan perf: " + n);
  out->notes.push_back(fmt::format(
      "Speculative decoding: each request gains 1 to {} tokens a step, a chain accepting each "
      "draft token with probability {:.3f} given the ones before (mean {:.2f}).",
      SpecChainDepth(s) + 1, ChainTokenAcceptance(out->accept_length, SpecChainDepth(s)),
      out->accept_length));
  out->notes.push_back(
      perf.spec_engine == SpecEngine::kVllm
          ? "Not modelled: the draft's pass over each prompt; a step mixing prefill and decode "
            "takes the plain mixed step plus what speculation adds to its decode part."
          : "Not modelled: the draft's pass over each prompt (SGLang's draft extend after a "
            "prefill).");
}

}  // namespace

SimulateResult Simulate(const SimulateQuery& q) {
  RefuseUnmodelled(q.launch);
  SimulateResult out;
  const WorkloadSpec spec = ResolveWorkload(q.workload, &out);
  Workload workload(spec);
  const PlanResult plan = PlanOrFail(q.launch);
  out.launch = PlanContextOf(q.launch, plan);
  out.engine = plan.engine;
  out.engine_version = plan.engine_version;
  // The release is declared as every verb declares it (kvplan perf's "engine" assumption).
  if (q.launch.version.empty() && q.launch.pasted_release.empty()) {
    out.assumed.push_back({"engine", plan.engine + "@" + plan.engine_version, "",
                           "the newest release kvplan models"});
  } else if (q.launch.version.empty()) {
    out.notes.push_back(fmt::format("Release {} read from {}.", plan.engine_version,
                                    q.launch.pasted_release_source));
  }
  out.workload = workload.Describe();
  out.prefix_workload = spec.HasPrefixes();
  const PerfRequest perf = PerfRequestOf(q, plan, out.launch);
  EngineSetup engine = SetupEngine(q.launch, plan, perf, &out);
  BatchStepTimer timer(perf);
  if (plan.engine == "vllm") UseVllmCaptureSizes(q.launch, plan, &timer);
  const SimCalibration cal =
      SimCalibrationFor(plan.engine, plan.engine_version,
                        EstimateWeights(perf.model, Parallelism{}).total_params, q.calib);
  AddNotes(spec, timer, cal, &out);
  SimulatorSetup setup;
  setup.kv = engine.kv;
  setup.max_request_tokens = out.kv_tokens;
  if (plan.context_length > 0)
    setup.max_request_tokens = std::min(out.kv_tokens, plan.context_length);
  setup.scheduler = engine.scheduler.get();
  if (!engine.more_ranks.empty()) {
    setup.dp_ranks.push_back(engine.scheduler.get());
    for (const auto& rank : engine.more_ranks) setup.dp_ranks.push_back(rank.get());
  }
  const VllmStepHost host = plan.engine == "vllm"
                                ? VllmStepHostOf(plan.engine_version, VllmAsyncFlag(q.launch))
                                : VllmStepHost{};
  setup.step_us = [&timer, host, cal](const BatchShape& b) {
    const double scale = b.prefill > 0 ? 1.0 : cal.decode_scale;
    const double us = timer.speculative() && b.decode > 0 ? timer.SpecStepUs(b) : timer.StepUs(b);
    return us * scale + cal.step_fixed_us + host.Us(b.decode + b.prefill);
  };
  std::optional<AcceptSampler> accept;
  if (timer.speculative()) {
    accept.emplace(timer.accept_length(), SpecChainDepth(perf.spec), SpecSeed(q.workload));
    setup.accepted_tokens = [&accept] { return accept->Draw(); };
    AddSpecNotes(perf, timer, &out);
  }
  setup.admission_us = cal.admission_us;
  setup.workload = &workload;
  setup.on_request = q.on_request;
  setup.schedules_ahead = SchedulesAhead(q.launch, plan, perf.spec);
  setup.prefix_caching = PrefixCachingOn(q.launch, plan);
  if (out.prefix_workload && setup.prefix_caching) RequireAttentionOnly(perf.model, plan.engine);
  RunSimulation(setup, &out);
  if (workload.HasPrefixes() && !out.prefix_workload) {
    // A trace's prefix_group column, seen as it was read.
    out.prefix_workload = true;
    if (setup.prefix_caching) RequireAttentionOnly(perf.model, plan.engine);
    std::replace(out.notes.begin(), out.notes.end(), NotModelledNote(false), NotModelledNote(true));
  }
  return out;
}

}  // namespace kvplan
