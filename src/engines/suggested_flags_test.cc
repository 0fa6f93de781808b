// Every engine flag kvplan suggests is one the planned release has and does not warn about
// (issue 11). The tables are the engines' own parsers, read at each release tag
// (data/flags/README.md); the spelling comes from them, never from a list here.
#include "engines/common/suggested_flags.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engines/common/flag_table.h"
#include "engines/engine.h"
#include "engines/sglang/sglang.h"
#include "engines/trtllm/flags.h"
#include "engines/vllm/release.h"
#include "kvplan/plan.h"

namespace kvplan {
namespace {

const EngineFlag* Exact(const FlagTable& t, const std::string& name) {
  for (const EngineFlag& f : t.flags) {
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return &f;
  }
  return nullptr;
}

// What kvplan writes at `release` is registered under exactly that name (no abbreviation) and
// with no Deprecated*Action.
void ExpectCurrent(const FlagTable& t, const std::string& written, std::string_view asked) {
  const EngineFlag* f = Exact(t, written);
  ASSERT_NE(f, nullptr) << t.engine << " " << t.release << " has no " << written << " (for "
                        << asked << ")";
  EXPECT_EQ(f->deprecated, "") << t.engine << " " << t.release << ": " << written;
}

TEST(SuggestedFlags, EveryTableHasEachSuggestionUndeprecated) {
  for (const char* engine : {"sglang", "vllm"}) {
    const auto releases = FlagTableReleases(engine);
    ASSERT_FALSE(releases.empty()) << engine;
    ASSERT_FALSE(SuggestedFlags(engine).empty()) << engine;
    for (const std::string& release : releases) {
      const FlagTable* t = FindFlagTable(engine, release);
      ASSERT_NE(t, nullptr) << release;
      for (std::string_view flag : SuggestedFlags(engine)) {
        const std::string written = std::string(engine) == "sglang"
                                        ? SglangFlagToWrite(release, flag)
                                        : VllmFlagToWrite(release, flag);
        EXPECT_EQ(written, FlagToWrite(engine, t, flag));
        ExpectCurrent(*t, written, flag);
      }
    }
  }
  // trtllm-serve's click options (data/flags/trtllm/): names match exactly in click.
  const auto releases = FlagTableReleases("trtllm");
  ASSERT_FALSE(releases.empty());
  for (const std::string& release : releases) {
    const TrtllmFlagTable* t = TrtllmFlagTableFor(release);
    ASSERT_NE(t, nullptr) << release;
    for (std::string_view flag : SuggestedFlags("trtllm")) {
      EXPECT_NE(t->Find(TrtllmFlagToWrite(flag)), nullptr) << release << " " << flag;
    }
  }
}

// The fixed values the fixes and tune write (engines/sglang/fixes.cc AddFp8KvFix and the EAGLE3
// fix, tune's NEXTN and fp8_e4m3, engines/vllm/fixes.cc Fp8Fix) are among each table's choices.
TEST(SuggestedFlags, FixedValuesAreAmongEachTablesChoices) {
  const std::vector<std::tuple<std::string, std::string, std::string>> kValues = {
      {"sglang", "--kv-cache-dtype", "fp8_e4m3"},
      {"sglang", "--speculative-algorithm", "EAGLE3"},
      {"sglang", "--speculative-algorithm", "NEXTN"},
      {"vllm", "--kv-cache-dtype", "fp8"}};
  for (const auto& [engine, flag, value] : kValues) {
    for (const std::string& release : FlagTableReleases(engine)) {
      const EngineFlag* f = Exact(*FindFlagTable(engine, release), flag);
      ASSERT_NE(f, nullptr) << engine << " " << release << " " << flag;
      if (f->choices.empty()) continue;  // computed at run time: not read
      EXPECT_NE(std::find(f->choices.begin(), f->choices.end(), value), f->choices.end())
          << engine << " " << release << " " << flag << " " << value;
    }
  }
}

// python/sglang/srt/server_args.py @v0.5.14 add_cli_args registers --cuda-graph-max-bs with
// DeprecatedAliasStoreAction, new_flag="--cuda-graph-max-bs-decode" (the same to v0.5.18); at
// v0.5.13.post1 it is the flag itself. A release without a table (main, 0.5.19) takes 0.5.18's.
TEST(SuggestedFlags, SglangGraphBatchFollowsTheReleaseSpelling) {
  const FlagTable* t = FindFlagTable("sglang", "0.5.14");
  ASSERT_NE(t, nullptr);
  const EngineFlag* alias = Exact(*t, "--cuda-graph-max-bs");
  ASSERT_NE(alias, nullptr);
  EXPECT_EQ(alias->deprecated, "DeprecatedAliasStoreAction");
  EXPECT_EQ(alias->new_flag, "--cuda-graph-max-bs-decode");
  for (const char* old : {"0.4.6.post2", "0.5.6", "0.5.13.post1"}) {
    EXPECT_EQ(SglangFlagToWrite(old, "--cuda-graph-max-bs"), "--cuda-graph-max-bs") << old;
  }
  for (const char* now : {"0.5.14", "0.5.15.post1", "0.5.18", "0.5.19", "main", ""}) {
    EXPECT_EQ(SglangFlagToWrite(now, "--cuda-graph-max-bs"), "--cuda-graph-max-bs-decode") << now;
  }
  // A replacement that is a flag=value is not a flag to write: --disable-cuda-graph's
  // "--cuda-graph-backend-{decode,prefill}=disabled" is not followed.
  const EngineFlag* off = Exact(*t, "--disable-cuda-graph");
  ASSERT_NE(off, nullptr);
  EXPECT_EQ(off->new_flag, "--cuda-graph-backend-{decode,prefill}=disabled");
}

// The prefill graphs' settings row names a flag of the release: --enable-piecewise-cuda-graph
// where the table registers it, else (0.5.14 on, main) --cuda-graph-backend-prefill, whose values
// the table's --disable-piecewise-cuda-graph and --enforce-piecewise-cuda-graph aliases name.
TEST(SuggestedFlags, PrefillGraphRowNamesAFlagOfTheRelease) {
  for (const std::string& release : FlagTableReleases("sglang")) {
    const FlagTable* t = FindFlagTable("sglang", release);
    const bool piecewise = Exact(*t, "--enable-piecewise-cuda-graph") != nullptr ||
                           Exact(*t, "--cuda-graph-backend-prefill") != nullptr;
    for (bool on : {true, false}) {
      const auto [flag, value] = SglangPrefillGraphSetting(release, on);
      if (!piecewise) {  // 0.4.6.post2 to 0.5.3: no piecewise graphs, kvplan's row says off
        EXPECT_EQ(flag, "--enable-piecewise-cuda-graph") << release;
        continue;
      }
      ASSERT_NE(Exact(*t, flag), nullptr) << release << " " << flag;
      if (flag == "--cuda-graph-backend-prefill") {
        const EngineFlag* alias =
            Exact(*t, on ? "--enforce-piecewise-cuda-graph" : "--disable-piecewise-cuda-graph");
        ASSERT_NE(alias, nullptr) << release;
        EXPECT_EQ(alias->new_flag, flag + "=" + value) << release;
      }
    }
  }
  EXPECT_EQ(SglangPrefillGraphSetting("0.5.13.post1", true).first, "--enable-piecewise-cuda-graph");
  EXPECT_EQ(SglangPrefillGraphSetting("main", false),
            std::make_pair(std::string("--cuda-graph-backend-prefill"), std::string("disabled")));
}

TEST(SuggestedFlags, AnUnlistedFlagIsAProgrammingError) {
  EXPECT_THROW(SglangFlagToWrite("0.5.18", "--not-a-suggestion"), std::logic_error);
  EXPECT_THROW(VllmFlagToWrite("0.11.0", "--mem-fraction-static"), std::logic_error);
  EXPECT_THROW(TrtllmFlagToWrite("--max-num-seqs"), std::logic_error);
}

const Fix* GraphBatchFix(const PlanResult& r) {
  for (const Fix& f : r.fixes) {
    if (f.flag.rfind("--cuda-graph-max-bs", 0) == 0) return &f;
  }
  return nullptr;
}

// The README's plan example (Qwen3-32B at TP 2 on H100, automatic mem_fraction_static): the fix
// that lowers the decode graphs' largest batch, and the settings row of that batch, name the flag
// each release takes.
TEST(SuggestedFlags, GraphBatchFixNamesTheReleaseFlag) {
  PlanRequest req;
  req.engine = "sglang";
  req.model = "Qwen/Qwen3-32B";
  req.gpu = "h100";
  req.args = {"--tp-size", "2"};
  for (const auto& [release, flag] :
       {std::pair<const char*, const char*>{"0.5.6", "--cuda-graph-max-bs"},
        {"0.5.13", "--cuda-graph-max-bs"},
        {"0.5.14", "--cuda-graph-max-bs-decode"},
        {"0.5.18", "--cuda-graph-max-bs-decode"},
        {"main", "--cuda-graph-max-bs-decode"}}) {
    req.version = release;
    const PlanResult r = PlanLaunch(req);
    const Fix* f = GraphBatchFix(r);
    ASSERT_NE(f, nullptr) << release;
    EXPECT_EQ(f->flag, flag) << release;
    EXPECT_EQ(f->value, "128");
    // The settings row of the same value is named alike.
    const auto row = std::find_if(r.settings.begin(), r.settings.end(), [](const auto& s) {
      return s.flag.rfind("--cuda-graph-max-bs", 0) == 0;
    });
    ASSERT_NE(row, r.settings.end()) << release;
    EXPECT_EQ(row->flag, flag) << release;
  }
}

}  // namespace
}  // namespace kvplan
