// The decode reports in the exact shapes the engines print (SGLang
// scheduler_metrics_mixin.py log_decode_stats; vLLM v1 loggers.py and
// spec_decode/metrics.py; vLLM V0 metrics.py), and what a cut or garbled one
// gives: nothing, never a number the line did not hold.
#include "logs/decode_lines.h"

#include <string>

#include <gtest/gtest.h>

namespace kvplan {
namespace {

TEST(SglangDecodeLine, PlainBatchWithPeriodAfterDecodeBatch) {
  auto s = ParseSglangDecodeLine(
      "Decode batch. #running-req: 1, #token: 206, token usage: 0.00, cuda graph: True, gen "
      "throughput (token/s): 656.23, #queue-req: 0");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->running_reqs, 1);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 656.23);
  EXPECT_FALSE(s->accept_len);
  EXPECT_FALSE(s->accept_rate);
  ASSERT_TRUE(s->cuda_graph);
  EXPECT_TRUE(*s->cuda_graph);
}

TEST(SglangDecodeLine, MambaPoolsAndSpeculationWithCommaAfterDecodeBatch) {
  auto s = ParseSglangDecodeLine(
      "Decode batch, #running-req: 9, #full token: 11584, full token usage: 0.01, mamba num: 36, "
      "mamba usage: 0.60, accept len: 3.04, accept rate: 0.68, cuda graph: True, gen throughput "
      "(token/s): 22.40, #queue-req: 1, ");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->running_reqs, 9);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 22.40);
  EXPECT_DOUBLE_EQ(*s->accept_len, 3.04);
  EXPECT_DOUBLE_EQ(*s->accept_rate, 0.68);
}

TEST(SglangDecodeLine, FieldOrderIterationTagDisaggregationAndCacheMiss) {
  // LOG_FORWARD_ITERS adds " [iter]"; PD decode adds the pre-allocated fields; some
  // releases end with #cache_miss; the graph flag may come last.
  auto s = ParseSglangDecodeLine(
      "Decode batch [1234], #running-req: 32, #token: 9000, token usage: 0.10, "
      "pre-allocated usage: 0.02, #prealloc-req: 0, #transfer-req: 1, #retracted-req: 0, "
      "gen throughput (token/s): 1500.50, #queue-req: 3, cuda graph: False, #cache_miss: 7");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->running_reqs, 32);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 1500.5);
  ASSERT_TRUE(s->cuda_graph);
  EXPECT_FALSE(*s->cuda_graph);
}

TEST(SglangDecodeLine, OlderLineWithoutGraphFlag) {
  auto s = ParseSglangDecodeLine(
      "Decode batch. #running-req: 4, #token: 800, token usage: 0.01, gen throughput (token/s): "
      "120.00, #queue-req: 0");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->cuda_graph);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 120.0);
}

TEST(SglangDecodeLine, CutOrGarbledLinesGiveNothing) {
  // Cut inside the throughput: "65" is not what the engine measured.
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Decode batch. #running-req: 1, #token: 206, token usage: 0.00, cuda graph: True, gen "
      "throughput (token/s): 65"));
  // Cut before the throughput.
  EXPECT_FALSE(ParseSglangDecodeLine("Decode batch. #running-req: 1, #token: 206, tok"));
  EXPECT_FALSE(ParseSglangDecodeLine("Decode batch. #running-req: 1"));
  EXPECT_FALSE(ParseSglangDecodeLine("Decode batch"));
  // Garbled figures.
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Decode batch. #running-req: x, gen throughput (token/s): 12.00, #queue-req: 0"));
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Decode batch. #running-req: 1.5, gen throughput (token/s): 12.00, #queue-req: 0"));
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Decode batch. #running-req: 1, gen throughput (token/s): -3.00, #queue-req: 0"));
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Decode batch. #running-req: 1, gen throughput (token/s): 1e300, #queue-req: 0"));
  EXPECT_FALSE(ParseSglangDecodeLine(
      "Prefill batch. #new-seq: 1, #new-token: 5, #cached-token: 0, #running-req: 0, "));
}

TEST(SglangDecodeLine, CutAcceptLengthIsDroppedButTheRestIsKept) {
  // The accept fields come before the throughput, so a line cut inside them has no
  // throughput either; a garbled accept length alone is dropped.
  auto s = ParseSglangDecodeLine(
      "Decode batch, #running-req: 2, accept len: ?.??, cuda graph: True, gen throughput "
      "(token/s): 80.00, #queue-req: 0");
  ASSERT_TRUE(s);
  EXPECT_FALSE(s->accept_len);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 80.0);
}

