// `kvplan explain --json`, rendered from the one ExplainResult.
#include <nlohmann/json.hpp>

#include "kvplan/explain.h"
#include "logs/run_record_json.h"
#include "report/plan_json.h"

namespace kvplan {
namespace {

using nlohmann::json;

const char* CheckKind(SglangLogCheck::Kind k) {
  switch (k) {
    case SglangLogCheck::kMatches:
      return "matches";
    case SglangLogCheck::kClose:
      return "within_0.5_percent";
    case SglangLogCheck::kMismatch:
      return "mismatch";
    case SglangLogCheck::kBothFail:
      return "both_fail";
    case SglangLogCheck::kModelFitsButFailed:
      return "model_fits_but_failed";
    case SglangLogCheck::kNone:
      break;
  }
  return "none";
}

json CheckJson(const SglangLogCheck& c) {
  json j = {{"kind", CheckKind(c.kind)}};
  if (c.kind != SglangLogCheck::kMatches && c.kind != SglangLogCheck::kClose &&
      c.kind != SglangLogCheck::kMismatch) {
    return j;
  }
  j.update({{"logged_tokens", c.logged_tokens},
            {"logged_kv_gib", c.logged_kv_gib},
            {"implied_mem_fraction_static", c.implied_mfs},
            {"difference", c.difference},
            {"tolerance", c.tolerance},
            {"relative_difference", c.relative},
            {"fraction_from_this_kv_line", c.circular}});
  return j;
}

json ProvenanceJson(const std::vector<ReplanInput>& inputs) {
  json out = json::array();
  for (const ReplanInput& in : inputs) {
    out.push_back(
        {{"name", in.name}, {"value", in.value}, {"provenance", in.provenance}, {"how", in.how}});
  }
  return out;
}

void SglangJson(const SglangExplain& s, const ExplainOptions& o, json* j) {
  if (s.logged_tokens) (*j)["logged_kv_tokens"] = *s.logged_tokens;
  if (!s.unavailable.empty()) {
    (*j)["replan_unavailable"] = s.unavailable;
    return;
  }
  const SglangReplanVerdict& v = s.verdict;
  (*j)["replan"] = {{"sglang_version", s.version},
                    {"inputs", s.inputs},
                    {"notes", v.notes},
                    {"pre_load_free_gib", s.pre_gib},
                    {"post_load_free_gib", s.post_gib},
                    {"mem_fraction_static", v.mfs},
                    {"cell_size_bytes", v.cell_bytes},
                    {"rest_memory_gib", v.rest_gib},
                    {"max_total_num_tokens", IntOrNull(v.tokens)},
                    {"ok", v.ok},
                    {"error", v.error},
                    {"steps", v.steps},
                    {"input_provenance", ProvenanceJson(s.provenance)},
                    {"check", CheckJson(s.check)}};
  if (!s.what_if) return;
  const SglangReplanVerdict& w = *s.what_if;
  (*j)["what_if"] = {{"sets", o.sets},
                     {"rest_memory_gib", w.rest_gib},
                     {"max_total_num_tokens", IntOrNull(w.tokens)},
                     {"ok", w.ok},
                     {"error", w.error}};
}

void VllmJson(const VllmExplain& e, const ExplainOptions& o, json* j) {
  if (!e.fixes.empty()) {
    json fixes = json::array();
    for (const Fix& f : e.fixes) {
      fixes.push_back({{"flag", f.flag}, {"value", f.value}, {"effect", f.effect}});
    }
    (*j)["fixes"] = {{"from", e.fixes_from}, {"fixes", fixes}};
  }
  if (!e.unavailable.empty()) {
    (*j)["replan_unavailable"] = e.unavailable;
    return;
  }
  const VllmReplanVerdict& v = e.verdict;
  (*j)["replan"] = {{"vllm_version", e.version},
                    {"inputs", e.inputs},
                    {"kv_cache_gib", v.kv_gib},
                    {"logged_kv_cache_gib", e.kv_logged ? json(e.logged_kv_gib) : json(nullptr)},
                    {"kv_tokens", IntOrNull(v.tokens)},
                    {"budget_only", v.budget_only},
                    {"kv_budget_from_log", e.kv_only},
                    {"logged_kv_tokens", e.logged_tokens ? json(*e.logged_tokens) : json(nullptr)},
                    {"ok", v.ok},
                    {"error", v.error},
                    {"steps", v.steps}};
  if (!e.what_if_all) return;
  const VllmReplanVerdict& w = *e.what_if_all;
  (*j)["what_if"] = {{"sets", o.sets},
                     {"kv_cache_gib", w.kv_gib},
                     {"kv_tokens", IntOrNull(w.tokens)},
                     {"ok", w.ok},
                     {"error", w.error}};
}

json TrtllmJson(const TrtllmExplain& e) {
  json figures = json::object();
  for (const auto& [key, value] : e.figures) figures[key] = value;
  return {{"figures", figures},
          {"logged_kv_tokens", IntOrNull(e.logged_tokens)},
          {"kv_cache_bytes", IntOrNull(e.kv_bytes)},
          {"kv_bytes_per_token", IntOrNull(e.bytes_per_token)},
          {"block_tokens", IntOrNull(e.block_tokens)},
          {"implied_free_gib_at_default_fraction",
           e.implied_free_gib ? json(*e.implied_free_gib) : json(nullptr)},
          {"replan", e.unavailable.empty() ? json{{"free_at_kv_sizing_gib", e.free_gib},
                                                  {"free_gpu_memory_fraction", e.fraction},
                                                  {"kv_cache_gib", e.kv_gib},
                                                  {"kv_tokens", IntOrNull(e.tokens)},
                                                  {"relative", e.relative},
                                                  {"steps", e.steps}}
                                           : json(nullptr)}};
}

json PredictionJson(const DecodePrediction& p) {
  json rows = json::array();
  for (const DecodePredictionRow& r : p.rows) {
    rows.push_back({{"running_reqs", r.running_reqs},
                    {"predicted_tok_s", r.predicted_tok_s},
                    {"measured_tok_s", r.measured_tok_s}});
  }
  return {{"rows", rows}, {"inputs", p.inputs}, {"why_not", p.why_not}};
}

}  // namespace

std::string RenderExplainJson(const ExplainResult& e) {
  json j = {{"run", ToJson(e.run)}};
  if (!e.stops.empty()) j["stops"] = e.stops;
  if (!e.pools.empty()) {
    json pools = json::array();
    for (const LoggedPool& p : e.pools) {
      pools.push_back({{"kind", p.kind},
                       {"size", p.size},
                       {"unit", p.unit},
                       {"gib", p.gib ? json(*p.gib) : json(nullptr)},
                       {"detail", p.detail}});
    }
    j["pools"] = pools;
  }
  if (e.sglang) SglangJson(*e.sglang, e.options, &j);
  if (e.vllm) VllmJson(*e.vllm, e.options, &j);
  if (e.trtllm) {
    j["trtllm"] = TrtllmJson(*e.trtllm);
    if (!e.trtllm->unavailable.empty()) j["replan_unavailable"] = e.trtllm->unavailable;
  }
  if (e.decode_prediction) j["decode_prediction"] = PredictionJson(*e.decode_prediction);
  return DumpJson(j, 2) + "\n";
}

}  // namespace kvplan
