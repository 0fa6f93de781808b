#include <gtest/gtest.h>

#include "engines/common/flag_table.h"
#include "engines/vllm/release.h"
#include "engines/vllm/vllm.h"
#include "kvplan/error.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

TEST(VllmArgs, PastedServeCommand) {
  VllmArgs a = ParseVllmArgs({"vllm", "serve", "Qwen/Qwen3-8B", "-tp", "2", "--max-model-len",
                              "32k", "--gpu-memory-utilization=0.85", "--kv-cache-dtype", "fp8",
                              "--enforce-eager", "--port", "8000"});
  EXPECT_EQ(a.model, "Qwen/Qwen3-8B");
  EXPECT_EQ(a.tp, 2);
  EXPECT_EQ(*a.max_model_len, 32000);
  EXPECT_DOUBLE_EQ(*a.gpu_memory_utilization, 0.85);
  EXPECT_EQ(a.kv_cache_dtype, "fp8");
  EXPECT_TRUE(a.enforce_eager);
}

TEST(VllmArgs, ModelFlagFirstAsTheSplitterHandsIt) {
  VllmArgs a = ParseVllmArgs({"--model", "m", "--data-parallel-size", "8",
                              "--enable-expert-parallel", "--kv-cache-memory", "8589934592"});
  EXPECT_EQ(a.model, "m");
  EXPECT_EQ(a.dp, 8);
  EXPECT_TRUE(a.enable_expert_parallel);
  EXPECT_EQ(*a.kv_cache_memory_bytes, 8589934592);
}

TEST(VllmArgs, BlocksOverrideAndTheGraphEstimateSwitchReachThePlanner) {
  VllmArgs a = ParseVllmArgs({"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=0", "vllm", "serve", "m",
                              "--num-gpu-blocks-override", "1000"});
  EXPECT_EQ(a.num_gpu_blocks_override, 1000);
  EXPECT_EQ(a.estimate_cudagraphs, false);
  EXPECT_EQ(ParseVllmArgs({"vllm", "serve", "m"}).num_gpu_blocks_override, std::nullopt);
  EXPECT_THROW(ParseVllmArgs({"vllm", "serve", "m", "--num-gpu-blocks-override", "0"}), InputError);
}

TEST(VllmArgs, UtilizationOutOfRange) {
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "0"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "-0.5"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilization", "1.2"}), InputError);
  EXPECT_NO_THROW(ParseVllmArgs({"--gpu-memory-utilization", "1"}));
}

TEST(VllmArgs, SpeculativeConfig) {
  VllmArgs a = ParseVllmArgs(
      {"--speculative-config", R"({"method":"eagle3","model":"x/y","num_speculative_tokens":3})"});
  ASSERT_TRUE(a.speculative);
  EXPECT_EQ(a.speculative->method, "eagle3");
  EXPECT_EQ(a.speculative->num_speculative_tokens, 3);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", "{method: eagle"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", "[1,2]"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", R"({"method":"warp"})"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--speculative-config", R"({"method":"eagle"})"}), InputError);
  EXPECT_THROW(
      ParseVllmArgs({"--speculative-config", R"({"method":"mtp","num_speculative_tokens":0})"}),
      InputError);
}

TEST(VllmArgs, BadValues) {
  EXPECT_THROW(ParseVllmArgs({"--kv-cache-dtype", "int3"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--tensor-parallel-size", "0"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--max-model-len", "lots"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--gpu-memory-utilisation", "0.9"}), InputError);  // typo
  EXPECT_THROW(ParseVllmArgs({"a", "--model", "b"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--max-model-len", "999999999999M"}), InputError);  // overflow guard
  EXPECT_THROW(ParseVllmArgs({"--max-num-batched-tokens", "9000000000000"}), InputError);
  EXPECT_THROW(ParseVllmArgs({"--swap-space", "1e300"}), InputError);
}

TEST(VllmRelease, ParsesAndPicksEras) {
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.6.3"), std::nullopt), VllmEra::kV0Legacy);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.7.0"), std::nullopt), VllmEra::kV0);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.7.0"), true), VllmEra::kV1Early);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.9.1"), std::nullopt), VllmEra::kV1Early);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("v0.9.2"), std::nullopt), VllmEra::kV1);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.15.2rc1.dev93+g11a4c9d30"), std::nullopt), VllmEra::kV1);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease("0.21.0"), std::nullopt), VllmEra::kV1GraphEstimate);
  EXPECT_EQ(VllmEraFor(ParseVllmRelease(""), std::nullopt), VllmEra::kV1GraphEstimate);
}

