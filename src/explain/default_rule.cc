#include "explain/default_rule.h"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "catalog/model.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "explain/log_sglang_args.h"
#include "explain/logged_gpu.h"
#include "logs/provenance.h"

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

bool UserSet(const RunRecord& r, const char* key) {
  const LoggedSetting* s = r.FindSetting(key);
  return s != nullptr && s->provenance == "user";
}

// The run's args as the default rule saw them: no fraction (the rule chooses
// it), and the sizes it reads only where the user gave them (otherwise each
// candidate release picks its own).
SglangArgs ArgsOf(const RunRecord& r) {
  SglangArgs a = SglangArgsOfRun(r);
  a.mem_fraction_static.reset();
  if (!UserSet(r, "chunked_prefill_size")) a.chunked_prefill_size.reset();
  if (!UserSet(r, "cuda_graph_max_bs")) a.cuda_graph_max_bs.reset();
  if (!UserSet(r, "max_prefill_tokens")) a.max_prefill_tokens.reset();
  if (!UserSet(r, "page_size")) a.page_size.reset();
  return a;
}

}  // namespace

using Candidate = SglangDefaultFraction;

std::vector<SglangDefaultFraction> SglangDefaultFractions(const RunRecord& run, int64_t gpu_mem) {
  SglangArgs args = ArgsOf(run);
  ModelSpec model;  // the default rules read only MLA-ness and multimodality from it
  bool mla = run.Figure("kv_size_gib").has_value();
  if (mla) model.attention = AttentionKind::kMla;
  std::vector<Candidate> out;
  for (const std::string& release : CandidateReleases(run.era)) {
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
    out.push_back({canonical, era.defaults(in).mem_fraction_static});
  }
  return out;
}

std::string DefaultFractionListing(const std::vector<SglangDefaultFraction>& cs) {
  std::string all;
  for (const Candidate& c : cs)
    all += fmt::format("{}{} gives {:g}", all.empty() ? "" : ", ", c.release, c.fraction);
  return all;
}

// The one catalog capacity the load's figures fit (free + used after loading, sglang_fraction.h's
// rule), when the log names no GPU; 0 when none or several fit.
int64_t CapacityFromFigures(const RunRecord& r) {
  std::optional<double> avail = r.MinAvail(kStageLoadWeightEnd);
  std::optional<double> usage = r.MinUsage(kStageLoadWeightEnd);
  if (!avail || !usage) return 0;
  std::vector<GpuCapacityGuess> caps = GpuCapacityCandidates(r, *avail + *usage);
  return caps.size() == 1 ? caps[0].capacity_mib : 0;
}

void ApplyDefaultRuleProvenance(RunRecord* run, int64_t capacity_mib, bool infer_capacity) {
  if (run->engine != "sglang") return;
  const LoggedSetting* mfs = run->FindSetting("mem_fraction_static");
  std::optional<double> printed = run->SettingNumber("mem_fraction_static");
  int64_t gpu_mem = capacity_mib > 0 ? capacity_mib : run->gpu_capacity_mib;
  bool inferred = gpu_mem <= 0 && infer_capacity;
  if (inferred) gpu_mem = CapacityFromFigures(*run);
  if (mfs == nullptr || !printed || gpu_mem <= 0) return;
  const std::string capacity =
      fmt::format("{} MiB{}", gpu_mem, inferred ? " (inferred from the load's figures)" : "");
  std::vector<Candidate> cs = SglangDefaultFractions(*run, gpu_mem);
  const std::string tp = RuleTp(*run);
  for (const Candidate& c : cs) {
    if (std::abs(c.fraction - *printed) < 5e-4) {
      MarkDefaultRuleMatch(run, "mem_fraction_static", c.fraction,
                           fmt::format("SGLang {} for {}, {}", c.release, capacity, tp));
      return;
    }
  }
  if (mfs->provenance == "auto") {
    // The command line says the engine chose it, yet no modelled rule gives it.
    std::string why = fmt::format(
        "mem_fraction_static {:g} was chosen by SGLang but no modelled default rule gives it for "
        "{} at {} ({})",
        *printed, capacity, tp, DefaultFractionListing(cs));
    if (std::abs(*printed - 0.88) < 5e-4) {
      why +=
          "; 0.88 is SGLang's fallback when it cannot read the GPU capacity (nvidia-smi "
          "missing or failing where the server ran)";
    }
    run->notes.push_back(why);
    return;
  }
  MarkDefaultRuleMatch(run, "mem_fraction_static", -1,
                       fmt::format("SGLang's default rule for {}, {}: {}", capacity, tp,
                                   DefaultFractionListing(cs)));
}

std::string RuleTp(const RunRecord& run) {
  std::optional<int64_t> tp = run.LoggedTp();
  return tp ? fmt::format("TP {}", *tp) : "TP 1 (assumed: the log names no TP)";
}

}  // namespace kvplan
