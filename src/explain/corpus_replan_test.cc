// The target over the whole corpus of real logs (tests/data/real/corpus.tsv):
// where a log holds enough figures, `kvplan explain` re-plans its KV budget and lands
// within 0.5 % of the KV tokens the log prints; elsewhere it names in one line the
// figure that is missing. tests/data/real/replan.tsv gives each log's expected outcome,
// written from reading the log; a log that moves category fails here.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "explain/explain.h"
#include "explain/log_vllm_replan.h"
#include "kvplan/explain.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

struct ReplanRow {
  std::string file, expected, reason;  // reason: a phrase the missing line must hold
};

std::vector<ReplanRow> ReadReplanTable() {
  std::ifstream in(testing::RealData("replan.tsv"));
  std::vector<ReplanRow> rows;
  for (std::string text; std::getline(in, text);) {
    if (text.empty() || text[0] == '#') continue;
    std::vector<std::string> col;
    std::istringstream cells(text);
    for (std::string c; std::getline(cells, c, '\t');) col.push_back(c);
    col.resize(3);
    rows.push_back({col[0], col[1], col[2]});
  }
  return rows;
}

std::vector<std::string> CorpusFiles() {
  std::ifstream in(testing::RealData("corpus.tsv"));
  std::vector<std::string> files;
  for (std::string text; std::getline(in, text);) {
    if (text.empty() || text[0] == '#') continue;
    files.push_back(text.substr(0, text.find('\t')));
  }
  return files;
}

// What explain did with one log: "replan" (with its error against the logged tokens),
// "unchecked" (re-planned, the log prints no KV tokens to check), "failed" (the run and
// the re-plan both fail), or "missing" (with the one line that says why).
struct Outcome {
  std::string category, missing;
  double relative = 0;
};

Outcome SglangOutcome(const SglangExplain& s) {
  if (!s.unavailable.empty()) return {"missing", s.unavailable};
  switch (s.check.kind) {
    case SglangLogCheck::kMatches:
    case SglangLogCheck::kClose:
    case SglangLogCheck::kMismatch:
      return {"replan", "", s.check.relative};
    case SglangLogCheck::kBothFail:
    case SglangLogCheck::kModelFitsButFailed:
      return {"failed", ""};
    case SglangLogCheck::kNone:
      break;
  }
  return {"unchecked", ""};
}

Outcome VllmOutcome(const VllmExplain& v, const RunRecord& r) {
  if (!v.unavailable.empty()) return {"missing", v.unavailable};
  if (v.kv_only) return {"replan", "", v.tokens_relative};
  std::optional<double> logged = LoggedKvTokens(r);
  if (v.verdict.tokens && logged && *logged > 0) {
    return {"replan", "", (static_cast<double>(*v.verdict.tokens) - *logged) / *logged};
  }
  if (v.kv_logged && v.logged_kv_gib > 0) {
    // No model, so no tokens: the budget sum is checked against the logged budget.
    return {"budget", "", (v.verdict.kv_gib - v.logged_kv_gib) / v.logged_kv_gib};
  }
  return {"unchecked", ""};
}

Outcome OutcomeOf(const std::string& file) {
  ExplainRequest request;
  request.log_path = testing::RealData(file);
  ExplainResult e = ExplainLog(request);
  if (e.sglang) return SglangOutcome(*e.sglang);
  if (e.vllm) return VllmOutcome(*e.vllm, e.run);
  if (e.trtllm && e.trtllm->unavailable.empty()) return {"replan", "", e.trtllm->relative};
  if (e.trtllm) return {"missing", e.trtllm->unavailable};
  return {"missing", "(no engine section)"};
}

TEST(CorpusReplan, EveryLogReplansWithinHalfAPercentOrNamesTheMissingFigure) {
  std::vector<ReplanRow> rows = ReadReplanTable();
  std::vector<std::string> files = CorpusFiles();
  ASSERT_EQ(rows.size(), files.size()) << "replan.tsv needs one row per corpus.tsv row";
  std::map<std::string, int> counts;
  std::vector<double> errors;
  for (size_t i = 0; i < rows.size(); ++i) {
    const ReplanRow& row = rows[i];
    EXPECT_EQ(row.file, files[i]) << "replan.tsv follows corpus.tsv's order";
    Outcome o = OutcomeOf(row.file);
    ++counts[o.category];
    EXPECT_EQ(o.category, row.expected) << row.file << ": " << o.missing;
    if (o.category == "replan" || o.category == "budget") {
      errors.push_back(o.relative);
      EXPECT_LE(std::fabs(o.relative), 0.005) << row.file;
    }
    if (o.category == "missing") {
      EXPECT_EQ(o.missing.find('\n'), std::string::npos) << row.file << ": one line";
      EXPECT_NE(o.missing.find(row.reason), std::string::npos)
          << row.file << ": \"" << o.missing << "\" should name \"" << row.reason << "\"";
    }
  }
  std::sort(errors.begin(), errors.end(),
            [](double a, double b) { return std::fabs(a) < std::fabs(b); });
  std::string summary;
  for (const auto& [category, n] : counts) summary += fmt::format(" {} {}", category, n);
  std::string spread;
  for (double x : errors) spread += fmt::format(" {:+.3f}%", 100 * x);
  std::cout << "corpus re-plan:" << summary << "\n  errors (by size):" << spread << "\n";
}

}  // namespace
}  // namespace kvplan