TEST(VllmRelease, UnknownVersions) {
  EXPECT_THROW(ParseVllmRelease("banana"), InputError);
  EXPECT_THROW(ParseVllmRelease("0.5.4"), InputError);
  // A release after the newest modelled one is planned with its rules, marked (and warned).
  EXPECT_TRUE(ParseVllmRelease("0.40.0").newer_than_modelled);
  EXPECT_FALSE(ParseVllmRelease("0.28.1").newer_than_modelled);
  EXPECT_THROW(ParseVllmRelease("1"), InputError);
  EXPECT_THROW(VllmEraFor(ParseVllmRelease("0.11.0"), false), InputError);  // V0 removed
  EXPECT_THROW(VllmEraFor(ParseVllmRelease("0.6.3"), true), InputError);    // no V1 yet
}

std::string VllmErrorOf(const std::vector<std::string>& argv, const std::string& release) {
  return testing::InputErrorOf([&] { ParseVllmArgs(argv, release); });
}

// https://github.com/vllm-project/vllm/issues/27389 (October 2025, so 0.11.0): the serve command as
// pasted there parses; with --tp for --tensor-parallel-size vLLM refuses it
// (it has no --tp, nor any flag that --tp abbreviates).
const std::vector<std::string> kQwenServe = {"serve",
                                             "/root/models/Qwen3-8B",
                                             "--tensor-parallel-size",
                                             "2",
                                             "--max-model-len",
                                             "16000",
                                             "--gpu-memory-utilization",
                                             "0.9",
                                             "--served-model-name",
                                             "Qwen3-8B",
                                             "--api-key",
                                             "jiangxin"};

TEST(VllmFlagTable, TheRealCommandParsesAndATpTypoIsRefused) {
  VllmArgs a = ParseVllmArgs(kQwenServe, "0.11.0");
  EXPECT_EQ(a.tp, 2);
  EXPECT_EQ(*a.max_model_len, 16000);
  EXPECT_TRUE(a.unknown_flags.empty());
  std::vector<std::string> typo = kQwenServe;
  typo[2] = "--tp";
  // argparse's words, then kvplan's hint: the short alias it was written for.
  EXPECT_EQ(VllmErrorOf(typo, "0.11.0"),
            "vllm serve: error: unrecognized arguments: --tp 2 (did you mean '-tp'?)");
  EXPECT_EQ(VllmErrorOf(typo, "v0.11"),
            "vllm serve: error: unrecognized arguments: --tp 2 (did you mean '-tp'?)");
  // Issue 11: a release newer than every parser (kvplan's default, 0.28) planned --tp at TP 1
  // with "--tp is not modelled". vLLM refuses --tp (-tp is its alias). At a release without a
  // table of its own (a later one, a dev build, one between two tables) a later parser may have
  // added a flag, but not one a letter away from a flag kvplan models: that is a typo, refused
  // in kvplan's words with the alias it meant.
  for (const char* release : {"", "0.21.1", "0.21.0.dev12", "0.19.0", "0.11.0.dev7548"}) {
    EXPECT_EQ(VllmErrorOf(typo, release), "unknown vLLM flag '--tp'; did you mean '-tp'?")
        << release;
  }
  std::vector<std::string> short_tp = kQwenServe;
  short_tp[2] = "-tp";
  EXPECT_EQ(ParseVllmArgs(short_tp, "").tp, 2);
}

