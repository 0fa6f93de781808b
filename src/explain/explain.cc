#include "explain/explain.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "base/units.h"
#include "catalog/gpu.h"
#include "explain/decode_prediction.h"
#include "explain/decode_report.h"
#include "explain/default_rule.h"
#include "explain/log_file.h"
#include "explain/log_replan.h"
#include "explain/log_vllm_replan.h"
#include "explain/logged_gpu.h"
#include "explain/logged_pools.h"
#include "explain/memory_setting.h"
#include "explain/sglang_fraction.h"
#include "explain/trtllm_explain.h"
#include "explain/vllm_failure.h"
#include "kvplan/error.h"
#include "kvplan/explain.h"

namespace kvplan {
namespace {

// The memory knobs, plus anything the user set; unset (None) engine defaults are noise.
std::vector<LoggedSetting> MemorySettingsShown(const RunRecord& r) {
  std::vector<LoggedSetting> shown;
  for (const LoggedSetting& s : r.settings) {
    if (!ShapesMemory(r.engine, s.key) || TooWideForExplain(s.key)) continue;
    if (s.provenance != "user" && s.value == "None") continue;
    shown.push_back(s);
  }
  return shown;
}

std::vector<TimelineRow> TimelineOf(const RunRecord& r) {
  std::vector<TimelineRow> rows;
  for (const MemoryPoint& p : r.timeline) {
    auto row = std::find_if(rows.begin(), rows.end(),
                            [&](const TimelineRow& x) { return x.stage == p.stage; });
    if (row == rows.end()) {
      rows.push_back(
          {p.stage, r.MinAvail(p.stage), r.MinUsage(p.stage), std::nullopt, r.RankCount(p.stage)});
      row = rows.end() - 1;
    }
    if (p.avail_gib && (!row->max_avail_gib || *p.avail_gib > *row->max_avail_gib)) {
      row->max_avail_gib = p.avail_gib;
    }
  }
  return rows;
}

// Checks the logged token count against the re-planned one, allowing for the
// 2-decimal rounding of the printed pre/post figures.
SglangLogCheck CheckSglang(const RunRecord& r, const SglangReplanInputs& in,
                           const SglangReplanVerdict& v) {
  SglangLogCheck c;
  std::optional<double> logged = r.Figure("kv_tokens");
  if (!logged || !v.tokens || v.cell_bytes <= 0) {
    if (r.outcome == "failed") c.kind = v.ok ? c.kModelFitsButFailed : c.kBothFail;
    return c;
  }
  double doubt_gib = 0.005 + (in.pre_derived ? 0.01 : 0.005) * (1 - v.mfs);
  c.tolerance = static_cast<int64_t>(std::ceil(doubt_gib * static_cast<double>(kGiB) /
                                               static_cast<double>(v.cell_bytes))) +
                v.page_size;
  if (in.log_cell_uncertainty > 0) {
    c.tolerance +=
        static_cast<int64_t>(std::ceil(*logged * static_cast<double>(in.log_cell_uncertainty) /
                                       static_cast<double>(v.cell_bytes)));
  }
  c.logged_tokens = static_cast<int64_t>(*logged);
  c.difference = c.logged_tokens - *v.tokens;
  c.logged_kv_gib = *logged * static_cast<double>(v.cell_bytes) / static_cast<double>(kGiB);
  c.implied_mfs = ImpliedMemFraction(in.pre_gib, in.post_gib, c.logged_kv_gib);
  c.relative = c.logged_tokens > 0 ? static_cast<double>(c.difference) / *logged : 0;
  c.circular = in.mfs_from_kv_line;
  // An excerpt's derived or assumed inputs carry more doubt than the rounding: the
  // issue's target for them is 0.5 % of the logged tokens.
  bool excerpt = in.pre_derived || in.mfs_provenance != "measured";
  c.kind = std::llabs(c.difference) <= c.tolerance     ? c.kMatches
           : excerpt && std::fabs(c.relative) <= 0.005 ? c.kClose
                                                       : c.kMismatch;
  return c;
}

std::vector<ReplanInput> ProvenanceOf(const SglangReplanInputs& in) {
  return {{"pre_load_free_gib", in.pre_gib, in.pre_derived ? "derived" : "measured", in.pre_source},
          {"post_load_free_gib", in.post_gib, "measured", in.post_source},
          {"mem_fraction_static", in.args.mem_fraction_static.value_or(0), in.mfs_provenance,
           in.mfs_source}};
}

SglangExplain ExplainSglang(const RunRecord& r, const ExplainOptions& o) {
  SglangExplain e;
  if (std::optional<double> t = r.Figure("kv_tokens")) e.logged_tokens = std::llround(*t);
  std::optional<SglangReplanInputs> in = SglangReplanInputsOf(r, &e.unavailable);
  if (!in) {
    if (!o.sets.empty()) {
      throw InputError("--set cannot re-plan this log: " + e.unavailable);
    }
    return e;
  }
  e.unavailable.clear();
  e.version = in->version;
  e.inputs = in->notes;
  e.pre_gib = in->pre_gib;
  e.post_gib = in->post_gib;
  e.pre_source = in->pre_source;
  e.post_source = in->post_source;
  e.provenance = ProvenanceOf(*in);
  e.log_cell_bytes = in->log_cell_bytes;
  e.verdict = ReplanSglang(*in);
  e.check = CheckSglang(r, *in, e.verdict);
  if (o.sets.empty()) return e;
  SglangReplanInputs changed = *in;
  for (const auto& [flag, value] : o.sets) ApplySglangSet(&changed, flag, value);
  e.what_if = ReplanSglang(changed);
  return e;
}

void VllmLoggedFigures(const RunRecord& r, VllmExplain* e) {
  // The budget's terms in the engine's order, then what they bought: every KV
  // figure the JSON's run record has, so the text hides none of them.
  for (const char* key : {"total_gpu_memory_gib",
                          "gpu_memory_utilization",
                          "instance_can_use_gib",
                          "weights_gib",
                          "weights_gb",
                          "peak_torch_memory_gib",
                          "non_torch_memory_gib",
                          "activation_peak_gib",
                          "cuda_graph_estimate_gib",
                          "available_kv_cache_gib",
                          "kv_cache_size_gib",
                          "gpu_kv_cache_tokens",
                          "num_gpu_blocks",
                          "max_concurrency_tokens",
                          "max_concurrency",
                          "needed_kv_gib",
                          "estimated_max_model_len",
                          "cuda_graph_mem_gib",
                          "attention_block_size",
                          "mamba_page_padding_pct"}) {
    if (std::optional<double> v = r.Figure(key)) e->figures.emplace_back(key, *v);
  }
  // Bytes per KV token the log implies: the KV budget over the tokens it bought
  // (V1 prints tokens; V0 prints blocks of 16 tokens, its default block size).
  std::optional<double> kv_logged = r.Figure("available_kv_cache_gib");
  if (!kv_logged) kv_logged = r.Figure("kv_cache_size_gib");
  std::optional<double> tokens = LoggedKvTokens(r);
  if (kv_logged && tokens && *tokens > 0) {
    e->logged_kv_gib_for_cell = kv_logged;
    e->logged_tokens_for_cell = tokens;
  }
}

// A failed launch's fixes: the re-plan's when it fails too, else the KV error's figures.
void VllmFailureFixes(const RunRecord& r, VllmExplain* e) {
  if (r.outcome != "failed") return;
  if (e->unavailable.empty() && !e->verdict.ok && !e->verdict.fixes.empty()) {
    e->fixes = e->verdict.fixes;
    e->fixes_from = "re-plan";
    return;
  }
  e->fixes = VllmKvShortFixes(r);
  if (!e->fixes.empty()) e->fixes_from = "the error's figures";
}

VllmExplain ExplainVllm(const RunRecord& r, const ExplainOptions& o) {
  VllmExplain e;
  VllmLoggedFigures(r, &e);
  std::optional<VllmReplanInputs> in = VllmReplanInputsOf(r, &e.unavailable);
  if (!in) {
    if (!o.sets.empty()) throw InputError("--set cannot re-plan this log: " + e.unavailable);
    VllmFailureFixes(r, &e);
    return e;
  }
  e.unavailable.clear();
  e.version = in->version;
  e.inputs = in->notes;
  e.logged_kv_gib = in->logged_kv_gib;
  e.kv_logged = in->kv_logged;
  e.verdict = ReplanVllm(*in);
  e.matches = in->kv_logged && std::fabs(e.verdict.kv_gib - in->logged_kv_gib) <= 0.02;
  if (in->kv_only) {
    // The budget is the log's: what can be checked is the tokens it bought.
    e.kv_only = true;
    std::optional<double> logged = LoggedKvTokens(r);
    e.logged_tokens = std::llround(logged.value_or(0));
    int64_t planned = e.verdict.tokens.value_or(0);
    e.tokens_relative =
        *e.logged_tokens > 0 ? static_cast<double>(planned - *e.logged_tokens) / *logged : 0;
    e.matches = e.verdict.tokens && std::fabs(e.tokens_relative) <= 0.005;
  }
  VllmFailureFixes(r, &e);
  if (o.sets.empty()) return e;
  VllmReplanInputs all = *in;
  for (const auto& [flag, value] : o.sets) {
    VllmReplanInputs changed = *in;
    ApplyVllmSet(&changed, flag, value);
    e.what_ifs.push_back({flag, value, ReplanVllm(changed), changed.args.max_model_len});
    ApplyVllmSet(&all, flag, value);
  }
  e.what_if_all = ReplanVllm(all);
  return e;
}

// Where an incomplete launch's log stops: after the last start-up stage it reached. A
// hang and a cut excerpt read the same; the stage is what the log proves.
std::string StopsOf(const RunRecord& r) {
  if (r.outcome != "incomplete") return "";
  struct Stop {
    std::string_view stage;
    const char* said;
  };
  static constexpr Stop kStops[] = {
      {kStageSummary, "after the ready summary, before the server is up"},
      {kStageGraphEnd, "after CUDA-graph capture, during warm-up"},
      {kStageGraphBegin, "during CUDA-graph capture"},
      {kStageMemoryPoolEnd, "after the KV cache is allocated, before CUDA-graph capture"},
      {kStageKvAllocated, "after the KV cache is allocated, before CUDA-graph capture"},
      {kStageLoadWeightEnd, "after loading the weights, before the KV cache"},
      {kStageLoadWeightBegin, "during weight loading"},
      {kStageInitDistributed, "after distributed init, before the weights load"},
  };
  for (const Stop& s : kStops) {
    if (r.RankCount(s.stage) > 0) return std::string("the log stops ") + s.said;
  }
  // vLLM prints its graph capture and KV figures, not SGLang's stages.
  if (r.Figure("cuda_graph_capture_time_s")) return "the log stops after CUDA-graph capture";
  if (r.Figure("available_kv_cache_gib") || r.Figure("num_gpu_blocks")) {
    return "the log stops after the KV cache is sized";
  }
  return "";
}

}  // namespace

std::pair<std::string, std::string> ParseSet(const std::string& text) {
  size_t eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size()) {
    throw InputError("--set " + text + ": expected FLAG=VALUE, e.g. --mem-fraction-static=0.55");
  }
  return {text.substr(0, eq), text.substr(eq + 1)};
}

