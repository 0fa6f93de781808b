#include <gtest/gtest.h>

#include "engines/common/flag_table.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "kvplan/plan.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

TEST(SglangArgsTest, ParsesTheStoryCommand) {
  SglangArgs a = ParseSglangArgs({"--model-path", "deepseek-ai/DeepSeek-V3", "--tp", "8",
                                  "--mem-fraction-static", "0.55", "--cuda-graph-max-bs", "128",
                                  "--trust-remote-code", "--port", "30000"});
  EXPECT_EQ(a.model_path, "deepseek-ai/DeepSeek-V3");
  EXPECT_EQ(a.tp, 8);
  EXPECT_DOUBLE_EQ(*a.mem_fraction_static, 0.55);
  EXPECT_EQ(a.cuda_graph_max_bs, 128);
  EXPECT_EQ(a.kv_cache_dtype, "auto");
}

TEST(SglangArgsTest, AliasesAndSpeculative) {
  SglangArgs a = ParseSglangArgs(
      {"--model", "m", "--tensor-parallel-size=4", "--dp-size", "2", "--enable-dp-attention",
       "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "d",
       "--speculative-num-steps", "3", "--speculative-eagle-topk", "1",
       "--speculative-num-draft-tokens", "4", "--kv-cache-dtype", "fp8_e4m3"});
  EXPECT_EQ(a.tp, 4);
  EXPECT_EQ(a.dp, 2);
  EXPECT_TRUE(a.enable_dp_attention);
  EXPECT_EQ(a.speculative_algorithm, "EAGLE3");
  EXPECT_EQ(a.speculative_draft_model_path, "d");
  EXPECT_EQ(a.speculative_num_draft_tokens, 4);
  EXPECT_EQ(a.kv_cache_dtype, "fp8_e4m3");
}

TEST(SglangArgsTest, ConflictsAndBadValuesAreErrors) {
  EXPECT_THROW(ParseSglangArgs({"--tp", "0"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--tp", "eight"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--disable-cuda-graph", "--cuda-graph-max-bs", "8"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--enable-piecewise-cuda-graph", "--disable-piecewise-cuda-graph"}),
               InputError);
  EXPECT_THROW(ParseSglangArgs({"--mem-fraction-statc", "0.5"}), InputError);
  EXPECT_THROW(ParseSglangArgs({"--mem-fraction-static"}), InputError);
}

std::string ErrorOf(const std::vector<std::string>& argv, const std::string& release) {
  return testing::InputErrorOf([&] { ParseSglangArgs(argv, release); });
}

// https://github.com/sgl-project/sglang/issues/12818 (v0.5.5): the pasted launch, refused by SGLang
// with "launch_server.py: error: unrecognized arguments: --reasoning_parser kimi_k2" (SGLang's
// argparse does not read '_' as '-'). 0.5.6's parser refuses it the same way, and so does 0.5.5
// itself, whose flags kvplan checks against 0.5.3's parser: no release reads '_' as '-'.
const std::vector<std::string> kKimiLaunch = {"--model-path",
                                              "/moonshotai/Kimi-K2-Thinking",
                                              "--tp",
                                              "8",
                                              "--disable-radix-cache",
                                              "--trust-remote-code",
                                              "--tool-call-parser",
                                              "kimi_k2",
                                              "--reasoning_parser",
                                              "kimi_k2",
                                              "--context-length",
                                              "262144"};

TEST(SglangFlagTable, AFlagSglangLacksIsRefusedInArgparsesWords) {
  EXPECT_EQ(ErrorOf(kKimiLaunch, "0.5.6"),
            "launch_server.py: error: unrecognized arguments: --reasoning_parser kimi_k2");
  // The fix the maintainers gave: --reasoning-parser.
  std::vector<std::string> fixed = kKimiLaunch;
  fixed[8] = "--reasoning-parser";
  SglangArgs a = ParseSglangArgs(fixed, "0.5.6");
  EXPECT_EQ(a.tp, 8);  // --tp: an abbreviation of --tp-size, the only flag it starts
  EXPECT_EQ(a.context_length, 262144);
  EXPECT_TRUE(a.unknown_flags.empty());
  // Issue 11 part 1: at 0.5.5 and main, which have no table of their own, kvplan read it as
  // --reasoning-parser and planned a launch SGLang refuses.
  for (const char* release : {"0.5.5", "main"}) {
    EXPECT_EQ(ErrorOf(kKimiLaunch, release),
              "launch_server.py: error: unrecognized arguments: --reasoning_parser kimi_k2")
        << release;
  }
  SglangArgs at055 = ParseSglangArgs(fixed, "0.5.5");
  EXPECT_EQ(at055.tp, 8);
  ASSERT_EQ(at055.flag_notes.size(), 1u);
  EXPECT_EQ(at055.flag_notes[0],
            OlderFlagTableNote("SGLang", "0.5.5", *FindFlagTable("sglang", "0.5.3")));
  // A typo keeps kvplan's hint after argparse's words.
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--mem-fraction-statc", "0.5"}, "0.5.6"),
            "launch_server.py: error: unrecognized arguments: --mem-fraction-statc 0.5 (did you "
            "mean '--mem-fraction-static'?)");
}

// argparse (allow_abbrev, which server_args.py leaves on) takes a unique
// prefix and refuses an ambiguous one, listing the flags in registration order.
TEST(SglangFlagTable, AbbreviationsFollowArgparse) {
  SglangArgs a = ParseSglangArgs({"--model-path", "m", "--mem-frac", "0.8"}, "0.5.6");
  ASSERT_TRUE(a.mem_fraction_static);
  EXPECT_DOUBLE_EQ(*a.mem_fraction_static, 0.8);
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--cuda-graph", "128"}, "0.5.6"),
            "launch_server.py: error: ambiguous option: --cuda-graph could match "
            "--cuda-graph-max-bs, --cuda-graph-bs");
}