// The nearest older parser stands in for a release without one, and the plan says so in one
// line: which table, and that a flag added since is unknown to kvplan.
TEST(VllmFlagTable, AReleaseWithoutATableUsesTheNearestOlderOneAndSaysSo) {
  std::string note;
  const FlagTable* t = VllmFlagTableFor("0.28.0", &note);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->release, "0.24.0");  // the newest table in data/flags/vllm/
  EXPECT_EQ(note, OlderFlagTableNote("vLLM", "0.28.0", *t));
  EXPECT_NE(note.find("vLLM 0.28.0's flags are checked against vLLM 0.24.0's parser"),
            std::string::npos)
      << note;
  EXPECT_NE(note.find("flags added since are unknown to kvplan"), std::string::npos) << note;
  note.clear();
  EXPECT_EQ(VllmFlagTableFor("0.11.0", &note)->release, "0.11.0");
  EXPECT_TRUE(note.empty());
  // Between two tables, and an rc of a tabled release (it precedes it): the older table.
  EXPECT_EQ(VllmFlagTableFor("0.19.0", &note)->release, "0.14.1");
  EXPECT_EQ(VllmFlagTableFor("0.12.0")->release, "0.11.0");
  EXPECT_EQ(VllmFlagTableFor("0.22.0")->release, "0.21.0");
  EXPECT_EQ(VllmFlagTableFor("0.20.1rc0")->release, "0.20.1");
  EXPECT_EQ(VllmFlagTableFor("0.6.3")->release, "0.6.0");
  EXPECT_EQ(VllmFlagTableFor("not a release"), nullptr);
}

// A flag 0.14.1's parser added since 0.11.0's (both tables read from vLLM's source at the tag) is
// refused by 0.11.0 itself, and only warned about at 0.12.0, whose parser kvplan lacks: 0.12.0 may
// have added it. A value outside the older table's choices is likewise a warning there.
TEST(VllmFlagTable, AFlagAddedAfterTheNearestTableIsAWarningNamingIt) {
  const FlagTable* old_t = FindFlagTable("vllm", "0.11.0");
  const FlagTable* new_t = FindFlagTable("vllm", "0.14.1");
  ASSERT_NE(old_t, nullptr);
  ASSERT_NE(new_t, nullptr);
  std::string added;
  for (const EngineFlag& f : new_t->flags) {
    const std::string& n = f.names.front();
    if (f.kind != EngineFlag::Kind::kFlag) continue;
    try {
      if (old_t->Resolve(n) == nullptr) added = n;
    } catch (const InputError&) {
      // a prefix of several 0.11.0 flags: not a clean example
    }
  }
  ASSERT_FALSE(added.empty());
  std::vector<std::string> argv = kQwenServe;
  argv.push_back(added);
  EXPECT_EQ(VllmErrorOf(argv, "0.11.0"), "vllm serve: error: unrecognized arguments: " + added);
  EXPECT_EQ(VllmErrorOf(argv, "0.14.1"), "");
  VllmArgs a = ParseVllmArgs(argv, "0.12.0");
  ASSERT_EQ(a.flag_notes.size(), 2u);
  EXPECT_EQ(a.flag_notes[1].rfind(added + ": not in vLLM 0.11.0's parser", 0), 0u)
      << a.flag_notes[1];
  EXPECT_NE(a.flag_notes[1].find("vLLM 0.12.0 may have added it"), std::string::npos);
  std::vector<std::string> dtype = kQwenServe;
  dtype.insert(dtype.end(), {"--kv-cache-dtype", "fp8_e4m4"});
  EXPECT_NE(VllmErrorOf(dtype, "0.11.0"), "");
  VllmArgs b = ParseVllmArgs({"vllm", "serve", "m", "--uvicorn-log-level", "loud"}, "0.12.0");
  ASSERT_EQ(b.flag_notes.size(), 2u);
  EXPECT_EQ(b.flag_notes[1].rfind("--uvicorn-log-level loud: not among vLLM 0.11.0's choices", 0),
            0u)
      << b.flag_notes[1];
}

