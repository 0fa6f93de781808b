// `kvplan diff --json`, rendered from the one DiffResult.
#include <nlohmann/json.hpp>

#include "explain/decode_diff.h"
#include "kvplan/diff.h"
#include "logs/run_record_json.h"
#include "report/diff_render.h"
#include "report/plan_json.h"

namespace kvplan {
namespace {

using nlohmann::json;

const char* NotReplannedName(NotReplanned n) {
  switch (n) {
    case NotReplanned::kNo:
      return nullptr;
    case NotReplanned::kNoBudget:
      return "no_budget";
    case NotReplanned::kGraphsAfterKv:
      return "cuda_graphs_after_kv";
    case NotReplanned::kChangesMeasured:
      return "changes_measured_memory";
    case NotReplanned::kRefused:
      return "refused";
  }
  return nullptr;
}

// The figures before and after: rest_memory (SGLang) or the KV budget (vLLM), in GiB.
json ReplanJson(const BeforeAfter& r) {
  const char* what = r.vllm ? "kv_cache" : "rest_memory";
  return {{"model", r.vllm ? "vllm" : "sglang"},   {std::string(what) + "_a_gib", r.gib_a},
          {std::string(what) + "_b_gib", r.gib_b}, {"kv_tokens_a", IntOrNull(r.tokens_a)},
          {"kv_tokens_b", IntOrNull(r.tokens_b)},  {"ok_after", r.ok_after},
          {"error_after", r.error_after}};
}

json ChangeJson(const SettingChange& c) {
  json j = {{"key", c.key},
            {"a", c.a},
            {"b", c.b},
            {"a_provenance", c.a_prov},
            {"b_provenance", c.b_prov},
            {"shapes_memory", c.memory},
            {"explains_failure", c.explains_failure}};
  if (c.replanned) {
    j["replan"] = ReplanJson(BeforeAfter{c.vllm, c.rest_a_gib, c.rest_b_gib, c.tokens_a, c.tokens_b,
                                         c.ok_after, c.error_after});
  } else if (const char* why = NotReplannedName(c.not_replanned)) {
    j["not_replanned"] = why;
    if (!c.why.empty()) j["not_replanned_why"] = c.why;
  }
  return j;
}

}  // namespace

std::string RenderDiffJson(const DiffResult& d) {
  json changes = json::array();
  for (const SettingChange& c : d.changes) changes.push_back(ChangeJson(c));
  std::optional<int64_t> batch = CommonBatch(d.a, d.b);
  std::string verdict = DecodeVerdict(d);
  json j = {{"a", {{"name", d.a_name}, {"run", ToJson(d.a)}}},
            {"b", {{"name", d.b_name}, {"run", ToJson(d.b)}}},
            {"changes", changes},
            {"together", d.together ? ReplanJson(*d.together) : json(nullptr)},
            {"decode",
             {{"common_running_reqs", IntOrNull(batch)},
              {"verdict", verdict.empty() ? json(nullptr) : json(verdict)}}}};
  return DumpJson(j, 2) + "\n";
}

}  // namespace kvplan
