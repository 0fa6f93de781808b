// The workload generators: arrival processes and length distributions hold
// their means over many draws, a seed gives the same requests, and traces
// parse (CSV and JSONL) or fail with one line naming the file and line.
#include "simulate/workload.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>

#include "kvplan/error.h"
#include "testing/cli_test_util.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

constexpr int kDraws = 200000;

WorkloadSpec RateSpec(const std::string& arrival, double rate) {
  WorkloadSpec s;
  s.rate = rate;
  s.arrival = arrival;
  s.num_requests = kDraws;
  s.seed = 7;
  return s;
}

// Mean and squared coefficient of variation of the gaps between arrivals.
std::pair<double, double> GapMoments(Workload* w) {
  double prev = 0, sum = 0, sum2 = 0;
  int n = 0;
  w->Next();  // the first arrives at 0
  while (auto r = w->Next()) {
    const double gap = r->arrival_us - prev;
    prev = r->arrival_us;
    sum += gap;
    sum2 += gap * gap;
    ++n;
  }
  const double mean = sum / n;
  return {mean, (sum2 / n - mean * mean) / (mean * mean)};
}

TEST(WorkloadTest, PoissonGapsHaveMeanOneOverRateAndCvOne) {
  Workload w(RateSpec("poisson", 20));
  const auto [mean, cv2] = GapMoments(&w);
  // Standard error of the mean of 200,000 exponential gaps: 1/sqrt(n) = 0.22 %.
  EXPECT_NEAR(mean, 50000.0, 50000.0 * 0.01);
  EXPECT_NEAR(cv2, 1.0, 0.03);
}

TEST(WorkloadTest, ConstantGapsAreExactlyOneOverRate) {
  Workload w(RateSpec("constant", 4));
  const auto [mean, cv2] = GapMoments(&w);
  EXPECT_NEAR(mean, 250000.0, 1e-6);
  EXPECT_NEAR(cv2, 0.0, 1e-9);
}

TEST(WorkloadTest, GammaGapsKeepTheRateAndHaveCvOneOverShape) {
  WorkloadSpec s = RateSpec("gamma", 10);
  s.burstiness = 0.25;  // CV^2 = 1 / shape = 4: burstier than Poisson
  Workload w(s);
  const auto [mean, cv2] = GapMoments(&w);
  EXPECT_NEAR(mean, 100000.0, 100000.0 * 0.02);
  EXPECT_NEAR(cv2, 4.0, 0.25);
}

TEST(WorkloadTest, DurationEndsTheArrivals) {
  WorkloadSpec s = RateSpec("constant", 10);
  s.num_requests.reset();
  s.duration_s = 2.0;
  Workload w(s);
  int n = 0;
  while (w.Next()) ++n;
  EXPECT_EQ(n, 20);  // arrivals at 0, 0.1, ..., 1.9 s
}

TEST(WorkloadTest, LengthDistributionsHoldTheirMean) {
  for (const char* dist : {"uniform", "normal", "lognormal"}) {
    SimRng rng(3);
    const LengthSpec s{dist, 1000, 0.3};
    double sum = 0;
    int64_t lo = INT64_MAX, hi = 0;
    for (int i = 0; i < kDraws; ++i) {
      const int64_t v = DrawLength(s, &rng);
      sum += static_cast<double>(v);
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    EXPECT_NEAR(sum / kDraws, 1000.0, 5.0) << dist;
    EXPECT_GE(lo, 1) << dist;
    if (std::string(dist) == "uniform") {
      EXPECT_GE(lo, 700);
      EXPECT_LE(hi, 1300);
    }
  }
}

TEST(WorkloadTest, TheSameSeedGivesTheSameRequests) {
  WorkloadSpec s = RateSpec("poisson", 5);
  s.input = {"lognormal", 512, 0.5};
  Workload a(s), b(s);
  for (int i = 0; i < 1000; ++i) {
    const auto x = a.Next(), y = b.Next();
    ASSERT_EQ(x->arrival_us, y->arrival_us);
    ASSERT_EQ(x->input_tokens, y->input_tokens);
  }
  WorkloadSpec other = s;
  other.seed = 8;
  Workload c(other), d(s);
  int differ = 0;
  for (int i = 0; i < 10; ++i) differ += c.Next()->input_tokens != d.Next()->input_tokens;
  EXPECT_GT(differ, 5);
}

// ctest runs tests as parallel processes sharing one temp dir: the test's own
// name keeps two tests writing "bad.csv" from reading each other's file.
std::string WriteTemp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() +
                           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "_" +
                           name;
  std::ofstream(path) << text;
  return path;
}

WorkloadSpec TraceSpec(const std::string& path) {
  WorkloadSpec s;
  s.trace = path;
  return s;
}

