// Summing decode reports up: medians by running-request count (hand-computed),
// idle reports left out, one rank counted, vLLM's speculative report attached
// to the throughput report before it, and the JSON round trip.
#include "logs/decode_summary.h"
#include "logs/run_record_json.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace kvplan {
namespace {

DecodeSample Sample(int64_t running, double tok_s, std::optional<double> accept = std::nullopt,
                    std::optional<bool> graph = true, int64_t line = 1) {
  DecodeSample s;
  s.running_reqs = running;
  s.gen_tok_s = tok_s;
  s.accept_len = accept;
  s.cuda_graph = graph;
  s.line = line;
  return s;
}

TEST(DecodeSummary, MediansByBatchWithIdleReportsLeftOut) {
  DecodeSummarizer d;
  d.Add(Sample(1, 80, std::nullopt, true, 10), "");
  d.Add(Sample(1, 0, std::nullopt, true, 11), "");  // idle: 0 tok/s
  d.Add(Sample(1, 84, std::nullopt, true, 12), "");
  d.Add(Sample(1, 82, std::nullopt, false, 13), "");
  d.Add(Sample(4, 300, std::nullopt, true, 14), "");
  d.Add(Sample(4, 310, std::nullopt, true, 15), "");
  d.Add(Sample(0, 5, std::nullopt, true, 16), "");  // no request running: idle
  DecodeSummary s = d.Summary();
  EXPECT_EQ(s.samples, 7);
  EXPECT_EQ(s.idle, 2);
  EXPECT_EQ(s.first_line, 10);
  EXPECT_EQ(s.last_line, 16);
  ASSERT_EQ(s.batches.size(), 2u);
  ASSERT_NE(s.MostCommon(), nullptr);
  EXPECT_EQ(s.MostCommon()->running_reqs, 1);
  EXPECT_EQ(s.MostCommon()->samples, 3);
  EXPECT_DOUBLE_EQ(s.MostCommon()->median_tok_s, 82);             // 80, 82, 84
  EXPECT_DOUBLE_EQ(s.Batch(4)->median_tok_s, (300 + 310) / 2.0);  // even count: the mean of two
  EXPECT_EQ(s.Batch(2), nullptr);
  // Graph flags of busy reports only: 1 of 5 ran without a graph.
  EXPECT_EQ(s.graph_reports, 5);
  EXPECT_DOUBLE_EQ(*s.GraphOffShare(), 0.2);
  EXPECT_FALSE(s.mean_accept_len);
}

TEST(DecodeSummary, MeanAcceptLengthOverBusyReports) {
  DecodeSummarizer d;
  d.Add(Sample(1, 54, 2.2), "TP0");
  d.Add(Sample(1, 55, 2.4), "TP0");
  d.Add(Sample(1, 0, 9.0), "TP0");  // idle: its accept length is not counted
  d.Add(Sample(2, 90, 2.0), "TP0");
  DecodeSummary s = d.Summary();
  EXPECT_NEAR(*s.mean_accept_len, (2.2 + 2.4 + 2.0) / 3, 1e-12);
  EXPECT_NEAR(*s.Batch(1)->mean_accept_len, 2.3, 1e-12);
  EXPECT_EQ(s.rank, "TP0");
}

TEST(DecodeSummary, EachStepCountsOnceAcrossTpRanks) {
  DecodeSummarizer d;
  // Every rank prints the same step; TP1 happens to come first.
  for (int step = 0; step < 3; ++step) {
    d.Add(Sample(1, 80 + step), "TP1");
    d.Add(Sample(1, 80 + step), "TP0");
    d.Add(Sample(1, 80 + step), "TP2");
  }
  DecodeSummary s = d.Summary();
  EXPECT_EQ(s.rank, "TP0");
  EXPECT_EQ(s.samples, 3);
  EXPECT_DOUBLE_EQ(s.Batch(1)->median_tok_s, 81);
}

TEST(DecodeSummary, DpAttentionRanksKeepDp0Tp0) {
  DecodeSummarizer d;
  d.Add(Sample(3, 100), "DP1 TP1 EP1");
  d.Add(Sample(2, 90), "DP0 TP0 EP0");
  d.Add(Sample(3, 100), "DP1 TP1 EP1");
  d.Add(Sample(2, 92), "DP0 TP0 EP0");
  d.Add(Sample(2, 94), "DP0 TP10 EP0");  // TP10 is not TP0
  DecodeSummary s = d.Summary();
  EXPECT_EQ(s.rank, "DP0 TP0 EP0");
  EXPECT_EQ(s.samples, 2);
  EXPECT_DOUBLE_EQ(s.Batch(2)->median_tok_s, 91);
}

TEST(DecodeSummary, VllmSpecReportAttachesToTheThroughputReportBeforeIt) {
  DecodeSummarizer d;
  SpecMetrics m;
  m.accept_len = 2.5;
  m.accept_rate = 0.5;
  m.per_position = {0.8, 0.6, 0.1};
  d.AddSpec(m);  // before any throughput report: nothing to attach to
  d.Add(Sample(1, 100, std::nullopt, std::nullopt), "Engine 000");
  d.AddSpec(m);
  d.AddSpec(m);  // a second one for the same report is not counted twice
  d.Add(Sample(1, 120, std::nullopt, std::nullopt), "Engine 001");  // another engine
  d.AddSpec(m);                                                     // belongs to engine 1
  SpecMetrics n;
  n.accept_len = 1.5;
  n.per_position = {0.4, 0.2};
  d.Add(Sample(1, 110, std::nullopt, std::nullopt), "Engine 000");
  d.AddSpec(n);
  DecodeSummary s = d.Summary();
  EXPECT_EQ(s.samples, 2);
  EXPECT_DOUBLE_EQ(*s.mean_accept_len, 2.0);
  EXPECT_DOUBLE_EQ(*s.mean_accept_rate, 0.5);
  ASSERT_EQ(s.per_position_acceptance.size(), 3u);
  EXPECT_DOUBLE_EQ(s.per_position_acceptance[0], 0.6);
  EXPECT_DOUBLE_EQ(s.per_position_acceptance[1], 0.4);
  EXPECT_DOUBLE_EQ(s.per_position_acceptance[2], 0.1);
  EXPECT_FALSE(s.GraphOffShare());
}

TEST(DecodeSummary, BatchOneIsKeptAmongManyBatchSizes) {
  DecodeSummarizer d;
  for (int64_t running = 2; running < 60; ++running) {
    for (int i = 0; i < 3; ++i) d.Add(Sample(running, 10.0 * running), "");
  }
  d.Add(Sample(1, 7), "");
  DecodeSummary s = d.Summary();
  EXPECT_EQ(s.batches.size(), DecodeSummarizer::kMaxBatchesKept);
  ASSERT_NE(s.Batch(1), nullptr);
  EXPECT_DOUBLE_EQ(s.Batch(1)->median_tok_s, 7);
  EXPECT_EQ(s.MostCommon()->running_reqs, 2);  // ties: fewer requests first
}

TEST(DecodeSummary, JsonRoundTrip) {
  DecodeSummarizer d;
  d.Add(Sample(1, 54, 1.0, false, 5), "TP0");
  d.Add(Sample(1, 0, std::nullopt, true, 6), "TP0");
  DecodeSummary s = d.Summary();
  DecodeSummary back = DecodeSummaryFromJson(ToJson(s));
  EXPECT_EQ(ToJson(back), ToJson(s));
  EXPECT_EQ(back.samples, 2);
  EXPECT_EQ(back.idle, 1);
  EXPECT_DOUBLE_EQ(*back.Batch(1)->mean_accept_len, 1.0);
  EXPECT_DOUBLE_EQ(*back.GraphOffShare(), 1.0);
  EXPECT_FALSE(back.mean_accept_rate);
}

}  // namespace
}  // namespace kvplan