// Real launches rebuilt from the "non-default args" their logs print
// (tests/data/real/vllm/issue46169_rocm_v023_banner_hang.log, vLLM 0.23.0;
// issue51454_v025_banner_dp8_cut_args.log, vLLM 0.25.0). 0.23.0 has its own parser now
// (data/flags/vllm/0.23.0.json), so its launch parses with no note; 0.25.0's is checked against
// the nearest older one (0.24.0's), with the one line that says so, and every flag it gives is
// there.
TEST(VllmFlagTable, RealLaunchesOf023And025Parse) {
  VllmArgs a = ParseVllmArgs(
      {"vllm", "serve", "Qwen/Qwen3.5-2B", "--port", "3456", "--language-model-only"}, "0.23.0");
  EXPECT_EQ(a.model, "Qwen/Qwen3.5-2B");
  EXPECT_TRUE(a.flag_notes.empty());
  VllmArgs b = ParseVllmArgs({"vllm",
                              "serve",
                              "deepseek-ai/DeepSeek-V4-Flash-0731",
                              "--api-server-count",
                              "8",
                              "--enable-auto-tool-choice",
                              "--tool-call-parser",
                              "deepseek_v4",
                              "--tokenizer-mode",
                              "deepseek_v4",
                              "--trust-remote-code",
                              "--served-model-name",
                              "deepseek-v4-flash-0731",
                              "--reasoning-parser",
                              "deepseek_v4",
                              "--data-parallel-size",
                              "8",
                              "--enable-expert-parallel",
                              "--block-size",
                              "256",
                              "--gpu-memory-utilization",
                              "0.95",
                              "--kv-cache-dtype",
                              "fp8",
                              "--max-num-batched-tokens",
                              "8192",
                              "--max-num-seqs",
                              "256",
                              "--moe-backend",
                              "deep_gemm_mega_moe"},
                             "0.25.0");
  EXPECT_EQ(b.dp, 8);
  EXPECT_EQ(b.kv_cache_dtype, "fp8");
  ASSERT_EQ(b.flag_notes.size(), 1u);
  EXPECT_EQ(b.flag_notes[0],
            OlderFlagTableNote("vLLM", "0.25.0", *FindFlagTable("vllm", "0.24.0")));
}

// data/flags/vllm/0.23.0.json has --spec-method, new since 0.21.0.json: 0.21.0 refuses it, 0.22.0
// (no table; checked against 0.21.0's) warns about it, 0.23.0 accepts it.
TEST(VllmFlagTable, Release023AddsSpecMethod) {
  std::vector<std::string> argv = kQwenServe;
  argv.insert(argv.end(), {"--spec-method", "eagle3"});
  EXPECT_EQ(VllmErrorOf(argv, "0.20.1"),
            "vllm serve: error: unrecognized arguments: --spec-method eagle3");
  EXPECT_EQ(VllmErrorOf(argv, "0.21.0"),
            "vllm serve: error: unrecognized arguments: --spec-method eagle3");
  VllmArgs at22 = ParseVllmArgs(argv, "0.22.0");
  ASSERT_EQ(at22.flag_notes.size(), 2u);
  EXPECT_EQ(at22.flag_notes[1].rfind("--spec-method: not in vLLM 0.21.0's parser", 0), 0u)
      << at22.flag_notes[1];
  EXPECT_EQ(VllmErrorOf(argv, "0.23.0"), "");
}

