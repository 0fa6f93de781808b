// KV tokens of sliding-window, chunked-attention and hybrid models against the public logs
// (issue 14, "Targets": each pool's tokens exact when the measured memory is given). Every row
// of tests/data/real/pool_tokens.tsv is a start-up log of such a model that prints the KV
// memory it measured and the tokens that memory gave. The log prints the memory in GiB to two
// decimals, so the engine's bytes lie in [X - 0.005, X + 0.005) GiB: the launch is planned
// through PlanLaunch at both ends, and the printed tokens must lie between the two plans
// (where both ends give the same tokens, that is equality). The printed figure itself is
// never an input of the plan's tokens.
#include <gtest/gtest.h>

#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "engines/engine.h"
#include "kvplan/error.h"
#include "testing/corpus_plan.h"
#include "testing/test_data.h"
#include "testing/tsv.h"

namespace kvplan {
namespace {

struct PoolTokensRow {
  std::string log, engine, version, model, gpu, memory, tokens, kinds;
  std::vector<std::string> args;
};

std::vector<PoolTokensRow> ReadPoolTokensTable() {
  std::vector<PoolTokensRow> rows;
  for (const std::vector<std::string>& c : testing::RealTsvRows("pool_tokens.tsv", 10)) {
    rows.push_back(
        {c[0], c[1], c[2], c[3], c[4], c[6], c[7], c[8], testing::SplitFields(c[5], ' ')});
  }
  return rows;
}

// The number in a printed figure ("Available KV cache memory: 19.53 GiB", "GPU KV cache size:
// 36,560 tokens"), thousands separators dropped.
double PrintedNumber(const std::string& printed) {
  const size_t colon = printed.rfind(": ");
  std::string digits;
  for (size_t i = colon + 2; i < printed.size() && printed[i] != ' '; ++i) {
    if (printed[i] != ',') digits += printed[i];
  }
  return std::stod(digits);
}

bool LogHolds(const PoolTokensRow& row, const std::string& text) {
  std::ifstream in(testing::RealData(row.log));
  std::string line;
  while (std::getline(in, line)) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

int64_t PlannedTokens(const PoolTokensRow& row, double kv_gib) {
  PlanRequest req = testing::CorpusPlanRequest(row);
  req.measured_gib["kv_cache"] = kv_gib;
  try {
    return PlanLaunch(req).max_total_num_tokens;
  } catch (const InputError& e) {
    ADD_FAILURE() << row.log << ": " << e.what();
  }
  return -1;
}

TEST(PoolTokensCorpus, TokensFromTheMeasuredMemoryOnEveryPublicLog) {
  std::string table = fmt::format("{:<66} {:>8} {:>10} {:>10} {:>10}  {}\n", "log", "GiB", "logged",
                                  "plan lo", "plan hi", "kinds");
  int exact = 0;
  const std::vector<PoolTokensRow> rows = ReadPoolTokensTable();
  ASSERT_GE(rows.size(), 12u);
  for (const PoolTokensRow& row : rows) {
    EXPECT_TRUE(LogHolds(row, row.memory)) << row.log << " does not print '" << row.memory << "'";
    EXPECT_TRUE(LogHolds(row, row.tokens)) << row.log << " does not print '" << row.tokens << "'";
    const double gib = PrintedNumber(row.memory);
    const auto logged = static_cast<int64_t>(PrintedNumber(row.tokens));
    const int64_t lo = PlannedTokens(row, gib - 0.005), hi = PlannedTokens(row, gib + 0.005);
    EXPECT_LE(lo, logged) << row.log << " (" << row.kinds << ")";
    EXPECT_GE(hi, logged) << row.log << " (" << row.kinds << ")";
    if (lo == logged && hi == logged) ++exact;
    table += fmt::format("{:<66} {:>8.2f} {:>10} {:>10} {:>10}  {}\n", row.log, gib, logged, lo, hi,
                         row.kinds);
  }
  std::cout << table
            << fmt::format("pool tokens: {} logs, {} equal at both ends of the printed memory\n",
                           rows.size(), exact);
}

TEST(PoolTokensCorpus, PrintedNumbers) {
  EXPECT_DOUBLE_EQ(PrintedNumber("Available KV cache memory: 19.53 GiB"), 19.53);
  EXPECT_DOUBLE_EQ(PrintedNumber("GPU KV cache size: 2,591,776 tokens"), 2591776);
}

}  // namespace
}  // namespace kvplan