TEST(VllmThroughputLine, V1EngineLine) {
  auto s = ParseVllmThroughputLine(
      "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 82.1 "
      "tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit "
      "rate: 0.0%");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->engine, 0);
  EXPECT_EQ(s->running_reqs, 1);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 82.1);
  EXPECT_FALSE(s->cuda_graph);
  auto dp = ParseVllmThroughputLine(
      "Engine 003: Avg prompt throughput: 10.0 tokens/s, Avg generation throughput: 1,204.5 "
      "tokens/s, Running: 12 reqs, Waiting: 0 reqs, GPU KV cache usage: 4.0%, Prefix cache hit "
      "rate: 0.0%");
  ASSERT_TRUE(dp);
  EXPECT_EQ(dp->engine, 3);
  EXPECT_DOUBLE_EQ(dp->gen_tok_s, 1204.5);
}

TEST(VllmThroughputLine, V0LineWithSwapped) {
  auto s = ParseVllmThroughputLine(
      "Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 75.3 tokens/s, Running: 6 "
      "reqs, Swapped: 0 reqs, Pending: 0 reqs, GPU KV cache usage: 9.2%, CPU KV cache usage: "
      "0.0%.");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->engine, -1);
  EXPECT_EQ(s->running_reqs, 6);
  EXPECT_DOUBLE_EQ(s->gen_tok_s, 75.3);
}

TEST(VllmThroughputLine, CutOrGarbledLinesGiveNothing) {
  EXPECT_FALSE(ParseVllmThroughputLine(
      "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 82"));
  EXPECT_FALSE(ParseVllmThroughputLine(
      "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 82.1 "
      "tokens/s, Running: 1"));
  EXPECT_FALSE(ParseVllmThroughputLine(
      "Engine zz: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 82.1 "
      "tokens/s, Running: 1 reqs, Waiting: 0 reqs"));
  EXPECT_FALSE(ParseVllmThroughputLine("Engine 000: vllm cache_config_info with initialization"));
}

TEST(VllmSpecLine, V1MeanAcceptanceLengthAndPerPosition) {
  auto m = ParseVllmSpecLine(
      "SpecDecoding metrics: Mean acceptance length: 2.31, Accepted throughput: 40.12 tokens/s, "
      "Drafted throughput: 93.00 tokens/s, Accepted: 401 tokens, Drafted: 930 tokens, "
      "Per-position acceptance rate: 0.645, 0.393, 0.240, Avg Draft acceptance rate: 43.1%");
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(*m->accept_len, 2.31);
  EXPECT_DOUBLE_EQ(*m->accept_rate, 0.431);
  ASSERT_EQ(m->per_position.size(), 3u);
  EXPECT_DOUBLE_EQ(m->per_position[0], 0.645);
  EXPECT_DOUBLE_EQ(m->per_position[2], 0.240);
}

TEST(VllmSpecLine, OlderV1OrderWithPerPositionLast) {
  auto m = ParseVllmSpecLine(
      "SpecDecoding metrics: Draft acceptance rate: 64.2%, Mean acceptance length: 2.93, "
      "Accepted: 1000 tokens, Drafted: 1557 tokens, Per-position acceptance rate: 0.790, 0.640, "
      "0.500");
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(*m->accept_rate, 0.642);
  EXPECT_DOUBLE_EQ(*m->accept_len, 2.93);
  EXPECT_EQ(m->per_position.size(), 3u);
  // Cut inside the last rate: "0.5" is not what vLLM printed ("%.3f").
  auto cut = ParseVllmSpecLine(
      "SpecDecoding metrics: Draft acceptance rate: 64.2%, Mean acceptance length: 2.93, "
      "Accepted: 1000 tokens, Drafted: 1557 tokens, Per-position acceptance rate: 0.790, 0.640, "
      "0.5");
  ASSERT_TRUE(cut);
  EXPECT_EQ(cut->per_position.size(), 2u);
}