// data/flags/vllm/0.21.0.json, read at upstream's tag v0.21.0 (commit ad7125a431e1, which
// red-hat-data-services/vllm-cpu merged from releases/v0.21.0): vllm/engine/arg_utils.py there
// registers --fingerprint-mode with choices full/hash/custom/none, which 0.20.1's parser lacks.
// 0.20.1 refuses it, 0.21.0 takes it and refuses a value outside the choices, in argparse's words.
TEST(VllmFlagTable, Release021AddsFingerprintMode) {
  std::vector<std::string> argv = kQwenServe;
  argv.insert(argv.end(), {"--fingerprint-mode", "hash"});
  EXPECT_EQ(VllmErrorOf(argv, "0.20.1"),
            "vllm serve: error: unrecognized arguments: --fingerprint-mode hash");
  EXPECT_EQ(VllmErrorOf(argv, "0.21.0"), "");
  EXPECT_TRUE(ParseVllmArgs(argv, "0.21.0").flag_notes.empty());
  argv.back() = "sha";
  EXPECT_NE(VllmErrorOf(argv, "0.21.0").find("argument --fingerprint-mode: invalid choice: 'sha'"),
            std::string::npos)
      << VllmErrorOf(argv, "0.21.0");
}

// data/flags/vllm/0.24.0.json, read at upstream's tag v0.24.0 (commit ee0da84ab9e0, on
// neuralmagic/vllm's varun/v0.24.0): vllm/engine/arg_utils.py there registers
// --prefill-schedule-interval in the scheduler group, which 0.23.0's parser lacks. 0.23.0 refuses
// it in argparse's words, 0.24.0 accepts it with no note, 0.25.0 (no table; 0.24.0's stands in)
// accepts it with only the line naming the table.
TEST(VllmFlagTable, Release024AddsPrefillScheduleInterval) {
  std::vector<std::string> argv = kQwenServe;
  argv.insert(argv.end(), {"--prefill-schedule-interval", "4"});
  EXPECT_EQ(VllmErrorOf(argv, "0.23.0"),
            "vllm serve: error: unrecognized arguments: --prefill-schedule-interval 4");
  EXPECT_EQ(VllmErrorOf(argv, "0.24.0"), "");
  EXPECT_TRUE(ParseVllmArgs(argv, "0.24.0").flag_notes.empty());
  const VllmArgs at25 = ParseVllmArgs(argv, "0.25.0");
  EXPECT_EQ(at25.flag_notes, std::vector<std::string>({OlderFlagTableNote(
                                 "vLLM", "0.25.0", *FindFlagTable("vllm", "0.24.0"))}));
  // A flag of both: 0.23.0's --spec-method is still there at the tag.
  std::vector<std::string> spec = kQwenServe;
  spec.insert(spec.end(), {"--spec-method", "eagle3"});
  EXPECT_EQ(VllmErrorOf(spec, "0.24.0"), "");
}

// vllm/envs.py at each tag (the tables' `environment`, read by scripts/extract-flags.py):
// VLLM_USE_V1 is defined up to 0.11.0 and gone from 0.12.0, so at 0.14.1 and 0.20.1 it has no
// effect (kvplan refused VLLM_USE_V1=0 there as "V0 removed"); from 0.17.0 vLLM says so itself in
// the words of envs.py validate_environ, and refuses to start under --fail-on-environ-validation.
TEST(VllmFlagTable, AVariableEnvsPyLacksHasNoEffect) {
  // What a VLLM_USE_V1=0 launch is told at `release`; VLLM_USE_V1 itself is not read.
  auto only_note = [](const std::string& release) {
    VllmArgs a = ParseVllmArgs({"VLLM_USE_V1=0", "vllm", "serve", "m"}, release);
    EXPECT_FALSE(a.use_v1.has_value()) << release;
    // The last line: at a release without a table the first says which table stood in.
    return a.flag_notes.empty() ? "" : a.flag_notes.back();
  };
  EXPECT_EQ(only_note("0.20.1").rfind("Unknown vLLM environment variable detected: VLLM_USE_V1", 0),
            0u)
      << only_note("0.20.1");
  EXPECT_EQ(VllmErrorOf({"VLLM_USE_V1=0", "vllm", "serve", "m", "--fail-on-environ-validation"},
                        "0.20.1"),
            "vLLM 0.20.1 refuses the launch: ValueError: Unknown vLLM environment variable "
            "detected: VLLM_USE_V1 (--fail-on-environ-validation)");
  EXPECT_EQ(only_note("0.14.1").rfind("VLLM_USE_V1=0: vllm/envs.py of vLLM 0.14.1 has no such", 0),
            0u)
      << only_note("0.14.1");
  EXPECT_EQ(ParseVllmArgs({"VLLM_USE_V1=1", "vllm", "serve", "m"}, "0.11.0").use_v1, true);
  // At 0.28.0 (checked against 0.24.0's table): 0.11.0's envs.py had it and 0.24.0's has not, so
  // it was removed, not added since; kvplan refused VLLM_USE_V1=0 there as "V0 removed".
  const std::string at28 = only_note("0.28.0");
  EXPECT_EQ(at28.rfind("VLLM_USE_V1=0: vllm/envs.py defines it up to vLLM 0.11.0's table but "
                       "not in 0.24.0's",
                       0),
            0u)
      << at28;
  // Under an older table (0.19.0 is checked against 0.14.1): a variable kvplan reads is read even
  // where that table lacks it (VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS is 0.18's); another is a
  // warning naming the table.
  VllmArgs at19 = ParseVllmArgs(
      {"VLLM_MEMORY_PROFILER_ESTIMATE_CUDAGRAPHS=1", "VLLM_NOT_A_VARIABLE=1", "vllm", "serve", "m"},
      "0.19.0");
  EXPECT_EQ(at19.estimate_cudagraphs, true);
  ASSERT_EQ(at19.flag_notes.size(), 2u);
  EXPECT_EQ(at19.flag_notes[1].rfind(
                "VLLM_NOT_A_VARIABLE=1: not a variable of vLLM 0.14.1's vllm/envs.py", 0),
            0u)
      << at19.flag_notes[1];
}

