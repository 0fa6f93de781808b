#include "logs/default_rule.h"

#include <cmath>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "engines/sglang.h"
#include "engines/sglang_era.h"
#include "logs/provenance.h"
#include "models/model.h"

namespace kvplan {
namespace {

// The releases whose default rules the log's era allows (sglang-memory.md §3).
std::vector<std::string> CandidateReleases(const std::string& era) {
  if (era.rfind("v0.4.6 or older", 0) == 0) return {"0.4.6"};
  if (era.rfind("v0.4.7-v0.5.x", 0) == 0) return {"0.4.6.post2", "0.4.7.post1", "0.5.3"};
  if (era.rfind("v0.5.3", 0) == 0) return {"0.5.3", "0.5.9", "main"};
  if (era.rfind("2026", 0) == 0) return {"0.5.9", "main"};
  return {"0.4.6", "0.4.6.post2", "0.4.7.post1", "0.5.3", "0.5.9", "main"};
}

int IntSetting(const RunRecord& r, const char* key, int fallback) {
  std::optional<double> v = r.SettingNumber(key);
  return v ? static_cast<int>(*v) : fallback;
}

SglangArgs ArgsOf(const RunRecord& r) {
  SglangArgs a;
  a.tp = IntSetting(r, "tp_size", 1);
  a.pp = IntSetting(r, "pp_size", 1);
  a.dp = IntSetting(r, "dp_size", 1);
  a.ep = IntSetting(r, "ep_size", 1);
  const LoggedSetting* dpa = r.FindSetting("enable_dp_attention");
  a.enable_dp_attention = dpa != nullptr && dpa->value == "True";
  const LoggedSetting* dcg = r.FindSetting("disable_cuda_graph");
  a.disable_cuda_graph = dcg != nullptr && dcg->value == "True";
  const LoggedSetting* spec = r.FindSetting("speculative_algorithm");
  if (spec != nullptr && spec->value != "None") a.speculative_algorithm = spec->value;
  return a;
}

}  // namespace

void ApplyDefaultRuleProvenance(RunRecord* run, int64_t capacity_mib) {
  if (run->engine != "sglang") return;
  const LoggedSetting* mfs = run->FindSetting("mem_fraction_static");
  if (mfs == nullptr || mfs->provenance != "unknown" ||
      !run->SettingNumber("mem_fraction_static")) {
    return;
  }
  int64_t gpu_mem = capacity_mib > 0 ? capacity_mib : run->gpu_capacity_mib;
  if (gpu_mem <= 0) return;
  SglangArgs args = ArgsOf(*run);
  ModelSpec model;  // the default rules read only MLA-ness and multimodality from it
  bool mla = run->Figure("kv_size_gib").has_value();
  if (mla) model.attention = AttentionKind::kMla;
  double printed = *run->SettingNumber("mem_fraction_static");
  std::vector<std::string> tried;
  for (const std::string& release : CandidateReleases(run->era)) {
    std::string canonical;
    int64_t key = 0;
    const SglangEra& era = SglangEraFor(release, &canonical, &key);
    SglangDefaultsInput in;
    in.version = key;
    in.args = &args;
    in.model = &model;
    in.gpu_mem_mib = gpu_mem;
    in.is_mla = mla;
    in.speculative = !args.speculative_algorithm.empty() && args.speculative_algorithm != "NGRAM";
    SglangDefaults d = era.defaults(in);
    tried.push_back(fmt::format("{} gives {:g}", canonical, d.mem_fraction_static));
    if (std::abs(d.mem_fraction_static - printed) < 5e-4) {
      MarkDefaultRuleMatch(run, "mem_fraction_static", d.mem_fraction_static,
                           fmt::format("SGLang {} for {} MiB, TP {}", canonical, gpu_mem, args.tp));
      return;
    }
  }
  std::string all;
  for (const std::string& t : tried) all += (all.empty() ? "" : ", ") + t;
  MarkDefaultRuleMatch(
      run, "mem_fraction_static", -1,
      fmt::format("SGLang's default rule for {} MiB, TP {}: {}", gpu_mem, args.tp, all));
}

}  // namespace kvplan
