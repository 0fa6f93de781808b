// Weights per GPU against the public logs (issue 14, "Targets": within 1 % of the engine's logged
// weight memory on every public log). Every row of tests/data/real/weights.tsv is a start-up log
// that prints a weight figure; the rows whose model has a real config are planned through
// PlanLaunch with only what the user would type, and the plan's weights per GPU are compared with
// the figure the log prints. Rows that cannot be within 1 % keep a bound and a reason; rows that
// cannot be planned say what is missing. The count of rows within 1 % is asserted (kWithin1Pct),
// and every log under tests/data/real/ that prints a weight figure must have a row.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <set>
#include <sstream>
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

struct WeightsRow {
  std::string log, engine, version, model, gpu, printed, check, why;
  std::vector<std::string> args;
  double bound_pct = 0;
};

std::vector<WeightsRow> ReadWeightsTable() {
  std::vector<WeightsRow> rows;
  for (const std::vector<std::string>& c : testing::RealTsvRows("weights.tsv", 10)) {
    WeightsRow r{c[0], c[1], c[2], c[3], c[4], c[6], c[7], c[9], {}, 0};
    if (c[5] != "-") r.args = testing::SplitFields(c[5], ' ');
    if (c[8] != "-") r.bound_pct = std::stod(c[8]);
    rows.push_back(r);
  }
  return rows;
}

// The figure in `printed` ("mem usage=15.50 GB", "Model loading took 14.99 GiB", "... 244.61
// MB", V0's profiling "model weights take 7.51GiB", unit glued to the number), in GiB: the
// engines' GB are GiB (vLLM divides by 2**30, SGLang by 1 << 30), MB MiB.
double PrintedGiB(const std::string& printed) {
  const size_t last_digit = printed.find_last_of("0123456789");
  const size_t begin = printed.find_last_not_of("0123456789.", last_digit) + 1;
  const double value = std::stod(printed.substr(begin, last_digit + 1 - begin));
  const size_t unit = printed.find_first_not_of(' ', last_digit + 1);
  return printed.compare(unit, 2, "MB") == 0 ? value / 1024 : value;
}

// A line on which an engine prints its weight memory: SGLang's "Load weight end ... mem
// usage=X GB" (older releases print only the free memory there), vLLM's "Model loading took X GiB"
// and "Loading model weights took X GB", and V0's memory profiling summary "model weights take
// X GiB" (worker.py, 0.6.4-0.8: the same model_memory_usage, printed once more per worker and in
// logs that lost the loading line).
bool PrintsWeightFigure(const std::string& line) {
  return (line.find("Load weight end") != std::string::npos &&
          line.find("mem usage=") != std::string::npos) ||
         line.find("Model loading took") != std::string::npos ||
         line.find("Loading model weights took") != std::string::npos ||
         line.find("model weights take") != std::string::npos;
}

// The log holds `printed` on one of its weight lines: the row reads what the log says.
bool LogPrints(const WeightsRow& row) {
  std::ifstream in(testing::RealData(row.log));
  std::string line;
  while (std::getline(in, line)) {
    if (PrintsWeightFigure(line) && line.find(row.printed) != std::string::npos) return true;
  }
  return false;
}

// Every .log under tests/data/real/ with a weight line, as a path relative to that folder.
std::set<std::string> LogsThatPrintWeights() {
  namespace fs = std::filesystem;
  const fs::path root = testing::RealData("");
  std::set<std::string> logs;
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file() || e.path().extension() != ".log") continue;
    std::ifstream in(e.path());
    std::string line;
    while (std::getline(in, line)) {
      if (PrintsWeightFigure(line)) {
        logs.insert(e.path().lexically_relative(root).generic_string());
        break;
      }
    }
  }
  return logs;
}

double PlannedGiB(const WeightsRow& row) {
  PlanRequest req = testing::CorpusPlanRequest(row);
  try {
    return static_cast<double>(PlanLaunch(req).weights_bytes_per_gpu) / (1024.0 * 1024 * 1024);
  } catch (const InputError& e) {
    ADD_FAILURE() << row.log << ": " << e.what();
  }
  return std::nan("");
}

