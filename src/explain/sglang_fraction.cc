#include "explain/sglang_fraction.h"

#include <cmath>
#include <vector>

#include <fmt/core.h>

#include "explain/default_rule.h"
#include "explain/logged_gpu.h"

namespace kvplan {
namespace {

// The memory one GPU shows before loading: pre-load free plus what distributed
// init took (the smallest rank's, so a lower bound of the capacity).
double InUseBeforeLoad(const RunRecord& run, double pre_gib) {
  return pre_gib + run.MinUsage(kStageInitDistributed).value_or(0);
}

// The default rule (release x capacity) closest to `implied`, when one lies
// within `tolerance` of it.
struct RuleMatch {
  SglangDefaultFraction rule;
  GpuCapacityGuess capacity;
  double distance = 1;
};

std::optional<RuleMatch> ClosestRule(const RunRecord& run,
                                     const std::vector<GpuCapacityGuess>& capacities,
                                     double implied, double tolerance, std::string* listing) {
  std::optional<RuleMatch> best;
  for (const GpuCapacityGuess& cap : capacities) {
    std::vector<SglangDefaultFraction> rules = SglangDefaultFractions(run, cap.capacity_mib);
    if (listing->empty()) {
      *listing = fmt::format("at {} MiB {}", cap.capacity_mib, DefaultFractionListing(rules));
    }
    for (const SglangDefaultFraction& r : rules) {
      double d = std::fabs(r.fraction - implied);
      if (d <= tolerance && (!best || d < best->distance)) best = RuleMatch{r, cap, d};
    }
  }
  return best;
}

// The implied fraction as a person would have typed it: 2 decimals when they
// lie within the doubt, else 3.
double AsTyped(double implied, double doubt) {
  double two = std::round(implied * 100) / 100;
  return std::fabs(two - implied) <= doubt ? two : std::round(implied * 1000) / 1000;
}

SglangFraction FromKvLine(const RunRecord& run, const SglangFractionInput& in) {
  SglangFraction f;
  double kv = *in.kv_gib;
  f.implied = ImpliedMemFraction(in.pre_gib, in.post_gib, kv);
  double doubt = (0.005 + in.kv_doubt_gib) / in.pre_gib +
                 std::fabs(in.post_gib - kv) / (in.pre_gib * in.pre_gib) * in.pre_doubt_gib;
  std::string formula = fmt::format("1 - (post {:.2f} - {} = {:.2f} GiB) / pre {:.2f} = {:.4f}",
                                    in.post_gib, in.pool, kv, in.pre_gib, *f.implied);
  std::vector<GpuCapacityGuess> caps = GpuCapacityCandidates(run, InUseBeforeLoad(run, in.pre_gib));
  std::string listing;
  // The rules round to 3 decimals: within half a step of the implied value is a match.
  if (std::optional<RuleMatch> m =
          ClosestRule(run, caps, *f.implied, std::max(doubt, 5e-4), &listing)) {
    f.value = m->rule.fraction;
    f.provenance = "assumed";
    if (m->capacity.inferred) f.inferred_capacity_mib = m->capacity.capacity_mib;
    f.how =
        fmt::format("SGLang {}'s default rule for {}, {} gives {:g}; the figures imply {}",
                    m->rule.release, m->capacity.source, RuleTp(run), m->rule.fraction, formula);
    return f;
  }
  f.value = AsTyped(*f.implied, doubt);
  f.provenance = "derived";
  f.from_kv_line = true;
  f.how = fmt::format(
      "from the figures: {}; no modelled default rule gives it ({}): set by the user, or a rule "
      "kvplan does not model",
      formula, listing.empty() ? "no GPU capacity to apply them to" : listing);
  return f;
}

}  // namespace

double ImpliedMemFraction(double pre_gib, double post_gib, double kv_gib) {
  return 1 - (post_gib - kv_gib) / pre_gib;
}

SglangFraction SglangFractionOf(const RunRecord& run, const SglangFractionInput& in) {
  std::optional<double> printed = run.SettingNumber("mem_fraction_static");
  if (printed) {
    SglangFraction f;
    f.value = printed;
    f.provenance = "measured";
    f.how = "printed in the log (server_args or the launch command)";
    if (in.kv_gib) f.implied = ImpliedMemFraction(in.pre_gib, in.post_gib, *in.kv_gib);
    return f;
  }
  if (in.kv_gib) return FromKvLine(run, in);
  SglangFraction f;
  std::vector<GpuCapacityGuess> caps = GpuCapacityCandidates(run, 0);
  if (caps.empty()) {
    f.how =
        "no mem_fraction_static: the log prints no server_args and no KV line, and names no GPU "
        "for SGLang's default rule (--gpu NAME supplies it)";
    return f;
  }
  // The newest release the era allows: nothing in the log tells them apart.
  std::vector<SglangDefaultFraction> rules = SglangDefaultFractions(run, caps[0].capacity_mib);
  if (rules.empty()) {
    f.how = "no mem_fraction_static: no default rule for the log's era";
    return f;
  }
  const SglangDefaultFraction& r = rules.back();
  f.value = r.fraction;
  f.provenance = "assumed";
  f.how = fmt::format(
      "SGLang {}'s default rule for {}, {} (the log prints no server_args and no KV line; "
      "nothing to check it against)",
      r.release, caps[0].source, RuleTp(run));
  return f;
}

}  // namespace kvplan
