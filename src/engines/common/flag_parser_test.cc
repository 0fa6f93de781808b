#include "engines/common/flag_parser.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

struct Flags {
  std::optional<int64_t> tp;
  std::optional<double> mfs;
  std::optional<std::string> dtype;
  std::optional<bool> eager;
  std::optional<std::string> model;
};

FlagParser MakeParser(Flags* f) {
  FlagParser p("TestEngine");
  p.Int({"--tp-size", "--tp"}, &f->tp);
  p.Double({"--mem-fraction-static"}, &f->mfs);
  p.String({"--kv-cache-dtype"}, &f->dtype);
  p.Bool({"--enforce-eager"}, &f->eager);
  p.Ignored({"--port"}, true);
  p.Positional("MODEL", &f->model);
  return p;
}

TEST(FlagParser, ParsesSpaceAndEqualsFormsAndAliases) {
  Flags f;
  FlagParser p = MakeParser(&f);
  p.Parse({"my/model", "--tp", "8", "--mem-fraction-static=0.55", "--kv-cache-dtype", "fp8_e4m3",
           "--enforce-eager", "--port", "30000"});
  EXPECT_EQ(f.tp, 8);
  EXPECT_DOUBLE_EQ(*f.mfs, 0.55);
  EXPECT_EQ(f.dtype, "fp8_e4m3");
  EXPECT_EQ(f.eager, true);
  EXPECT_EQ(f.model, "my/model");
  EXPECT_EQ(p.given(), (std::vector<std::string>{"--tp-size", "--mem-fraction-static",
                                                 "--kv-cache-dtype", "--enforce-eager"}));
}

TEST(FlagParser, UnderscoreSpellingIsAccepted) {
  Flags f;
  FlagParser p = MakeParser(&f);
  p.Parse({"--tp_size", "2"});
  EXPECT_EQ(f.tp, 2);
}

TEST(FlagParser, TypoOfAModelledFlagIsAnError) {
  Flags f;
  FlagParser p = MakeParser(&f);
  const std::string what = testing::InputErrorOf([&] { p.Parse({"--mem-fraction-statc", "0.5"}); });
  EXPECT_NE(what.find("did you mean '--mem-fraction-static'"), std::string::npos);
}

TEST(FlagParser, UnknownFlagsAreSkippedWithTheirValueAndReported) {
  Flags f;
  FlagParser p = MakeParser(&f);
  p.Parse({"--served-model-name", "x", "--trust-remote-code", "--tp", "4"});
  EXPECT_EQ(f.tp, 4);
  EXPECT_EQ(p.unknown_flags(),
            (std::vector<std::string>{"--served-model-name", "--trust-remote-code"}));
}

// A bare "-" or "-=1" (issue 13: SIGSEGV in the '_'-for-'-' retry, which
// indexed past the end of a one-character name) is an unknown word, not a crash.
TEST(FlagParser, DashWordsShorterThanAFlagPrefixDoNotCrash) {
  for (const char* word : {"-", "-=1", "--", "--=1"}) {
    Flags f;
    FlagParser p = MakeParser(&f);
    // Skipped as an unknown word, or refused naming it.
    const std::string what = testing::InputErrorOf([&] { p.Parse({word, "--tp", "2"}); });
    if (what.empty()) {
      EXPECT_EQ(f.tp, 2) << word;
    } else {
      EXPECT_NE(what.find(word), std::string::npos) << what;
    }
  }
}

TEST(FlagParser, BadValuesAreErrors) {
  for (std::vector<std::string> argv :
       std::vector<std::vector<std::string>>{{"--tp", "eight"},
                                             {"--tp", "8x"},
                                             {"--tp"},
                                             {"--mem-fraction-static", "nan"},
                                             {"--mem-fraction-static", "inf"},
                                             {"--mem-fraction-static", ""},
                                             {"--enforce-eager=maybe"},
                                             {"--tp", "8", "--tp", "4"},
                                             {"a", "b"}}) {
    Flags f;
    FlagParser p = MakeParser(&f);
    EXPECT_THROW(p.Parse(argv), InputError) << argv.front();
  }
}

TEST(FlagParser, NegativeNumbersAreValues) {
  Flags f;
  FlagParser p = MakeParser(&f);
  p.Parse({"--mem-fraction-static", "-0.5"});
  EXPECT_DOUBLE_EQ(*f.mfs, -0.5);  // range checks are the engine's job
}

TEST(EditDistance, Basics) {
  EXPECT_EQ(EditDistance("kitten", "sitting"), 3);
  EXPECT_EQ(EditDistance("", "abc"), 3);
  EXPECT_EQ(EditDistance("abc", "abc"), 0);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

// A flag kvplan does not model is named with what its name says it may change.
TEST(UnknownFlagWarning, SaysWhatTheFlagMayChange) {
  EXPECT_EQ(UnknownFlagWarning("vLLM", "--max-num-partial-prefills"),
            "--max-num-partial-prefills: not one of the vLLM flags kvplan models; ignored, so this "
            "plan does not show its effect (it may change batch limits, activation memory and KV "
            "capacity)");
  EXPECT_EQ(UnknownFlagWarning("SGLang", "--foo"),
            "--foo: not one of the SGLang flags kvplan models; ignored, so this plan does not show "
            "its effect");
  EXPECT_EQ(UnknownFlagWarning("vLLM", "VLLM_FOO=1"),
            "VLLM_FOO=1: an environment variable the vLLM planner does not read; ignored, so this "
            "plan does not show its effect");
}

}  // namespace
}  // namespace kvplan