// https://github.com/areal-project/AReaL/pull/428: "launch_server.py: error: unrecognized
// arguments:
// --max-loaded-loras 1" from an older SGLang, gone after updating it.
TEST(SglangFlagTable, AFlagOfALaterReleaseIsRefusedByAnEarlierOne) {
  const std::vector<std::string> argv = {"--model-path", "m", "--max-loaded-loras", "1"};
  EXPECT_EQ(ErrorOf(argv, "0.4.9"),
            "launch_server.py: error: unrecognized arguments: --max-loaded-loras 1");
  SglangArgs a = ParseSglangArgs(argv, "0.5.3");
  EXPECT_EQ(a.unknown_flags, std::vector<std::string>({"--max-loaded-loras"}));
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--enable-piecewise-cuda-graph"}, "0.4.6.post2"),
            "launch_server.py: error: unrecognized arguments: --enable-piecewise-cuda-graph");
}

// server_args.py: --kv-cache-dtype is a `choices` flag; "fp8" is vLLM's name.
TEST(SglangFlagTable, AValueOutsideChoicesIsRefused) {
  std::vector<std::string> argv = kKimiLaunch;
  argv[8] = "--reasoning-parser";
  argv.insert(argv.end(), {"--kv-cache-dtype", "fp8"});
  EXPECT_EQ(ErrorOf(argv, "0.5.6"),
            "launch_server.py: error: argument --kv-cache-dtype: invalid choice: 'fp8' (choose "
            "from 'auto', 'fp8_e5m2', 'fp8_e4m3', 'bf16', 'bfloat16', 'fp4_e2m1')");
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--kv-cache-dtype", "bf16"}, "0.4.6.post2"),
            "launch_server.py: error: argument --kv-cache-dtype: invalid choice: 'bf16' (choose "
            "from 'auto', 'fp8_e5m2', 'fp8_e4m3')");
}