TEST(WorkloadTest, ReadsCsvAndJsonlTraces) {
  // The column order of ../shared/serving/traces/workload-*.csv, with its req column.
  Workload csv(TraceSpec(WriteTemp(
      "t.csv", "req,arrival_ms,input_tokens,output_tokens\n0,0,100,10\n1,12.5,200,20\n")));
  auto r = csv.Next();
  EXPECT_EQ(r->input_tokens, 100);
  r = csv.Next();
  EXPECT_DOUBLE_EQ(r->arrival_us, 12500.0);
  EXPECT_EQ(r->output_tokens, 20);
  EXPECT_FALSE(csv.Next());
  Workload jsonl(TraceSpec(
      WriteTemp("t.jsonl", "{\"arrival_ms\": 5, \"input_tokens\": 7, \"output_tokens\": 3}\n\n")));
  r = jsonl.Next();
  EXPECT_DOUBLE_EQ(r->arrival_us, 5000.0);
  EXPECT_EQ(r->input_tokens, 7);
  EXPECT_FALSE(jsonl.Next());
}

std::string TraceError(const std::string& text) {
  return testing::InputErrorOf([&] {
    Workload w(TraceSpec(WriteTemp("bad.csv", text)));
    while (w.Next()) {
    }
  });
}

TEST(WorkloadTest, BadTracesAreOneLineErrorsNamingTheLine) {
  EXPECT_NE(TraceError("arrival_ms,input_tokens\n0,1\n").find("line 1: the CSV header"),
            std::string::npos);
  EXPECT_NE(TraceError("arrival_ms,input_tokens,output_tokens\n0,1,x\n").find("line 2"),
            std::string::npos);
  EXPECT_NE(TraceError("arrival_ms,input_tokens,output_tokens\n5,1,1\n4,1,1\n")
                .find("line 3: arrival_ms goes backwards"),
            std::string::npos);
  EXPECT_NE(TraceError("arrival_ms,input_tokens,output_tokens\n0,0,1\n").find("whole numbers"),
            std::string::npos);
  EXPECT_NE(TraceError("{\"arrival_ms\": 1}\n").find("needs a number \"input_tokens\""),
            std::string::npos);
  EXPECT_NE(TraceError("").find("no requests"), std::string::npos);
  for (const std::string& e : {TraceError("arrival_ms\n"), TraceError("{bad\n")}) {
    EXPECT_FALSE(e.empty());
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(WorkloadTest, TheCliExitsTwoWithOneLineOnABadTrace) {
  const std::string path =
      WriteTemp("bad_cli.csv", "arrival_ms,input_tokens,output_tokens\n0,1,-3\n");
  const testing::CliResult r =
      testing::RunKvplan({"simulate", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu",
                          "h100", "--trace", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 2"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(WorkloadTest, ArrivalsPastTheClockAreOneLineErrorsNamingTheRange) {
  // 1e308 ms overflowed the microsecond clock to infinity; the CLI printed -nan.
  for (const std::string& text :
       {std::string("arrival_ms,input_tokens,output_tokens\n1e308,1,1\n"),
        std::string("{\"arrival_ms\": 1e308, \"input_tokens\": 1, \"output_tokens\": 1}\n"),
        std::string("arrival_ms,input_tokens,output_tokens\n-1,1,1\n")}) {
    const std::string e = TraceError(text);
    EXPECT_NE(e.find("line "), std::string::npos) << e;
    EXPECT_NE(e.find("arrival_ms"), std::string::npos) << e;
    EXPECT_NE(e.find("from 0 to 1e+12 ms"), std::string::npos) << e;
  }
  EXPECT_EQ(TraceError("arrival_ms,input_tokens,output_tokens\n1e12,1,1\n"), "");
}

TEST(WorkloadTest, TheCliExitsTwoOnAnArrivalPastTheClock) {
  const std::string path =
      WriteTemp("far_cli.csv", "arrival_ms,input_tokens,output_tokens\n0,8,8\n1e308,8,8\n");
  const testing::CliResult r =
      testing::RunKvplan({"simulate", "--model", "meta-llama/Llama-3.1-8B-Instruct", "--gpu",
                          "h100", "--trace", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("line 3: arrival_ms"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out.find("nan"), std::string::npos) << r.out;
}

TEST(WorkloadTest, ImpossibleSpecsAreInputErrors) {
  WorkloadSpec none;
  EXPECT_THROW(Workload{none}, InputError);
  WorkloadSpec both = RateSpec("poisson", 1);
  both.concurrency = 4;
  EXPECT_THROW(Workload{both}, InputError);
  WorkloadSpec bad = RateSpec("weibull", 1);
  EXPECT_THROW(Workload{bad}, InputError);
}

}  // namespace
}  // namespace kvplan
