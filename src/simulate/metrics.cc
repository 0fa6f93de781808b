#include "simulate/metrics.h"

#include <algorithm>
#include <cmath>

namespace kvplan {
namespace {

const double kLogRatio = std::log(LatencyHistogram::kBinRatio);

}  // namespace

void LatencyHistogram::Add(double v) {
  ++count_;
  sum_ += v;
  if (v == last_value_) {
    ++bins_[last_bin_];
    return;
  }
  const double bin = v > kMin ? std::floor(std::log(v / kMin) / kLogRatio) : 0.0;
  last_value_ = v;
  last_bin_ = static_cast<size_t>(std::clamp(bin, 0.0, static_cast<double>(kBins - 1)));
  ++bins_[last_bin_];
}

double LatencyHistogram::Quantile(double q) const {
  if (count_ == 0) return 0;
  // The smallest value with at least q of the samples at or below it.
  const int64_t rank = std::max<int64_t>(1, static_cast<int64_t>(std::ceil(q * count_)));
  int64_t seen = 0;
  for (int i = 0; i < kBins; ++i) {
    seen += bins_[i];
    if (seen >= rank) return kMin * std::pow(kBinRatio, i + 0.5);
  }
  return kMin * std::pow(kBinRatio, kBins);
}

LatencyStats LatencyHistogram::Stats() const {
  return {Mean(), Quantile(0.5), Quantile(0.9), Quantile(0.99)};
}

void ServingMetrics::AddRequest(const RequestOutcome& o, double first_arrival_us, double now_us) {
  ++completed_;
  input_tokens_ += o.input_tokens;
  output_tokens_ += o.output_tokens;
  ttft_.Add(o.ttft_ms);
  e2e_.Add(o.e2e_ms);
  // TPOT as the benchmark clients define it: excludes the first token, and
  // only for requests with more than one output token.
  if (o.output_tokens > 1) tpot_.Add(o.tpot_ms);
  if (first_arrival_us_ < 0) first_arrival_us_ = first_arrival_us;
  last_done_us_ = std::max(last_done_us_, now_us);
}

void ServingMetrics::ObserveKv(double used_fraction) {
  peak_kv_ = std::max(peak_kv_, used_fraction);
}

void ServingMetrics::Fill(SimulateResult* r) const {
  r->ttft_ms = ttft_.Stats();
  r->tpot_ms = tpot_.Stats();
  r->itl_ms = itl_.Stats();
  r->e2e_ms = e2e_.Stats();
  r->completed = completed_;
  r->peak_kv_utilization = peak_kv_;
  const double seconds = std::max(0.0, last_done_us_ - std::max(0.0, first_arrival_us_)) / 1e6;
  r->duration_s = seconds;
  if (seconds > 0) {
    r->req_s = static_cast<double>(completed_) / seconds;
    r->output_tok_s = static_cast<double>(output_tokens_) / seconds;
    r->total_tok_s = static_cast<double>(input_tokens_ + output_tokens_) / seconds;
  }
}

}  // namespace kvplan