// The nearest older parser stands in for a release without one (0.5.4 and 0.5.5 between the
// 0.5.3 and 0.5.6 tables, a post release past its table, 0.5.19 and main after 0.5.18): a flag
// 0.5.6's parser added since 0.5.3's (--grpc-mode: in 0.5.6.json, not in 0.5.3.json, both read from
// SGLang's source) is refused by 0.5.3 itself and only a warning naming 0.5.3's parser at 0.5.5,
// which may have had it.
TEST(SglangFlagTable, AReleaseWithoutATableUsesTheNearestOlderOne) {
  const std::vector<std::string> argv = {"--model-path", "m", "--grpc-mode"};
  EXPECT_EQ(ErrorOf(argv, "0.5.3"), "launch_server.py: error: unrecognized arguments: --grpc-mode");
  EXPECT_EQ(ParseSglangArgs(argv, "0.5.6").unknown_flags,
            std::vector<std::string>({"--grpc-mode"}));
  SglangArgs a = ParseSglangArgs(argv, "0.5.5");
  EXPECT_TRUE(a.unknown_flags.empty());
  ASSERT_EQ(a.flag_notes.size(), 2u);
  EXPECT_NE(a.flag_notes[0].find("SGLang 0.5.5's flags are checked against SGLang 0.5.3's parser"),
            std::string::npos)
      << a.flag_notes[0];
  EXPECT_EQ(a.flag_notes[1].rfind("--grpc-mode: not in SGLang 0.5.3's parser", 0), 0u)
      << a.flag_notes[1];
  for (const auto& [release, table] :
       std::vector<std::pair<std::string, std::string>>{{"0.5.9.post1", "0.5.9"},
                                                        {"0.5.12.post2", "0.5.12.post1"},
                                                        {"0.5.14.post1", "0.5.14"},
                                                        {"0.5.19", "0.5.18"},
                                                        {"main", "0.5.18"},
                                                        {"", "0.5.18"}}) {
    SglangArgs b = ParseSglangArgs({"--model-path", "m", "--enable-prefill-delayer"}, release);
    ASSERT_FALSE(b.flag_notes.empty()) << release;
    EXPECT_NE(b.flag_notes[0].find("checked against SGLang " + table + "'s parser"),
              std::string::npos)
        << b.flag_notes[0];
    EXPECT_EQ(b.unknown_flags, std::vector<std::string>({"--enable-prefill-delayer"}));
  }
  // A choice a later release may have added is a warning there, an error at the table's release:
  // extra_buffer_lazy is among 0.5.13.json's choices, not 0.5.12.post1.json's.
  const std::vector<std::string> dtype = {"--model-path", "m", "--mamba-scheduler-strategy",
                                          "extra_buffer_lazy"};
  EXPECT_NE(ErrorOf(dtype, "0.5.12.post1"), "");
  SglangArgs c = ParseSglangArgs(dtype, "0.5.12.post2");
  ASSERT_EQ(c.flag_notes.size(), 2u);
  EXPECT_EQ(c.flag_notes[1].rfind("--mamba-scheduler-strategy extra_buffer_lazy: not among SGLang "
                                  "0.5.12.post1's choices",
                                  0),
            0u)
      << c.flag_notes[1];
  EXPECT_TRUE(ParseSglangArgs(dtype, "0.5.13").flag_notes.empty());
  // A typo of a modelled flag is still refused: no later parser makes it one kvplan reads.
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--mem-fraction-statc", "0.5"}, "0.5.9.post1"),
            "unknown SGLang flag '--mem-fraction-statc'; did you mean '--mem-fraction-static'?");
}

// --enable-http2 is first in data/flags/sglang/0.5.11.json (tag v0.5.11): refused at 0.5.8.post1
// and 0.5.10.post1 (their tags' parsers lack it), a warning naming 0.5.10.post1's parser at a post
// release past it (no table), accepted from 0.5.11 to 0.5.13.post1.
TEST(SglangFlagTable, Release0511AddsHttp2) {
  const std::vector<std::string> argv = {"--model-path", "m", "--enable-http2"};
  for (const char* release : {"0.5.8.post1", "0.5.10.post1"}) {
    EXPECT_EQ(ErrorOf(argv, release),
              "launch_server.py: error: unrecognized arguments: --enable-http2")
        << release;
  }
  SglangArgs at10 = ParseSglangArgs(argv, "0.5.10.post2");
  ASSERT_EQ(at10.flag_notes.size(), 2u);
  EXPECT_EQ(at10.flag_notes[1].rfind("--enable-http2: not in SGLang 0.5.10.post1's parser", 0), 0u)
      << at10.flag_notes[1];
  for (const char* release : {"0.5.11", "0.5.12", "0.5.12.post1", "0.5.13", "0.5.13.post1"}) {
    SglangArgs a = ParseSglangArgs(argv, release);
    EXPECT_TRUE(a.flag_notes.empty()) << release;
    EXPECT_EQ(a.unknown_flags, std::vector<std::string>({"--enable-http2"})) << release;
  }
}

