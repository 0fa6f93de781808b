// The engine parsers in data/flags/: every table loads, and argparse's rules
// for names hold on them.
#include "engines/common/flag_table.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"

namespace kvplan {
namespace {

TEST(FlagTable, EveryEmbeddedReleaseLoadsWithTheFlagsKvplanModels) {
  for (const char* engine : {"sglang", "vllm"}) {
    const std::vector<std::string> releases = FlagTableReleases(engine);
    EXPECT_GE(releases.size(), 4u) << engine;
    for (const std::string& r : releases) {
      const FlagTable* t = FindFlagTable(engine, r);
      ASSERT_NE(t, nullptr) << engine << " " << r;
      EXPECT_EQ(t->release, r);
      EXPECT_GT(t->flags.size(), 100u) << engine << " " << r;
      const char* tp = std::string(engine) == "vllm" ? "--tensor-parallel-size" : "--tp-size";
      const EngineFlag* f = t->Resolve(tp);
      ASSERT_NE(f, nullptr) << engine << " " << r;
      EXPECT_EQ(f->kind, EngineFlag::Kind::kValue);
    }
  }
  EXPECT_EQ(FindFlagTable("sglang", "0.1.0"), nullptr);
}

// argparse's BooleanOptionalAction (vLLM's bool fields from 0.8.5) adds --no-X.
TEST(FlagTable, BooleanOptionalFlagsHaveTheirNoForm) {
  const FlagTable* t = FindFlagTable("vllm", "0.11.0");
  ASSERT_NE(t, nullptr);
  const EngineFlag* on = t->Resolve("--enable-prefix-caching");
  ASSERT_NE(on, nullptr);
  EXPECT_EQ(on->kind, EngineFlag::Kind::kBool);
  EXPECT_EQ(t->Resolve("--no-enable-prefix-caching"), on);
  // vLLM 0.6.0 had no such form: a plain store_true flag.
  const FlagTable* old = FindFlagTable("vllm", "0.6.0");
  ASSERT_NE(old, nullptr);
  EXPECT_EQ(old->Resolve("--no-enable-prefix-caching"), nullptr);
}

TEST(FlagTable, AbbreviationIsOnlyForLongOptions) {
  const FlagTable* t = FindFlagTable("vllm", "0.11.0");
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->Resolve("-t"), nullptr);  // "-tp" is not abbreviated
  EXPECT_EQ(t->Resolve("--tensor-par"), t->Resolve("--tensor-parallel-size"));
  EXPECT_THROW(t->Resolve("--max"), InputError);
}

TEST(FlagTable, InvalidChoiceQuotesAsPythonDoes) {
  EngineFlag f;
  f.names = {"--load-format"};
  f.choices = {"auto", "pt"};
  EXPECT_EQ(InvalidChoiceError(f, "it's"),
            "argument --load-format: invalid choice: \"it's\" (choose from 'auto', 'pt')");
}

}  // namespace
}  // namespace kvplan