// vllm/envs.py @v0.17.0: VLLM_FUSED_MOE_CHUNK_SIZE and VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING
// change the fused-MoE workspace at 0.17.x only (estimates.h); at 0.16 kvplan does not model
// them (a warning), and 0.20.1's envs.py no longer has them (vLLM's unknown-variable warning).
TEST(VllmFlagTable, FusedMoeChunkingIsReadAt017) {
  const std::vector<std::string> argv = {"VLLM_FUSED_MOE_CHUNK_SIZE=8192",
                                         "VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING=0", "vllm",
                                         "serve", "m"};
  VllmArgs a = ParseVllmArgs(argv, "0.17.0");
  EXPECT_EQ(a.fused_moe_chunk_size, 8192);
  EXPECT_EQ(a.fused_moe_chunking, false);
  EXPECT_TRUE(a.unknown_flags.empty());
  EXPECT_EQ(ParseVllmArgs(argv, "0.16.0").unknown_flags.size(), 2u);
  VllmArgs at20 = ParseVllmArgs(argv, "0.20.1");
  EXPECT_FALSE(at20.fused_moe_chunk_size.has_value());
  EXPECT_EQ(at20.flag_notes.size(), 2u);
  EXPECT_EQ(VllmErrorOf({"VLLM_FUSED_MOE_CHUNK_SIZE=16k", "vllm", "serve", "m"}, "0.17.0"),
            "VLLM_FUSED_MOE_CHUNK_SIZE must be an integer (vLLM reads it with int()), got '16k'");
}

TEST(VllmFlagTable, EnvironmentIsReadOrWarnedAbout) {
  std::vector<std::string> argv = {"VLLM_ALLOW_LONG_MAX_MODEL_LEN=true",
                                   "VLLM_ATTENTION_BACKEND=FLASHINFER"};
  argv.insert(argv.end(), kQwenServe.begin(), kQwenServe.end());
  VllmArgs a = ParseVllmArgs(argv, "0.11.0");
  EXPECT_TRUE(a.allow_long_max_model_len);
  EXPECT_EQ(a.unknown_flags, std::vector<std::string>({"VLLM_ATTENTION_BACKEND=FLASHINFER"}));
  EXPECT_THROW(ParseVllmArgs({"VLLM_USE_V1=true", "serve", "m"}, "0.8.5"), InputError);
}

}  // namespace
}  // namespace kvplan