// From 0.5.14 ServerArgs registers most flags from its annotated dataclass fields
// (arg_groups/arg_utils.py add_cli_args_from_dataclass), which scripts/extract-flags.py reads as
// that function does. data/flags/sglang/0.5.14.json has --disable-prefill-cuda-graph (a bool
// field: store_true), which 0.5.13.post1.json lacks; kvplan reads it as the prefill graphs off.
TEST(SglangFlagTable, Release0514AddsDisablePrefillCudaGraph) {
  const std::vector<std::string> argv = {"--model-path", "m", "--tp-size", "2",
                                         "--disable-prefill-cuda-graph"};
  EXPECT_EQ(ErrorOf(argv, "0.5.13.post1"),
            "launch_server.py: error: unrecognized arguments: --disable-prefill-cuda-graph");
  for (const char* release : {"0.5.14", "0.5.15", "0.5.15.post1"}) {
    SglangArgs a = ParseSglangArgs(argv, release);
    EXPECT_EQ(a.tp, 2) << release;
    EXPECT_TRUE(a.flag_notes.empty()) << release;
    EXPECT_TRUE(a.unknown_flags.empty()) << release;
    EXPECT_EQ(a.piecewise_cuda_graph, std::optional<bool>(false)) << release;
  }
}

TEST(SglangFlagTable, EnvironmentIsReadOrWarnedAbout) {
  SglangArgs a = ParseSglangArgs({"SGLANG_ALLOW_OVERWRITE_LONGER_CONTEXT_LEN=True", "--model-path",
                                  "m", "SGLANG_ENABLE_JIT_DEEPGEMM=0"},
                                 "0.5.6");
  EXPECT_TRUE(a.allow_overwrite_longer_context_len);
  // environ.py @v0.5.6 defines it; kvplan does not read it: the plan says so.
  EXPECT_EQ(a.unknown_flags, std::vector<std::string>({"SGLANG_ENABLE_JIT_DEEPGEMM=0"}));
}

// Each SGLang table lists the SGLANG_* names SGLang's source reads at its tag (environ.py's Envs
// fields and the names used elsewhere). SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB is an Envs field
// of v0.5.16 (environ.py line 750, read by custom_all_reduce_v2.py) that no file of v0.5.15.post1
// names: there it has no effect, at 0.5.16 it is a variable kvplan does not read, and at a release
// past 0.5.15.post1 without a table it may be new.
TEST(SglangFlagTable, EnvironmentNamesByRelease) {
  const std::vector<std::string> argv = {"--model-path", "m",
                                         "SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB=8192"};
  SglangArgs at15 = ParseSglangArgs(argv, "0.5.15.post1");
  EXPECT_TRUE(at15.unknown_flags.empty());
  ASSERT_EQ(at15.flag_notes.size(), 1u);
  EXPECT_EQ(at15.flag_notes[0],
            "SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB=8192: SGLang 0.5.15.post1 reads no such "
            "variable (python/sglang/srt/environ.py does not define it and no other file of "
            "python/sglang names it), so it has no effect");
  SglangArgs at16 = ParseSglangArgs(argv, "0.5.16");
  EXPECT_TRUE(at16.flag_notes.empty());
  EXPECT_EQ(at16.unknown_flags,
            std::vector<std::string>({"SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB=8192"}));
  SglangArgs past = ParseSglangArgs(argv, "0.5.15.post2");
  EXPECT_TRUE(past.unknown_flags.empty());
  ASSERT_EQ(past.flag_notes.size(), 2u);
  EXPECT_EQ(past.flag_notes[1].rfind("SGLANG_CUSTOM_ALL_REDUCE_V2_MAX_SIZE_KB=8192: not a "
                                     "variable SGLang 0.5.15.post1's source reads",
                                     0),
            0u)
      << past.flag_notes[1];
}