// Rows within 1 % now, a floor that only rises: a change that takes one out of 1 % fails its
// row and this floor; a row newly planned within 1 %, or a bound row brought within 1 %, fails
// until the count here is raised (and the row promoted), so it moves only deliberately.
constexpr int kWithin1Pct = 70;

TEST(WeightsCorpus, WeightsPerGpuAgainstEveryPublicLog) {
  int planned = 0, within = 0, not_planned = 0;
  std::string table = fmt::format("{:<66} {:<7} {:>9} {:>9} {:>7}  {}\n", "log", "check", "logged",
                                  "planned", "error%", "");
  std::string unplanned = "not planned, and why:\n";
  for (const WeightsRow& row : ReadWeightsTable()) {
    EXPECT_TRUE(LogPrints(row)) << row.log << " prints no weight line with '" << row.printed << "'";
    const double logged = PrintedGiB(row.printed);
    if (row.check == "none") {
      ++not_planned;
      unplanned += fmt::format("  {}: {}\n", row.log, row.why);
      continue;
    }
    ASSERT_TRUE(row.check == "1%" || row.check == "bound") << row.log << ": check " << row.check;
    const double got = PlannedGiB(row);
    const double err = 100.0 * (got - logged) / logged;
    ++planned;
    if (std::fabs(err) <= 1.0) ++within;
    if (row.check == "1%") {
      EXPECT_LE(std::fabs(err), 1.0)
          << row.log << ": planned " << got << " GiB, logged " << logged << " (" << row.why << ")";
    } else {
      EXPECT_LE(std::fabs(err), row.bound_pct) << row.log << " (" << row.why << ")";
      EXPECT_GT(std::fabs(err), 1.0) << row.log << " is now within 1 %: make it a 1% row";
    }
    table += fmt::format("{:<66} {:<7} {:>9.4g} {:>9.4g} {:>+7.2f}\n", row.log, row.check, logged,
                         got, err);
  }
  std::cout << table << unplanned
            << fmt::format("weights: {} logs planned, {} within 1 %, {} not planned\n", planned,
                           within, not_planned);
  EXPECT_GE(within, kWithin1Pct) << "fewer logs within 1 % than the floor";
  EXPECT_LE(within, kWithin1Pct) << "more logs within 1 % than the floor: raise kWithin1Pct";
}

// The table covers every public log that prints a weight figure, each launch once: a log of
// two launches with different figures has a row for each (that each row's log prints the row's
// figure is checked above).
TEST(WeightsCorpus, EveryLogWithAWeightLineHasARow) {
  std::set<std::string> rows, launches;
  for (const WeightsRow& row : ReadWeightsTable()) {
    rows.insert(row.log);
    EXPECT_TRUE(launches.insert(row.log + "\t" + row.printed).second) << row.log << ": two rows";
  }
  for (const std::string& log : LogsThatPrintWeights()) {
    EXPECT_TRUE(rows.count(log)) << log << " prints a weight figure but has no row in weights.tsv";
  }
}

// The figure parser reads the three spellings the table uses, and V0's profiling line.
TEST(WeightsCorpus, PrintedFiguresInGiB) {
  EXPECT_DOUBLE_EQ(PrintedGiB("mem usage=15.50 GB"), 15.50);
  EXPECT_DOUBLE_EQ(PrintedGiB("Model loading took 14.99 GiB"), 14.99);
  EXPECT_DOUBLE_EQ(PrintedGiB("Loading model weights took 244.61 MB"), 244.61 / 1024);
  EXPECT_DOUBLE_EQ(PrintedGiB("model weights take 7.51GiB"), 7.51);
  EXPECT_DOUBLE_EQ(PrintedGiB("model weights take   14.96GiB"), 14.96);
}

}  // namespace
}  // namespace kvplan
