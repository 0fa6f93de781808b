#include "logs/decode_summary.h"

#include <algorithm>

namespace kvplan {
namespace {

// TP0 (alone or as "DP0 TP0 EP0") and vLLM's first engine print the steps every
// rank prints; they are the ranks a reader looks at first.
bool IsPreferred(std::string_view rank) {
  if (rank == "Engine 000") return true;
  size_t at = rank.find("TP0");
  while (at != std::string_view::npos) {
    bool starts = at == 0 || rank[at - 1] == ' ';
    bool ends = at + 3 == rank.size() || rank[at + 3] == ' ';
    if (starts && ends) return true;
    at = rank.find("TP0", at + 1);
  }
  return false;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::optional<double> MeanOf(double sum, int64_t n) {
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

}  // namespace

const DecodeBatchFigures* DecodeSummary::Batch(int64_t running_reqs) const {
  for (const DecodeBatchFigures& b : batches) {
    if (b.running_reqs == running_reqs) return &b;
  }
  return nullptr;
}

const DecodeBatchFigures* DecodeSummary::MostCommon() const {
  return batches.empty() ? nullptr : &batches.front();
}

std::optional<double> DecodeSummary::GraphOffShare() const {
  if (graph_reports == 0) return std::nullopt;
  return static_cast<double>(graph_off) / static_cast<double>(graph_reports);
}

bool DecodeSummarizer::Counts(std::string_view rank) {
  if (!have_rank_) {
    have_rank_ = true;
    rank_ = rank;
    return true;
  }
  if (rank == rank_) return true;
  if (IsPreferred(rank) && !IsPreferred(rank_)) {
    Reset();
    have_rank_ = true;
    rank_ = rank;
    return true;
  }
  return false;
}

void DecodeSummarizer::Reset() { *this = DecodeSummarizer{}; }

void DecodeSummarizer::Add(const DecodeSample& s, std::string_view rank) {
  last_counted_ = Counts(rank);
  if (!last_counted_) return;
  ++samples_;
  if (first_line_ == 0) first_line_ = s.line;
  last_line_ = s.line;
  last_busy_ = s.gen_tok_s > 0 && s.running_reqs > 0;
  last_running_ = s.running_reqs;
  if (!last_busy_) {
    ++idle_;
    return;
  }
  Batch& b = batches_[s.running_reqs];
  ++b.busy;
  if (kept_ < static_cast<int64_t>(kMaxKeptSamples)) {
    b.tok_s.push_back(s.gen_tok_s);
    ++kept_;
  } else {
    capped_ = true;
  }
  if (s.accept_len) {
    b.accept_sum += *s.accept_len;
    ++b.accept_n;
    accept_sum_ += *s.accept_len;
    ++accept_n_;
  }
  if (s.accept_rate) {
    rate_sum_ += *s.accept_rate;
    ++rate_n_;
  }
  if (s.cuda_graph) {
    ++graph_reports_;
    if (!*s.cuda_graph) ++graph_off_;
  }
}

void DecodeSummarizer::AddSpec(const SpecMetrics& m) {
  if (!last_counted_ || !last_busy_) return;
  last_counted_ = false;  // one speculative report per throughput report
  if (m.accept_len) {
    Batch& b = batches_[last_running_];
    b.accept_sum += *m.accept_len;
    ++b.accept_n;
    accept_sum_ += *m.accept_len;
    ++accept_n_;
  }
  if (m.accept_rate) {
    rate_sum_ += *m.accept_rate;
    ++rate_n_;
  }
  if (m.per_position.size() > pos_sum_.size()) {
    pos_sum_.resize(m.per_position.size(), 0);
    pos_n_.resize(m.per_position.size(), 0);
  }
  for (size_t i = 0; i < m.per_position.size(); ++i) {
    pos_sum_[i] += m.per_position[i];
    ++pos_n_[i];
  }
}

DecodeSummary DecodeSummarizer::Summary() const {
  DecodeSummary out;
  out.samples = samples_;
  out.idle = idle_;
  out.rank = rank_;
  out.capped = capped_;
  out.first_line = first_line_;
  out.last_line = last_line_;
  out.mean_accept_len = MeanOf(accept_sum_, accept_n_);
  out.mean_accept_rate = MeanOf(rate_sum_, rate_n_);
  for (size_t i = 0; i < pos_sum_.size(); ++i) {
    out.per_position_acceptance.push_back(pos_sum_[i] / static_cast<double>(pos_n_[i]));
  }
  out.graph_reports = graph_reports_;
  out.graph_off = graph_off_;
  for (const auto& [running, b] : batches_) {
    if (b.tok_s.empty()) continue;  // every report of it came after the cap
    out.batches.push_back({running, b.busy, Median(b.tok_s), MeanOf(b.accept_sum, b.accept_n)});
  }
  std::stable_sort(out.batches.begin(), out.batches.end(),
                   [](const DecodeBatchFigures& x, const DecodeBatchFigures& y) {
                     return x.samples > y.samples;
                   });
  if (out.batches.size() > kMaxBatchesKept) {
    auto one = std::find_if(out.batches.begin() + kMaxBatchesKept, out.batches.end(),
                            [](const DecodeBatchFigures& b) { return b.running_reqs == 1; });
    if (one != out.batches.end()) std::iter_swap(out.batches.begin() + kMaxBatchesKept - 1, one);
    out.batches.resize(kMaxBatchesKept);
  }
  return out;
}

}  // namespace kvplan
