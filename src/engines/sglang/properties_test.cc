// Invariants of the SGLang planner that hold for every input: checked over a
// grid of models, GPUs, releases and flags rather than single cases.
#include <gtest/gtest.h>

#include "base/units.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"
#include "testing/sglang_test_models.h"

namespace kvplan {
namespace {

using namespace kvplan::testing;

const std::vector<ModelSpec>& Models() {
  static const std::vector<ModelSpec> models = {Qwen3_32B(), Qwen3_30B_A3B(), Llama31_8B(),
                                                DeepSeekV3(), Qwen3_0_6B()};
  return models;
}

const std::vector<std::string>& Releases() {
  static const std::vector<std::string> v = SglangVersions();
  return v;
}

// More mem_fraction_static never gives fewer KV tokens.
TEST(SglangProperties, TokensGrowWithFraction) {
  for (const ModelSpec& m : Models()) {
    for (const std::string& v : Releases()) {
      int64_t last = INT64_MIN;
      for (int milli = 300; milli <= 990; milli += 15) {
        SglangArgs a;
        a.tp = 2;
        a.mem_fraction_static = milli / 1000.0;
        PlanResult r = PlanSglang(v, m, H100(), a, Measured(78.5, 50.0), nullptr, {false, false});
        EXPECT_GE(r.max_total_num_tokens, last) << m.id << " " << v << " " << milli;
        last = r.max_total_num_tokens;
      }
    }
  }
}

// max_total_num_tokens is a multiple of the page size, and the pool never
// takes more bytes than rest_memory.
TEST(SglangProperties, PageAlignedAndWithinBudget) {
  for (const ModelSpec& m : Models()) {
    for (int64_t page : {1, 16, 64, 128}) {
      for (const std::string& v : Releases()) {
        SglangArgs a;
        a.tp = 4;
        a.page_size = page;
        a.mem_fraction_static = 0.87;
        PlanResult r = PlanSglang(v, m, B200(), a, Measured(176.0, 120.0), nullptr, {false, false});
        ASSERT_TRUE(r.ok) << m.id << " " << v;
        EXPECT_EQ(r.max_total_num_tokens % page, 0);
        EXPECT_LE(r.max_total_num_tokens * r.cell_size_bytes, r.rest_memory_bytes);
        EXPECT_GT((r.max_total_num_tokens + page) * r.cell_size_bytes, r.rest_memory_bytes - 0)
            << "more than a page of budget left unused";
      }
    }
  }
}

// The cell per rank times the ranks covers the whole model's KV per token
// (equality when heads split evenly, more when K/V heads are replicated).
TEST(SglangProperties, CellPerRankTimesRanksCoversTheWhole) {
  for (const ModelSpec& m : Models()) {
    SglangArgs one;
    one.mem_fraction_static = 0.85;
    const int64_t whole =
        PlanSglang("main", m, H200(), one, Measured(139.0, 100.0), nullptr, {false, false})
            .cell_size_bytes;
    for (int tp : {2, 4, 8, 16}) {
      SglangArgs a = one;
      a.tp = tp;
      const int64_t per_rank =
          PlanSglang("main", m, H200(), a, Measured(139.0, 100.0), nullptr, {false, false})
              .cell_size_bytes;
      EXPECT_GE(per_rank * tp, whole) << m.id << " tp " << tp;
      EXPECT_LE(per_rank, whole);
    }
  }
}

// The automatic fraction is what an explicit flag with the same value gives.
TEST(SglangProperties, AutoFractionEqualsTheSameExplicitValue) {
  for (const std::string& v : Releases()) {
    SglangArgs a;
    a.tp = 8;
    PlanResult autov = PlanSglang(v, Llama31_8B(), H200(), a, Measured(139.0, 120.0));
    a.mem_fraction_static = autov.fraction;
    PlanResult user = PlanSglang(v, Llama31_8B(), H200(), a, Measured(139.0, 120.0));
    EXPECT_EQ(autov.max_total_num_tokens, user.max_total_num_tokens) << v;
    EXPECT_FALSE(autov.fraction_user);
    EXPECT_TRUE(user.fraction_user);
  }
}

// Every fix offered for a failing launch makes it start when applied.
TEST(SglangProperties, FailingLaunchFixesAreTrue) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.55;
  PlanResult r = PlanSglang("0.5.6", DeepSeekV3(), RtxPro6000(), a, Measured(93.999, 21.697));
  ASSERT_FALSE(r.ok);
  ASSERT_FALSE(r.fixes.empty());
  int fraction_fixes = 0;
  for (const Fix& f : r.fixes) {
    if (f.flag != "--mem-fraction-static") continue;
    ++fraction_fixes;
    SglangArgs b = a;
    b.mem_fraction_static = std::stod(f.value);
    EXPECT_TRUE(PlanSglang("0.5.6", DeepSeekV3(), RtxPro6000(), b, Measured(93.999, 21.697)).ok)
        << f.value;
  }
  EXPECT_GE(fraction_fixes, 1);  // the launch fails on its fraction: that fix is offered
}

TEST(SglangVersionsTest, EveryListedReleaseResolves) {
  for (const std::string& v : SglangVersions()) {
    std::string canonical;
    int64_t key = 0;
    EXPECT_NO_THROW(SglangEraFor(v, &canonical, &key)) << v;
  }
  std::string c;
  int64_t k = 0;
  EXPECT_EQ(SglangEraFor("v0.4.6.post2", &c, &k).id, "v0.4.6.post2");
  EXPECT_EQ(SglangEraFor("0.4.7", &c, &k).id, "v0.4.6.post2");
  EXPECT_EQ(SglangEraFor("0.4.7.post1", &c, &k).id, "v0.4.7.post1");
  EXPECT_EQ(SglangEraFor("0.5.2", &c, &k).id, "v0.4.7.post1");
  EXPECT_EQ(SglangEraFor("0.5.6.post2", &c, &k).id, "v0.5.3");
  EXPECT_EQ(SglangEraFor("0.5.10", &c, &k).id, "v0.5.7");
  EXPECT_EQ(SglangEraFor("0.5.15", &c, &k).id, "v0.5.15");
  EXPECT_EQ(SglangEraFor("", &c, &k).id, "v0.5.15");
}

TEST(SglangRounding, PyRoundMatchesPython) {
  // Values checked with CPython's round(x, 3).
  EXPECT_DOUBLE_EQ(PyRound((46068.0 - 6848) / 46068, 3), 0.851);
  EXPECT_DOUBLE_EQ(PyRound(0.8125, 3), 0.812);  // an exact tie rounds to even
  EXPECT_DOUBLE_EQ(PyRound(0.0005, 3), 0.001);  // 0.0005 is 0.000500000000000000010...
  EXPECT_DOUBLE_EQ(PyRound(2.675, 2), 2.67);
}

}  // namespace
}  // namespace kvplan