// server_args.py @v0.5.14 (and v0.5.15 to v0.5.18): --cuda-graph-max-bs is a
// DeprecatedAliasStoreAction whose dest is cuda_graph_max_bs_decode, so --cuda-graph-max-bs-decode
// sets the same decode-graph batch limit; 0.5.13's parser has no such flag.
TEST(SglangArgs, CudaGraphMaxBsDecodeFrom0514) {
  const std::vector<std::string> argv = {"--model-path", "m", "--cuda-graph-max-bs-decode", "96"};
  EXPECT_EQ(ErrorOf(argv, "0.5.13.post1"),
            "launch_server.py: error: unrecognized arguments: --cuda-graph-max-bs-decode 96");
  for (const char* release : {"0.5.14", "0.5.15.post1", "0.5.18"}) {
    SglangArgs a = ParseSglangArgs(argv, release);
    EXPECT_EQ(a.cuda_graph_max_bs, std::optional<int64_t>(96)) << release;
    EXPECT_TRUE(a.unknown_flags.empty()) << release;
  }
  EXPECT_EQ(ParseSglangArgs({"--model-path", "m", "--cuda-graph-max-bs", "96",
                             "--cuda-graph-max-bs-decode", "96"},
                            "0.5.15")
                .cuda_graph_max_bs,
            std::optional<int64_t>(96));
  // argparse_actions.py @v0.5.14 DeprecatedAliasStoreAction: SGLang warns of the alias from 0.5.14.
  const std::vector<std::string> alias = {"--model-path", "m", "--cuda-graph-max-bs", "96"};
  EXPECT_TRUE(ParseSglangArgs(alias, "0.5.13.post1").flag_notes.empty());
  EXPECT_EQ(ParseSglangArgs(alias, "0.5.14").flag_notes,
            std::vector<std::string>(
                {"'--cuda-graph-max-bs' is deprecated and will be removed in a future release. "
                 "Use '--cuda-graph-max-bs-decode' instead. (SGLang's warning; the same "
                 "setting)"}));
  EXPECT_NE(ErrorOf({"--model-path", "m", "--cuda-graph-max-bs", "64", "--cuda-graph-max-bs-decode",
                     "96"},
                    "0.5.15")
                .find("one setting in SGLang"),
            std::string::npos);
}

// The warning comes from the release's table: server_args.py @v0.5.14 add_cli_args registers
// --disable-cuda-graph with DeprecatedStoreTrueAction, new_flag
// "--cuda-graph-backend-{decode,prefill}=disabled"; at v0.5.13.post1 it is a plain store_true.
TEST(SglangArgs, DeprecatedFlagsWarnInSglangsWordsFromTheTable) {
  const std::vector<std::string> off = {"--model-path", "m", "--disable-cuda-graph"};
  EXPECT_TRUE(ParseSglangArgs(off, "0.5.13.post1").flag_notes.empty());
  for (const char* release : {"0.5.14", "0.5.18"}) {
    const SglangArgs a = ParseSglangArgs(off, release);
    EXPECT_TRUE(a.disable_cuda_graph) << release;
    EXPECT_EQ(a.flag_notes,
              std::vector<std::string>(
                  {"'--disable-cuda-graph' is deprecated and will be removed in a future release. "
                   "Use '--cuda-graph-backend-{decode,prefill}=disabled' instead. (SGLang's "
                   "warning; the same setting)"}))
        << release;
  }
  // A deprecated flag kvplan does not read is warned of too (@v0.5.14: --cuda-graph-bs is
  // --cuda-graph-bs-decode's DeprecatedAliasStoreAction), beside the unknown-flag note.
  const SglangArgs bs =
      ParseSglangArgs({"--model-path", "m", "--cuda-graph-bs", "1", "2"}, "0.5.14");
  EXPECT_EQ(bs.unknown_flags, std::vector<std::string>({"--cuda-graph-bs"}));
  EXPECT_EQ(bs.flag_notes,
            std::vector<std::string>(
                {"'--cuda-graph-bs' is deprecated and will be removed in a future release. Use "
                 "'--cuda-graph-bs-decode' instead. (SGLang's warning; the same setting)"}));
}

// server_args.py @v0.5.14: --disable-prefill-cuda-graph and --cuda-graph-backend-prefill=disabled
// set cuda_graph_config[prefill].backend to disabled, as --disable-piecewise-cuda-graph (their
// deprecated alias there) does; another backend is named as not modelled, an unknown one refused
// with argparse's choices (cuda_graph_config.py Backend.ALL). Neither flag exists at 0.5.13.post1.
TEST(SglangArgs, PrefillGraphFlagsFrom0514) {
  for (const std::vector<std::string>& off :
       {std::vector<std::string>{"--model-path", "m", "--disable-prefill-cuda-graph"},
        std::vector<std::string>{"--model-path", "m", "--cuda-graph-backend-prefill",
                                 "disabled"}}) {
    const SglangArgs a = ParseSglangArgs(off, "0.5.14");
    EXPECT_EQ(a.piecewise_cuda_graph, std::optional<bool>(false)) << off[2];
    EXPECT_TRUE(a.unknown_flags.empty()) << off[2];
    EXPECT_TRUE(a.flag_notes.empty()) << off[2];
    EXPECT_EQ(ErrorOf(off, "0.5.13.post1")
                  .rfind("launch_server.py: error: unrecognized arguments: " + off[2], 0),
              0u)
        << ErrorOf(off, "0.5.13.post1");
  }
  const SglangArgs breakable =
      ParseSglangArgs({"--model-path", "m", "--cuda-graph-backend-prefill", "breakable"}, "0.5.18");
  EXPECT_FALSE(breakable.piecewise_cuda_graph.has_value());
  ASSERT_EQ(breakable.flag_notes.size(), 1u);
  EXPECT_EQ(
      breakable.flag_notes[0].rfind("--cuda-graph-backend-prefill breakable: kvplan models", 0),
      0u);
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--cuda-graph-backend-prefill", "eager"}, "0.5.18"),
            "launch_server.py: error: argument --cuda-graph-backend-prefill: invalid choice: "
            "'eager' (choose from 'full', 'breakable', 'tc_piecewise', 'disabled')");
}

