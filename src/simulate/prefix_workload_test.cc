// Shared-prefix workloads: the group's prefix goes before each drawn input,
// groups are drawn uniformly or by the given weights, traces name a row's
// group in a prefix_group column (CSV) or key (JSONL), and every bad value is
// one line naming what was wrong.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include "simulate/workload.h"
#include "testing/cli_test_util.h"
#include "testing/input_error.h"
#include "testing/scratch_dir.h"

namespace kvplan {
namespace {

WorkloadSpec SharedPrefixSpec(int64_t requests) {
  WorkloadSpec s;
  s.concurrency = 4;
  s.num_requests = requests;
  s.input = {"fixed", 50, 0};
  s.output = {"fixed", 8, 0};
  s.prefix_len = 300;
  s.prefix_groups = 4;
  s.seed = 5;
  return s;
}

TEST(PrefixWorkloadTest, EachRequestIsItsGroupsPrefixBeforeItsInput) {
  Workload w(SharedPrefixSpec(40000));
  std::vector<int64_t> per_group(4, 0);
  while (std::optional<ArrivingRequest> r = w.Next()) {
    EXPECT_EQ(r->input_tokens, 350);
    EXPECT_EQ(r->prefix_len, 300);
    ASSERT_GE(r->prefix_group, 0);
    ASSERT_LT(r->prefix_group, 4);
    ++per_group[r->prefix_group];
  }
  // Uniform: 10,000 each, binomial standard deviation ~87.
  for (int64_t n : per_group) EXPECT_NEAR(n, 10000, 500);
  EXPECT_TRUE(w.HasPrefixes());
  EXPECT_NE(w.Describe().find("shared prefix of 300 (4 groups)"), std::string::npos)
      << w.Describe();
}

TEST(PrefixWorkloadTest, GroupWeightsGiveTheGroupsThoseShares) {
  WorkloadSpec s = SharedPrefixSpec(40000);
  s.prefix_groups.reset();
  s.prefix_group_weights = {3, 1, 0};
  Workload w(s);
  std::vector<int64_t> per_group(3, 0);
  while (std::optional<ArrivingRequest> r = w.Next()) ++per_group[r->prefix_group];
  EXPECT_NEAR(per_group[0], 30000, 500);
  EXPECT_NEAR(per_group[1], 10000, 500);
  EXPECT_EQ(per_group[2], 0);
}

TEST(PrefixWorkloadTest, AHitRateMarksThatShareOfEachPromptAndDrawsNothing) {
  WorkloadSpec plain;
  plain.rate = 5;
  plain.num_requests = 200;
  plain.input = {"lognormal", 500, 0.7};
  plain.seed = 9;
  WorkloadSpec hit = plain;
  hit.prefix_hit_rate = 0.25;
  Workload a(plain), b(hit);
  while (std::optional<ArrivingRequest> r = a.Next()) {
    const std::optional<ArrivingRequest> q = b.Next();
    ASSERT_TRUE(q);
    // The same lengths and arrivals: the hit rate takes no random draw.
    EXPECT_EQ(q->input_tokens, r->input_tokens);
    EXPECT_EQ(q->arrival_us, r->arrival_us);
    EXPECT_EQ(q->hit_tokens, r->input_tokens / 4);
    EXPECT_EQ(q->prefix_group, -1);
  }
}

TEST(PrefixWorkloadTest, BadPrefixSpecsAreOneLineErrors) {
  auto error = [](auto edit) {
    WorkloadSpec s = SharedPrefixSpec(10);
    edit(&s);
    return testing::InputErrorOf([&] { Workload w(s); });
  };
  EXPECT_NE(error([](WorkloadSpec* s) { s->prefix_len = 0; }).find("--prefix-len must be >= 1"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) { s->prefix_groups = 0; }).find("--prefix-groups"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) { s->prefix_len.reset(); }).find("needs --prefix-len"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) { s->prefix_groups.reset(); }).find("needs --prefix-groups"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) {
              s->prefix_group_weights = {1, 2};
            }).find("--prefix-groups 4 but 2 --prefix-group-weights"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) {
              s->prefix_group_weights = {0, 0, 0, 0};
            }).find("at least one weight must be > 0"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) {
              s->prefix_group_weights = {1, -1, 1, 1};
            }).find("-1 is not a weight"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) {
              s->prefix_hit_rate = 0.5;
            }).find("--prefix-hit-rate is instead of --prefix-len"),
            std::string::npos);
  EXPECT_NE(error([](WorkloadSpec* s) {
              *s = WorkloadSpec{};
              s->concurrency = 1;
              s->prefix_hit_rate = 1.5;
            }).find("--prefix-hit-rate 1.5 must be from 0 to 1"),
            std::string::npos);
}

