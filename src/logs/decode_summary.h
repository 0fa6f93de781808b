// What a run measured while decoding, summed up from its periodic decode
// reports (logs/decode_lines.h): throughput by running-request count, the
// speculative acceptance, and how often a batch ran outside a CUDA graph.
// Only one rank's reports count (TP0 / Engine 000, else the first seen), so a
// step that every rank prints is counted once. Memory stays bounded: at most
// kMaxKeptSamples throughput values are kept per run.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logs/decode_lines.h"

namespace kvplan {

// The figures of the reports made at one running-request count.
struct DecodeBatchFigures {
  int64_t running_reqs = 0;
  int64_t samples = 0;      // reports with a throughput above 0
  double median_tok_s = 0;  // over those reports
  std::optional<double> mean_accept_len;
};

struct DecodeSummary {
  int64_t samples = 0;  // decode reports counted (the chosen rank's), idle ones included
  int64_t idle = 0;     // of which reported 0 tok/s or 0 requests: left out of medians and means
  std::string rank;     // whose reports were counted: "TP0", "Engine 000", "" for one process
  std::vector<DecodeBatchFigures> batches;      // most reports first, then fewer requests first
  std::optional<double> mean_accept_len;        // over the busy reports that print one
  std::optional<double> mean_accept_rate;       // as the engine defines it (see decode_lines.h)
  std::vector<double> per_position_acceptance;  // vLLM: mean over its reports
  int64_t graph_reports = 0;                    // busy reports that say whether a graph ran
  int64_t graph_off = 0;                        // of which ran without one
  int64_t first_line = 0, last_line = 0;
  bool capped = false;  // more reports than kept: medians are over the first ones

  bool empty() const { return samples == 0; }
  const DecodeBatchFigures* Batch(int64_t running_reqs) const;
  // The running-request count with the most busy reports; nullptr when none.
  const DecodeBatchFigures* MostCommon() const;
  // Share of busy reports that ran without a CUDA graph; nullopt when none say.
  std::optional<double> GraphOffShare() const;
};

// Sums reports up as a log streams by.
class DecodeSummarizer {
 public:
  static constexpr size_t kMaxKeptSamples = 200000;
  static constexpr size_t kMaxBatchesKept = 32;  // in the summary, besides 1 request

  // `rank`: the line's rank ("TP0", "DP1 TP2", "Engine 000"); reports of other
  // ranks than the chosen one are left out.
  void Add(const DecodeSample& sample, std::string_view rank);
  // vLLM's speculative report, attached to the throughput report before it
  // (it carries no engine index of its own: it counts when that report did).
  void AddSpec(const SpecMetrics& spec);
  bool empty() const { return samples_ == 0; }
  DecodeSummary Summary() const;

 private:
  struct Batch {
    std::vector<double> tok_s;
    int64_t busy = 0;
    double accept_sum = 0;
    int64_t accept_n = 0;
  };
  // True when reports of `rank` count; switches to a preferred rank seen late.
  bool Counts(std::string_view rank);
  void Reset();

  std::string rank_;
  bool have_rank_ = false;
  std::map<int64_t, Batch> batches_;
  int64_t samples_ = 0, idle_ = 0, kept_ = 0;
  bool capped_ = false;
  double accept_sum_ = 0, rate_sum_ = 0;
  int64_t accept_n_ = 0, rate_n_ = 0;
  std::vector<double> pos_sum_;
  std::vector<int64_t> pos_n_;
  int64_t graph_reports_ = 0, graph_off_ = 0;
  int64_t first_line_ = 0, last_line_ = 0;
  // The last report, for vLLM's speculative line that follows it.
  bool last_counted_ = false, last_busy_ = false;
  int64_t last_running_ = 0;
};

}  // namespace kvplan