// In the plan the two spellings are one setting: the README's Qwen3-32B at TP 2 on H100 reserves
// the same memory with --disable-prefill-cuda-graph as with its alias, and less than by default
// (no prefill graphs), so SGLang's automatic mem_fraction_static is larger.
TEST(SglangArgs, PrefillGraphOffPlansAsThePiecewiseAlias) {
  auto fraction = [](const std::vector<std::string>& extra) {
    PlanRequest req;
    req.engine = "sglang";
    req.version = "0.5.14";
    req.model = "Qwen/Qwen3-32B";
    req.gpu = "h100";
    req.args = {"--tp-size", "2"};
    req.args.insert(req.args.end(), extra.begin(), extra.end());
    return PlanSglangRequest(req).fraction;
  };
  const double by_default = fraction({});
  const double alias = fraction({"--disable-piecewise-cuda-graph"});
  EXPECT_EQ(fraction({"--disable-prefill-cuda-graph"}), alias);
  EXPECT_EQ(fraction({"--cuda-graph-backend-prefill", "disabled"}), alias);
  EXPECT_GT(alias, by_default);
}

// server_args.py @v0.5.15 _parse_cuda_graph_config: --cuda-graph-config's JSON has the highest
// precedence, so its decode max_bs wins over --cuda-graph-max-bs; the help text's own example
// sets decode max_bs 256, and the keys kvplan does not read are named in a note.
TEST(SglangArgs, CudaGraphConfigDecodeMaxBsWins) {
  SglangArgs a = ParseSglangArgs({"--model-path", "m", "--cuda-graph-max-bs", "96",
                                  "--cuda-graph-config", R"({"decode":{"max_bs":48}})"},
                                 "0.5.15");
  EXPECT_EQ(a.cuda_graph_max_bs, std::optional<int64_t>(48));
  ASSERT_EQ(a.flag_notes.size(), 1u);  // SGLang's deprecation warning for --cuda-graph-max-bs
  EXPECT_EQ(a.flag_notes[0].rfind("'--cuda-graph-max-bs' is deprecated", 0), 0u);
  SglangArgs help = ParseSglangArgs(
      {"--model-path", "m", "--cuda-graph-config",
       R"({"decode":{"backend":"full","max_bs":256},"prefill":{"backend":"tc_piecewise","tc_compiler":"eager"}})"},
      "0.5.15");
  EXPECT_EQ(help.cuda_graph_max_bs, std::optional<int64_t>(256));
  ASSERT_EQ(help.flag_notes.size(), 1u);
  EXPECT_EQ(help.flag_notes[0],
            "--cuda-graph-config: kvplan reads only decode.max_bs; decode.backend, "
            "prefill.backend, prefill.tc_compiler ignored, so this plan does not show what they "
            "change (the graphs captured and their memory)");
  EXPECT_NE(ErrorOf({"--model-path", "m", "--cuda-graph-config", "{decode"}, "0.5.15")
                .find("--cuda-graph-config must be JSON"),
            std::string::npos);
}