struct TraceFile {
  testing::ScratchDir dir{"kvplan-prefix-trace"};
  std::string Write(const std::string& name, const std::string& text) const {
    const std::string path = dir.File(name);
    std::ofstream(path) << text;
    return path;
  }
};

std::vector<ArrivingRequest> ReadPrefixTrace(const std::string& path,
                                             std::optional<int64_t> prefix_len = {}) {
  WorkloadSpec s;
  s.trace = path;
  s.prefix_len = prefix_len;
  Workload w(s);
  std::vector<ArrivingRequest> out;
  while (std::optional<ArrivingRequest> r = w.Next()) out.push_back(*r);
  EXPECT_EQ(w.HasPrefixes(),
            std::any_of(out.begin(), out.end(),
                        [](const ArrivingRequest& r) { return r.prefix_group >= 0; }) ||
                prefix_len.has_value());
  return out;
}

TEST(PrefixWorkloadTest, TracesNameEachRowsGroupInCsvAndJsonl) {
  const TraceFile t;
  const std::vector<ArrivingRequest> csv =
      ReadPrefixTrace(t.Write("t.csv",
                              "arrival_ms,input_tokens,output_tokens,prefix_group,prefix_len\n"
                              "0,400,10,7,256\n1,300,10,,\n2,500,10,7,300\n"));
  ASSERT_EQ(csv.size(), 3u);
  EXPECT_EQ(csv[0].prefix_group, 7);
  EXPECT_EQ(csv[0].prefix_len, 256);
  EXPECT_EQ(csv[0].input_tokens, 400);  // a trace's input_tokens already hold the prefix
  EXPECT_EQ(csv[1].prefix_group, -1);
  EXPECT_EQ(csv[2].prefix_len, 300);
  // No prefix_len column: --prefix-len gives the groups' length.
  const std::vector<ArrivingRequest> jsonl = ReadPrefixTrace(
      t.Write(
          "t.jsonl",
          "{\"arrival_ms\": 0, \"input_tokens\": 90, \"output_tokens\": 3, \"prefix_group\": 2}\n"
          "{\"arrival_ms\": 1, \"input_tokens\": 90, \"output_tokens\": 3, \"prefix_group\": "
          "null}\n"),
      64);
  ASSERT_EQ(jsonl.size(), 2u);
  EXPECT_EQ(jsonl[0].prefix_group, 2);
  EXPECT_EQ(jsonl[0].prefix_len, 64);
  EXPECT_EQ(jsonl[1].prefix_group, -1);
}

TEST(PrefixWorkloadTest, BadPrefixColumnsAreOneLineErrorsNamingTheLine) {
  const TraceFile t;
  auto error = [&t](const std::string& text) {
    return testing::InputErrorOf([&] { ReadPrefixTrace(t.Write("bad.csv", text)); });
  };
  const std::string header = "arrival_ms,input_tokens,output_tokens,prefix_group,prefix_len\n";
  EXPECT_NE(error("arrival_ms,input_tokens,output_tokens,prefix_group\n0,10,1,3\n")
                .find("line 2: prefix_group needs the group's prefix length"),
            std::string::npos);
  EXPECT_NE(error(header + "0,10,1,1.5,4\n").find("prefix_group must be a whole number"),
            std::string::npos);
  EXPECT_NE(error(header + "0,10,1,1,11\n")
                .find("prefix_len 11 must be a whole number from 1 "
                      "to input_tokens (10)"),
            std::string::npos);
  EXPECT_NE(error(header + "0,10,1,,4\n").find("prefix_len needs a prefix_group"),
            std::string::npos);
  EXPECT_NE(error(header + "0,10,1,x,4\n").find("prefix_group must be a number or empty"),
            std::string::npos);
  EXPECT_NE(error("{\"arrival_ms\": 0, \"input_tokens\": 9, \"output_tokens\": 1, "
                  "\"prefix_group\": \"a\", \"prefix_len\": 2}\n")
                .find("\"prefix_group\" must be a number or null"),
            std::string::npos);
}

TEST(PrefixWorkloadTest, TheCliExitsTwoWithOneLineOnABadPrefixFlag) {
  for (const std::vector<std::string>& extra :
       {std::vector<std::string>{"--prefix-len", "100"},
        std::vector<std::string>{"--prefix-hit-rate", "-0.1"},
        std::vector<std::string>{"--prefix-len", "10", "--prefix-groups", "2",
                                 "--prefix-group-weights", "1,2,3"}}) {
    std::vector<std::string> args = {"simulate", "--model", "meta-llama/Llama-3.1-8B-Instruct",
                                     "--gpu",    "h100",    "--concurrency",
                                     "1"};
    args.insert(args.end(), extra.begin(), extra.end());
    const testing::CliResult r = testing::RunKvplan(args);
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--prefix-"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

}  // namespace
}  // namespace kvplan
