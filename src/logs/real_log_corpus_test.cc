// The corpus of real start-up logs (tests/data/real/corpus.tsv): every log a user
// pasted into a public issue, PR or discussion, stored under tests/data/real/<engine>/
// with its source in SOURCES.md. Each row names the figures the log itself prints, read
// by a person from the log text; this test reads each log as `kvplan explain` does and
// checks that every figure comes back. A figure the reader cannot read yet is listed as
// a known gap with its reason; the test checks that it is still a gap, so that closing
// one fails here until the row moves it to the figures.
#include <dirent.h>

#include <cctype>
#include <cmath>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

struct CorpusRow {
  std::string file;
  size_t runs = 0;
  std::string engine, outcome;
  std::vector<std::string> figures, gaps;
  std::string why;
  int line = 0;
};

std::vector<std::string> Words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::vector<CorpusRow> ReadManifest() {
  std::ifstream in(kvplan::testing::RealData("corpus.tsv"));
  std::vector<CorpusRow> rows;
  std::string text;
  for (int n = 1; std::getline(in, text); ++n) {
    if (text.empty() || text[0] == '#') continue;
    std::vector<std::string> col;
    std::istringstream cells(text);
    for (std::string c; std::getline(cells, c, '\t');) col.push_back(c);
    col.resize(7);
    rows.push_back(
        {col[0], std::stoul(col[1]), col[2], col[3], Words(col[4]), Words(col[5]), col[6], n});
  }
  return rows;
}

// What the reader gives for one manifest key: a figure ("kv_tokens"), the smallest free
// memory or usage a stage reports over its ranks ("avail@load_weight_end",
// "usage@load_weight_end"), the ranks reporting it ("ranks@kv_allocated"), the layout read
// from rank tags ("tp", "dp", "pp"), a printed setting ("set:mem_fraction_static"), or the
// GPU capacity from an nvidia-smi table.
std::optional<double> Reading(const RunRecord& r, const std::string& key) {
  size_t at = key.find('@');
  if (at != std::string::npos) {
    std::string what = key.substr(0, at), stage = key.substr(at + 1);
    if (what == "avail") return r.MinAvail(stage);
    if (what == "usage") return r.MinUsage(stage);
    if (what == "ranks") return r.RankCount(stage);
    return std::nullopt;
  }
  if (key.rfind("set:", 0) == 0) return r.SettingNumber(key.substr(4));
  if (key == "tp") return r.tp_from_ranks;
  if (key == "dp") return r.dp_from_ranks;
  if (key == "pp") return r.pp_from_ranks;
  if (key == "gpu_capacity_mib") return static_cast<double>(r.gpu_capacity_mib);
  return r.Figure(key);
}

struct Expect {
  size_t run;  // index into the log's runs
  std::string key, value;
};

// "run1.kv_tokens=91749" names the first launch of a log holding several; a bare key
// names the last, the one `kvplan explain` shows by default.
Expect ParseExpect(const std::string& word, size_t runs) {
  Expect e{runs == 0 ? 0 : runs - 1, word, ""};
  if (word.rfind("run", 0) == 0 && word.size() > 3 && std::isdigit(word[3]) != 0) {
    size_t dot = word.find('.');
    e.run = std::stoul(word.substr(3, dot - 3)) - 1;
    e.key = word.substr(dot + 1);
  }
  size_t eq = e.key.find('=');
  e.value = e.key.substr(eq + 1);
  e.key = e.key.substr(0, eq);
  return e;
}

bool Matches(const RunRecord& r, const Expect& e) {
  if (e.key == "version") return r.version == e.value;
  if (e.key == "model") return r.model == e.value;
  if (e.key == "era_has") return r.era.find(e.value) != std::string::npos;
  std::optional<double> got = Reading(r, e.key);
  double want = std::stod(e.value);
  return got && std::fabs(*got - want) <= 1e-9 * std::max(1.0, std::fabs(want));
}

std::string Shown(const RunRecord& r, const Expect& e) {
  if (e.key == "version") return "'" + r.version + "'";
  if (e.key == "model") return "'" + r.model + "'";
  if (e.key == "era_has") return "'" + r.era + "'";
  std::optional<double> got = Reading(r, e.key);
  return got ? std::to_string(*got) : "nothing";
}

void CheckRow(const CorpusRow& row) {
  SCOPED_TRACE("tests/data/real/corpus.tsv:" + std::to_string(row.line) + " " + row.file);
  const std::string path = kvplan::testing::RealData(row.file);
  ScanResult scanned = ScanLogFile(path);
  std::vector<RunRecord> runs;
  ASSERT_NO_THROW(runs = ReadRunsOrThrow(path, scanned)) << "explain would refuse the log";
  ASSERT_EQ(runs.size(), row.runs);
  const RunRecord& last = runs.back();
  EXPECT_EQ(last.engine, row.engine);
  EXPECT_EQ(last.outcome, row.outcome) << last.error;
  for (const std::string& word : row.figures) {
    Expect e = ParseExpect(word, runs.size());
    ASSERT_LT(e.run, runs.size()) << word;
    EXPECT_TRUE(Matches(runs[e.run], e)) << word << ": read " << Shown(runs[e.run], e);
  }
  EXPECT_TRUE(row.gaps.empty() || !row.why.empty()) << "a known gap needs its reason";
  for (const std::string& word : row.gaps) {
    Expect e = ParseExpect(word, runs.size());
    ASSERT_LT(e.run, runs.size()) << word;
    EXPECT_FALSE(Matches(runs[e.run], e))
        << word << " is read now: move it from the gaps to the figures (" << row.why << ")";
  }
}

TEST(RealLogCorpus, EveryLogParsesAndGivesBackTheFiguresItPrints) {
  std::vector<CorpusRow> rows = ReadManifest();
  for (const CorpusRow& row : rows) CheckRow(row);
}

TEST(RealLogCorpus, EveryStoredLogHasAManifestRowAndEveryEngineIsCovered) {
  std::set<std::string> listed, engines;
  for (const CorpusRow& row : ReadManifest()) {
    EXPECT_TRUE(listed.insert(row.file).second) << "listed twice: " << row.file;
    engines.insert(row.engine);
  }
  size_t stored = 0;
  for (const char* dir : {"sglang", "vllm", "trtllm"}) {
    DIR* d = opendir(kvplan::testing::RealData(dir).c_str());
    ASSERT_NE(d, nullptr) << dir;
    for (dirent* e = readdir(d); e != nullptr; e = readdir(d)) {
      std::string name = e->d_name;
      if (name.size() < 4 || name.substr(name.size() - 4) != ".log") continue;
      ++stored;
      EXPECT_EQ(listed.count(std::string(dir) + "/" + name), 1u) << "no manifest row: " << name;
    }
    closedir(d);
  }
  EXPECT_EQ(stored, listed.size());
  EXPECT_GE(stored, 60u);
  EXPECT_EQ(engines, (std::set<std::string>{"sglang", "trtllm", "vllm"}));
}

}  // namespace
}  // namespace kvplan