// server_args.py: --mm-enable-dp-encoder is a store_true flag from v0.5.6
// (#13126); v0.5.3's parser does not know it.
TEST(SglangArgs, DpEncoderFromRelease056) {
  EXPECT_FALSE(ParseSglangArgs({"--model-path", "m"}, "0.5.6").mm_enable_dp_encoder);
  EXPECT_TRUE(ParseSglangArgs({"--model-path", "m", "--mm-enable-dp-encoder"}, "0.5.6")
                  .mm_enable_dp_encoder);
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--mm-enable-dp-encoder"}, "0.5.3"),
            "launch_server.py: error: unrecognized arguments: --mm-enable-dp-encoder");
}

// data/flags/sglang/0.5.6.post2.json line 127: --fp8-gemm-backend (#14379, which upstream's
// release index puts in v0.5.6.post2); 0.5.6.json has no such row.
TEST(SglangFlagTable, Release056Post2AddsFp8GemmBackend) {
  const std::vector<std::string> argv = {"--model-path", "m", "--fp8-gemm-backend", "cutlass"};
  EXPECT_EQ(ParseSglangArgs(argv, "0.5.6.post2").unknown_flags,
            std::vector<std::string>({"--fp8-gemm-backend"}));
  EXPECT_EQ(ErrorOf(argv, "0.5.6"),
            "launch_server.py: error: unrecognized arguments: --fp8-gemm-backend cutlass");
}

// data/flags/sglang/0.5.7.json line 180: --mamba-scheduler-strategy, with its choices (#14792
// in v0.5.7 by upstream's release index); 0.5.6.post2.json has no such row.
TEST(SglangFlagTable, Release057AddsMambaSchedulerStrategy) {
  const std::vector<std::string> argv = {"--model-path", "m", "--mamba-scheduler-strategy",
                                         "extra_buffer"};
  EXPECT_EQ(ParseSglangArgs(argv, "0.5.7").unknown_flags,
            std::vector<std::string>({"--mamba-scheduler-strategy"}));
  EXPECT_EQ(ErrorOf(argv, "0.5.6.post2"),
            "launch_server.py: error: unrecognized arguments: --mamba-scheduler-strategy "
            "extra_buffer");
  EXPECT_EQ(ErrorOf({"--model-path", "m", "--mamba-scheduler-strategy", "lazy"}, "0.5.7"),
            "launch_server.py: error: argument --mamba-scheduler-strategy: invalid choice: 'lazy' "
            "(choose from 'auto', 'no_buffer', 'extra_buffer')");
}

// A flag v0.5.7 removed: --enable-flashinfer-autotune (0.5.6.post2.json line 128) became
// --disable-flashinfer-autotune (0.5.7.json line 132) when autotune was turned on by default
// (#14357).
TEST(SglangFlagTable, Release057RemovesEnableFlashinferAutotune) {
  const std::vector<std::string> argv = {"--model-path", "m", "--enable-flashinfer-autotune"};
  EXPECT_EQ(ParseSglangArgs(argv, "0.5.6.post2").unknown_flags,
            std::vector<std::string>({"--enable-flashinfer-autotune"}));
  EXPECT_EQ(ErrorOf(argv, "0.5.7"),
            "launch_server.py: error: unrecognized arguments: --enable-flashinfer-autotune");
  EXPECT_EQ(ParseSglangArgs({"--model-path", "m", "--disable-flashinfer-autotune"}, "0.5.7")
                .unknown_flags,
            std::vector<std::string>({"--disable-flashinfer-autotune"}));
}

// data/flags/sglang/0.5.8.json lines 52 and 143: --enable-prefill-delayer (#16830) and
// --fp4-gemm-backend (#16534), both in v0.5.8 by upstream's release index; 0.5.7.json has
// neither. 0.5.8.post1 has v0.5.8's parser (its two cherry-picks leave server_args.py alone).
TEST(SglangFlagTable, Release058AddsPrefillDelayerAndFp4GemmBackend) {
  const std::vector<std::string> argv = {"--model-path", "m", "--enable-prefill-delayer",
                                         "--fp4-gemm-backend", "flashinfer_cutlass"};
  for (const char* release : {"0.5.8", "0.5.8.post1"}) {
    EXPECT_EQ(ParseSglangArgs(argv, release).unknown_flags,
              std::vector<std::string>({"--enable-prefill-delayer", "--fp4-gemm-backend"}))
        << release;
  }
  EXPECT_EQ(ErrorOf(argv, "0.5.7"),
            "launch_server.py: error: unrecognized arguments: --enable-prefill-delayer "
            "--fp4-gemm-backend flashinfer_cutlass");
}

}  // namespace
}  // namespace kvplan
