// The SGLang start-up pipeline common to every era, as a sequence of stages
// (engines/sglang/stages.h): launch, settings, weights, budget, cell, tokens,
// verdict, running requests, graphs and slack, then the texts and the fixes.
// Where releases differ, the era (engines/sglang/era.h) decides.
#include <fmt/core.h>

#include "base/format.h"
#include "engines/sglang/fixes.h"
#include "engines/sglang/sglang.h"
#include "engines/sglang/stages.h"

namespace kvplan {
namespace {

// The plan of a launch the engine refuses before it sizes the KV cache, with
// the engine's message; the header still names every GPU of the replica.
PlanResult Refused(const SglangLaunch& l, PlanResult r, const GpuSpec& gpu, std::string message) {
  r.ok = false;
  r.error_message = std::move(message);
  r.gpu_total_bytes = gpu.total_bytes;
  // A DeepSeek DSA release that forces the fraction (dsa_overrides.h) replaces the typed one.
  r.fraction = l.dsa.mem_fraction_forced ? l.dsa.row->mem_fraction_static
                                         : l.args.mem_fraction_static.value_or(0);
  r.fraction_user = l.args.mem_fraction_static.has_value() && !l.dsa.mem_fraction_forced;
  r.figures.push_back({"gpus_per_replica", static_cast<double>(l.args.tp * l.args.pp), ""});
  return r;
}

// The plan of a launch the engine cannot shard: it stops while loading.
PlanResult ShardingFailure(const SglangLaunch& l, PlanResult r, const GpuSpec& gpu, bool explain) {
  const std::vector<std::string>& problems = l.sharding_problems;
  r = Refused(l, std::move(r), gpu, problems.front());
  if (explain) r.warnings.insert(r.warnings.end(), problems.begin() + 1, problems.end());
  return r;
}

// Estimated weights larger than the memory free before loading: torch runs out
// of memory while the model loader fills them (the allocator's own figures are
// not knowable, so kvplan states its own).
PlanResult LoadFailure(const SglangLaunch& l, PlanResult r, const GpuSpec& gpu,
                       const SglangWeights& w) {
  r = Refused(l, std::move(r), gpu,
              fmt::format("{} the weights (kvplan: {} of weights per GPU, {} free before "
                          "loading)",
                          kSglangLoadOomPrefix, FormatGiB(w.weights), FormatGiB(w.pre_load_free)));
  r.pre_load_free_bytes = w.pre_load_free;
  r.weights_bytes_per_gpu = w.weights;
  return r;
}

// The numbers of PlanResult, from the stages.
void FillNumbers(const SglangStages& s, const GpuSpec& gpu, PlanResult* r) {
  r->ok = s.verdict.ok;
  r->error_message = s.verdict.error_message;
  r->fraction = s.settings.mem_fraction_static;
  r->fraction_user =
      s.launch.args.mem_fraction_static.has_value() && !s.launch.dsa.mem_fraction_forced;
  r->context_length = s.settings.context_length;
  r->gpu_total_bytes = gpu.total_bytes;
  r->pre_load_free_bytes = s.weights.pre_load_free;
  r->post_load_free_bytes = s.weights.post_load_free;
  r->weights_bytes_per_gpu = s.weights.weights;
  r->rest_memory_bytes = s.budget.rest_bytes;
  r->cell_size_bytes = s.cell.bytes;
  r->max_total_num_tokens = s.tokens.tokens;
  r->max_running_requests = s.running.max_running_requests;
}

}  // namespace

PlanResult PlanSglang(const std::string& version, const ModelSpec& model, const GpuSpec& gpu,
                      const SglangArgs& args_in, const SglangMeasured& measured,
                      const ModelSpec* draft, const SglangPlanOptions& opts) {
  const bool explain = opts.explain;
  SglangStages s;
  s.launch = SglangLaunchOf(version, model, gpu, args_in, draft);
  const SglangLaunch& l = s.launch;
  PlanResult r;
  r.engine = "sglang";
  r.engine_version = l.version;
  r.era = l.era->id;
  r.fraction_name = "mem_fraction_static";
  // model_runner.py @v0.4.6 profile_max_num_token: a pool per attention-TP group (tp / dp with DP
  // attention), one per DP replica without it.
  r.kv_scope = KvScopeOf(l.args.tp * l.args.pp / (l.args.enable_dp_attention ? l.args.dp : 1),
                         l.args.dp, l.args.enable_dp_attention);
  r.dp_attention = l.args.enable_dp_attention;
  if (explain) DescribeSglangLaunchWarnings(l, version, draft, &r);
  if (!l.context_refusal.empty()) {
    r = Refused(l, std::move(r), gpu, l.context_refusal);
    if (opts.fixes) SglangAddContextFixes(version, model, gpu, args_in, measured, draft, &r);
    return r;
  }
  if (l.state_refusal.Refused()) {
    r = Refused(l, std::move(r), gpu, l.state_refusal.message);
    r.not_modelled = l.state_refusal.NotModelled();
    return r;
  }
  if (!l.sharding_problems.empty()) {
    r = ShardingFailure(l, std::move(r), gpu, explain);
    if (opts.fixes) SglangAddShardingFixes(version, model, gpu, args_in, measured, draft, &r);
    return r;
  }
  s.settings = SglangSettingsOf(l, model, gpu, measured, explain);
  s.weights = SglangWeightsOf(l, model, gpu, measured, draft);
  if (!s.weights.post_measured && s.weights.weights > s.weights.pre_load_free) {
    r = LoadFailure(l, std::move(r), gpu, s.weights);
    if (opts.fixes) SglangAddFitWeightsFixes(version, model, gpu, args_in, measured, draft, &r);
    return r;
  }
  s.budget = SglangBudgetOf(l, s.settings, s.weights, measured);
  s.state = SglangStatePoolOf(l, s.settings, model, &s.budget);
  s.cell = SglangCellSize(*l.era, l.version_key, model, l.args, draft);
  const int64_t profiled = SglangProfiledTokens(s.budget, s.cell);
  s.pool = SglangRequestPoolOf(l, s.settings, profiled);
  SglangCapPoolByState(s.state, &s.pool);
  s.tokens = SglangTokensOf(l, s.settings, s.cell, s.pool, model, profiled);
  s.verdict = SglangVerdictOf(l, s.settings, s.budget, s.tokens);
  s.running = SglangRunningOf(l, s.pool, s.tokens);
  s.slack = SglangSlackOf(l, s.settings, s.weights, s.cell, s.pool, s.tokens, s.verdict, s.running,
                          model, draft, explain);
  FillNumbers(s, gpu, &r);
  if (explain) {
    DescribeSglangSettings(s, model, gpu, &r);
    DescribeSglangStages(s, model, gpu, &r);
    DescribeSglangFigures(s, model, &r);
    DescribeSglangMemory(s, gpu, &r);
    DescribeSglangWarnings(s, model, &r);
  }
  if (opts.fixes) SglangAddFixes(version, model, gpu, args_in, measured, draft, &r);
  return r;
}

}  // namespace kvplan
