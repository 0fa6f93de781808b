#include "simulate/workload.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/text.h"
#include "kvplan/error.h"
#include "simulate/trace_reader.h"

namespace kvplan {
namespace {

void CheckLength(const char* which, const LengthSpec& s) {
  if (s.dist != "fixed" && s.dist != "uniform" && s.dist != "normal" && s.dist != "lognormal") {
    throw InputError(
        fmt::format("--{}-dist '{}': expected fixed, uniform, normal or lognormal", which, s.dist));
  }
  if (s.mean < 1) throw InputError(fmt::format("--{}-len must be >= 1", which));
  if (!(s.spread >= 0) || (s.dist == "uniform" && s.spread > 1) || s.spread > 10) {
    throw InputError(fmt::format("--{}-spread {} is out of range (uniform: 0 to 1; else 0 to 10)",
                                 which, s.spread));
  }
}

void CheckPrefixSpec(const WorkloadSpec& s) {
  if (s.prefix_hit_rate) {
    if (!(*s.prefix_hit_rate >= 0 && *s.prefix_hit_rate <= 1)) {
      throw InputError(
          fmt::format("--prefix-hit-rate {} must be from 0 to 1 (the fraction of each prompt "
                      "found cached)",
                      *s.prefix_hit_rate));
    }
    if (s.prefix_len || s.prefix_groups || !s.prefix_group_weights.empty()) {
      throw InputError(
          "--prefix-hit-rate is instead of --prefix-len and --prefix-groups: give one or the "
          "other");
    }
    return;
  }
  if (s.prefix_len && *s.prefix_len < 1) throw InputError("--prefix-len must be >= 1 (tokens)");
  for (double w : s.prefix_group_weights) {
    if (!(w >= 0 && w < 1e12)) {
      throw InputError(fmt::format("--prefix-group-weights: {} is not a weight >= 0", w));
    }
  }
  const size_t weights = s.prefix_group_weights.size();
  if (weights > 0 &&
      !(*std::max_element(s.prefix_group_weights.begin(), s.prefix_group_weights.end()) > 0)) {
    throw InputError("--prefix-group-weights: at least one weight must be > 0");
  }
  if (s.prefix_groups && weights > 0 && static_cast<size_t>(*s.prefix_groups) != weights) {
    throw InputError(
        fmt::format("--prefix-groups {} but {} --prefix-group-weights: give one "
                    "weight per group",
                    *s.prefix_groups, weights));
  }
  if (s.prefix_groups && *s.prefix_groups < 1) throw InputError("--prefix-groups must be >= 1");
  const bool groups = s.prefix_groups || weights > 0;
  if (!s.trace.empty()) {
    if (groups) {
      throw InputError(
          "--prefix-groups and --prefix-group-weights are for generated requests; a trace "
          "gives each row's group in its prefix_group column");
    }
    return;
  }
  if (groups != s.prefix_len.has_value()) {
    throw InputError(groups ? "--prefix-groups needs --prefix-len (the tokens each group shares)"
                            : "--prefix-len needs --prefix-groups (how many distinct prefixes)");
  }
}

void CheckSpec(const WorkloadSpec& s) {
  const int kinds = s.concurrency.has_value() + s.rate.has_value() + !s.trace.empty();
  if (kinds != 1) throw InputError("give exactly one of --concurrency, --rate and --trace");
  if (s.concurrency && *s.concurrency < 1) throw InputError("--concurrency must be >= 1");
  if (s.rate && !(*s.rate > 0 && *s.rate < 1e7)) throw InputError("--rate must be > 0 (req/s)");
  if (s.num_requests && *s.num_requests < 1) throw InputError("--num-requests must be >= 1");
  if (s.duration_s && !(*s.duration_s > 0)) throw InputError("--duration must be > 0 seconds");
  if (s.duration_s && !s.rate) throw InputError("--duration needs --rate");
  if (s.arrival != "poisson" && s.arrival != "constant" && s.arrival != "gamma") {
    throw InputError(fmt::format("--arrival '{}': expected poisson, constant or gamma", s.arrival));
  }
  if (!(s.burstiness > 0 && s.burstiness < 1e6)) throw InputError("--burstiness must be > 0");
  if (s.trace.empty()) {
    CheckLength("input", s.input);
    CheckLength("output", s.output);
  }
  CheckPrefixSpec(s);
}

}  // namespace

int64_t DrawLength(const LengthSpec& s, SimRng* rng) {
  const double m = static_cast<double>(s.mean);
  double v = m;
  if (s.dist == "uniform") {
    v = m * (1.0 - s.spread + 2.0 * s.spread * rng->Uniform());
  } else if (s.dist == "normal") {
    v = m + s.spread * m * rng->Normal();
  } else if (s.dist == "lognormal") {
    // Mean m: mu = ln m - sigma^2 / 2.
    v = std::exp(std::log(m) - 0.5 * s.spread * s.spread + s.spread * rng->Normal());
  }
  return std::max<int64_t>(1, std::llround(std::min(v, 1e9)));
}

Workload::Workload(const WorkloadSpec& spec)
    : spec_(spec), rng_(static_cast<uint64_t>(spec.seed.value_or(0))) {
  CheckSpec(spec_);
  if (!spec_.trace.empty()) {
    trace_ = std::make_unique<TraceReader>(spec_.trace, spec_.prefix_len);
  }
  double sum = 0;
  for (double w : spec_.prefix_group_weights) group_cdf_.push_back(sum += w);
  for (double& c : group_cdf_) c /= sum;
}

Workload::~Workload() = default;

int64_t Workload::DrawLength(const LengthSpec& s) { return kvplan::DrawLength(s, &rng_); }

// The gap before the next arrival: constant 1/rate; gamma with shape k and
// mean 1/rate (vLLM benchmark_serving --burstiness); Poisson is gamma k = 1.
double Workload::NextGapUs() {
  const double mean_us = 1e6 / *spec_.rate;
  if (spec_.arrival == "constant") return mean_us;
  if (spec_.arrival == "poisson") return mean_us * rng_.Exponential();
  return mean_us * rng_.Gamma(spec_.burstiness) / spec_.burstiness;
}

std::optional<ArrivingRequest> Workload::Next() {
  if (spec_.num_requests && issued_ >= *spec_.num_requests) return std::nullopt;
  if (trace_) {
    std::optional<ArrivingRequest> r = trace_->Next();
    if (!r) return r;
    ++issued_;
    if (r->prefix_group >= 0) trace_prefixes_ = true;
    if (spec_.prefix_hit_rate) AddPrefix(&*r);
    return r;
  }
  ArrivingRequest r;
  if (spec_.rate) {
    // The first request arrives at time 0, as the benchmark clients send it.
    if (issued_ > 0) clock_us_ += NextGapUs();
    if (spec_.duration_s && clock_us_ >= *spec_.duration_s * 1e6) return std::nullopt;
    r.arrival_us = clock_us_;
  }
  r.input_tokens = DrawLength(spec_.input);
  r.output_tokens = DrawLength(spec_.output);
  AddPrefix(&r);
  ++issued_;
  return r;
}

// The group's prefix goes before the drawn input (SGLang bench_serving's
// generated-shared-prefix prompts: system prompt + question; vLLM's
// --random-prefix-len); a hit rate marks that share of the prompt cached.
void Workload::AddPrefix(ArrivingRequest* r) {
  if (spec_.prefix_hit_rate) {
    r->hit_tokens = static_cast<int64_t>(
        std::floor(*spec_.prefix_hit_rate * static_cast<double>(r->input_tokens)));
    return;
  }
  if (!spec_.prefix_len) return;
  if (group_cdf_.empty()) {
    const double u = rng_.Uniform();
    r->prefix_group = std::min(*spec_.prefix_groups - 1,
                               static_cast<int64_t>(u * static_cast<double>(*spec_.prefix_groups)));
  } else {
    const double u = rng_.Uniform();
    const auto it = std::upper_bound(group_cdf_.begin(), group_cdf_.end(), u);
    r->prefix_group =
        std::min<int64_t>(static_cast<int64_t>(group_cdf_.size()) - 1, it - group_cdf_.begin());
  }
  r->prefix_len = *spec_.prefix_len;
  r->input_tokens += r->prefix_len;
}

bool Workload::HasPrefixes() const { return spec_.HasPrefixes() || trace_prefixes_; }

std::string DescribePrefixes(const WorkloadSpec& w) {
  if (w.prefix_hit_rate) return fmt::format(", prefix hit rate {:g}", *w.prefix_hit_rate);
  // A trace's --prefix-len is the length of the groups its rows name.
  if (!w.prefix_len || !w.trace.empty()) return "";
  const int64_t groups =
      w.prefix_groups.value_or(static_cast<int64_t>(w.prefix_group_weights.size()));
  return fmt::format(" + a shared prefix of {} ({} group{}{})", *w.prefix_len, groups,
                     groups == 1 ? "" : "s", w.prefix_group_weights.empty() ? "" : ", weighted");
}

std::string Workload::Describe() const {
  auto len = [](const LengthSpec& s) {
    if (s.dist == "fixed") return fmt::format("{}", s.mean);
    return fmt::format("{} mean {} spread {}", s.dist, s.mean, s.spread);
  };
  std::string what;
  if (spec_.concurrency) {
    what = fmt::format("concurrency {}", *spec_.concurrency);
  } else if (spec_.rate) {
    what = fmt::format("{} req/s {}", *spec_.rate,
                       spec_.arrival == "gamma"
                           ? fmt::format("gamma (burstiness {})", spec_.burstiness)
                           : spec_.arrival);
    if (spec_.duration_s) what += fmt::format(" for {} s", *spec_.duration_s);
  } else {
    return "trace " + spec_.trace + DescribePrefixes(spec_);
  }
  if (spec_.num_requests) what += fmt::format(", {} requests", WithThousands(*spec_.num_requests));
  what += fmt::format(", input {}, output {}", len(spec_.input), len(spec_.output));
  return what + DescribePrefixes(spec_);
}

}  // namespace kvplan