TEST(VllmSpecLine, V0SpeculativeMetricsFromIssue9539) {
  // vllm issue #9539 (v0.6.3), hand arithmetic: 13311 draft tokens / k 3 = 4437 verify
  // steps; 10616 emitted / 4437 = 2.3926 tokens per step.
  auto m = ParseVllmSpecLine(
      "Speculative metrics: Draft acceptance rate: 0.642, System efficiency: 0.598, Number of "
      "speculative tokens: 3, Number of accepted tokens: 8547, Number of draft tokens: 13311, "
      "Number of emitted tokens: 10616.");
  ASSERT_TRUE(m);
  EXPECT_DOUBLE_EQ(*m->accept_rate, 0.642);
  ASSERT_TRUE(m->accept_len);
  EXPECT_NEAR(*m->accept_len, 10616.0 / 4437.0, 1e-12);
  // Cut: the emitted count is incomplete, so no length; the rate before it stands.
  auto cut = ParseVllmSpecLine(
      "Speculative metrics: Draft acceptance rate: 0.642, System efficiency: 0.598, Number of "
      "speculative tokens: 3, Number of accepted tokens: 8547, Number of draft tokens: 13311, "
      "Number of emitted tokens: 106");
  ASSERT_TRUE(cut);
  EXPECT_FALSE(cut->accept_len);
}

TEST(VllmSpecLine, NothingReadableGivesNothing) {
  EXPECT_FALSE(ParseVllmSpecLine("SpecDecoding metrics: Mean acceptance len"));
  EXPECT_FALSE(ParseVllmSpecLine("SpecDecoding metrics: Avg Draft acceptance rate: nan%"));
  EXPECT_FALSE(ParseVllmSpecLine("Some other line"));
}

// Property: a line cut anywhere gives nothing or exactly the full line's figures
// (a cut may drop an optional figure, never change one).
TEST(DecodeLines, EveryPrefixOfALineGivesNothingOrTheSameFigures) {
  std::string sglang =
      "Decode batch, #running-req: 9, #full token: 11584, full token usage: 0.01, mamba num: 36, "
      "mamba usage: 0.60, accept len: 3.04, accept rate: 0.68, cuda graph: True, gen throughput "
      "(token/s): 22.40, #queue-req: 1, ";
  auto full = ParseSglangDecodeLine(sglang);
  ASSERT_TRUE(full);
  for (size_t n = 0; n < sglang.size(); ++n) {
    auto s = ParseSglangDecodeLine(std::string_view(sglang).substr(0, n));
    if (!s) continue;
    EXPECT_EQ(s->running_reqs, full->running_reqs) << n;
    EXPECT_EQ(s->gen_tok_s, full->gen_tok_s) << n;
    EXPECT_EQ(s->accept_len, full->accept_len) << n;
    EXPECT_EQ(s->cuda_graph, full->cuda_graph) << n;
  }
  std::string vllm =
      "Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation throughput: 82.1 "
      "tokens/s, Running: 12 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit "
      "rate: 0.0%";
  auto vfull = ParseVllmThroughputLine(vllm);
  ASSERT_TRUE(vfull);
  for (size_t n = 0; n < vllm.size(); ++n) {
    auto s = ParseVllmThroughputLine(std::string_view(vllm).substr(0, n));
    if (!s) continue;
    EXPECT_EQ(s->running_reqs, vfull->running_reqs) << n;
    EXPECT_EQ(s->gen_tok_s, vfull->gen_tok_s) << n;
  }
  std::string spec =
      "SpecDecoding metrics: Mean acceptance length: 2.31, Accepted throughput: 40.12 tokens/s, "
      "Drafted throughput: 93.00 tokens/s, Accepted: 401 tokens, Drafted: 930 tokens, "
      "Per-position acceptance rate: 0.645, 0.393, 0.240, Avg Draft acceptance rate: 43.1%";
  auto sfull = ParseVllmSpecLine(spec);
  ASSERT_TRUE(sfull);
  for (size_t n = 0; n < spec.size(); ++n) {
    auto m = ParseVllmSpecLine(std::string_view(spec).substr(0, n));
    if (!m) continue;
    EXPECT_TRUE(!m->accept_len || *m->accept_len == *sfull->accept_len) << n;
    EXPECT_TRUE(!m->accept_rate || *m->accept_rate == *sfull->accept_rate) << n;
    ASSERT_LE(m->per_position.size(), sfull->per_position.size()) << n;
    for (size_t i = 0; i < m->per_position.size(); ++i) {
      EXPECT_EQ(m->per_position[i], sfull->per_position[i]) << n;
    }
  }
}

}  // namespace
}  // namespace kvplan
