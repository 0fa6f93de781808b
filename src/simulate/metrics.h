// The serving metrics of one simulation: TTFT, TPOT, ITL and E2E latency
// (mean exact; p50/p90/p99 from a log-spaced histogram whose bins are 0.5 %
// wide, so a percentile is within 0.25 % of the exact one), throughput,
// completions, preemptions and the peak KV use. Memory is fixed (the
// histograms' bins), whatever the number of requests or tokens.
#pragma once

#include <array>
#include <cstdint>

#include "kvplan/simulate.h"

namespace kvplan {

// Values from 1e-3 to 1e8 (ms); smaller or larger ones fall in the end bins.
class LatencyHistogram {
 public:
  void Add(double v);
  int64_t count() const { return count_; }
  double Mean() const { return count_ ? sum_ / static_cast<double>(count_) : 0.0; }
  // The q-quantile (0 < q < 1): the geometric centre of the bin holding it.
  double Quantile(double q) const;
  LatencyStats Stats() const;

  static constexpr double kMin = 1e-3;
  static constexpr double kBinRatio = 1.005;
  static constexpr int kBins = 5080;  // kMin * 1.005^5080 > 1e8

 private:
  std::array<int64_t, kBins> bins_{};
  int64_t count_ = 0;
  double sum_ = 0;
  // A decode step gives many requests the same gap: the last value's bin is
  // reused without another logarithm.
  double last_value_ = -1;
  size_t last_bin_ = 0;
};

class ServingMetrics {
 public:
  // One request finished at `now_us`.
  void AddRequest(const RequestOutcome& o, double first_arrival_us, double now_us);
  void AddInterTokenMs(double ms) { itl_.Add(ms); }
  void ObserveKv(double used_fraction);
  // Totals into `r` (latencies, throughput over first arrival to last completion).
  void Fill(SimulateResult* r) const;

 private:
  LatencyHistogram ttft_, tpot_, itl_, e2e_;
  int64_t completed_ = 0, input_tokens_ = 0, output_tokens_ = 0;
  double first_arrival_us_ = -1, last_done_us_ = 0, peak_kv_ = 0;
};

}  // namespace kvplan