ExplainResult ExplainRun(const RunRecord& r, const std::string& log_path, int launches,
                         const ExplainOptions& o) {
  ExplainResult e;
  e.run = r;
  e.log_path = log_path;
  e.launches = launches;
  e.options = o;
  e.memory_settings = MemorySettingsShown(r);
  e.timeline = TimelineOf(r);
  e.pools = LoggedPoolsOf(r);
  e.stops = StopsOf(r);
  if (r.engine == "sglang") e.sglang = ExplainSglang(r, o);
  if (r.engine == "vllm") e.vllm = ExplainVllm(r, o);
  if (r.engine == "trtllm") {
    e.trtllm = ExplainTrtllm(r);
    if (!o.sets.empty())
      throw InputError("--set cannot re-plan this log: " + e.trtllm->unavailable);
  }
  e.speculation = SpeculationOf(r);
  // One read of the draft for both the acceptance check and the prediction.
  const LoggedDraft draft = LoadDraftOf(r);
  e.nothing_accepted_cause = NothingAcceptedCause(r, draft);
  if (r.decode.MostCommon() != nullptr) e.decode_prediction = PredictDecode(r, draft);
  return e;
}

ExplainResult ExplainLog(const ExplainRequest& request) {
  LoadedLog log = LoadLog(request.log_path, ReadOnlyScan());
  RunRecord run = PickLaunch(log, request.log_path, request.launch);
  const RunRecord as_logged = run;
  if (!request.gpu.empty()) {
    const GpuSpec g = GpuWithCapacity(request.gpu, request.gpu_capacity_mib);
    // --gpu names the GPU of a log that names none, or one the catalog cannot
    // tell (not in it, or a name nvidia-smi cut that several GPUs start with).
    if (run.gpu_name.empty() || FindLoggedGpu(run.gpu_name, run.gpu_capacity_mib) == nullptr) {
      // A GPU file is found again by its path (its name is in no catalog).
      run.gpu_name = g.file.empty() ? g.name : g.file;
      if (run.gpu_capacity_mib <= 0 || request.gpu_capacity_mib) {
        run.gpu_capacity_mib = g.capacity_mib;
      }
    }
    ApplyDefaultRuleProvenance(&run, g.capacity_mib);
  } else if (run.gpu_capacity_mib <= 0) {
    // Neither --gpu nor an nvidia-smi table: the one catalog capacity the load's figures fit,
    // if any (explain only; LoadLog applied the rule already where the log names the capacity).
    ApplyDefaultRuleProvenance(&run, 0, /*infer_capacity=*/true);
  }
  ExplainOptions options;
  for (const std::string& s : request.sets) options.sets.push_back(ParseSet(s));
  ExplainResult result =
      ExplainRun(run, request.log_path, static_cast<int>(log.runs.size()), options);
  // The header shows the GPU the log printed; the re-plan's input line names the one --gpu gave.
  if (!as_logged.gpu_name.empty()) {
    result.run.gpu_name = as_logged.gpu_name;
    result.run.gpu_capacity_mib = as_logged.gpu_capacity_mib;
  }
  return result;
}

}  // namespace kvplan
