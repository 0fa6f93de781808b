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
  EXPECT_EQ(VllmErrorOf(typo, "0.11.0"), "vllm serve: error: unrecognized arguments: --tp 2");
  EXPECT_EQ(VllmErrorOf(typo, "v0.11"), "vllm serve: error: unrecognized arguments: --tp 2");
  // A dev build or a release between two parsers in data/flags/ only warns.
  EXPECT_EQ(ParseVllmArgs(typo, "0.11.0.dev7548").unknown_flags,
            std::vector<std::string>({"--tp"}));
  EXPECT_EQ(ParseVllmArgs(typo, "0.19.0").unknown_flags, std::vector<std::string>({"--tp"}));
  // Issue 11: a release newer than every parser (kvplan's default, 0.28) was planned at TP 1 with
  // "--tp is not modelled"; vLLM refuses --tp (-tp is its alias), and so does kvplan now, with
  // the newest parser.
  EXPECT_EQ(VllmErrorOf(typo, ""), "vllm serve: error: unrecognized arguments: --tp 2");
  EXPECT_EQ(VllmErrorOf(typo, "0.21.1"), "vllm serve: error: unrecognized arguments: --tp 2");
  EXPECT_EQ(VllmErrorOf(typo, "0.21.0.dev12"), "vllm serve: error: unrecognized arguments: --tp 2");
  std::vector<std::string> short_tp = kQwenServe;
  short_tp[2] = "-tp";
  EXPECT_EQ(ParseVllmArgs(short_tp, "").tp, 2);
}

// The newest parser stands in for later releases, and the plan says so in one line.
TEST(VllmFlagTable, ANewerReleaseUsesTheNewestParserAndSaysSo) {
  std::string note;
  const FlagTable* t = VllmFlagTableFor("0.28.0", &note);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->release, "0.20.1");  // the newest table in data/flags/vllm/
  EXPECT_NE(note.find("vLLM 0.28.0's flags are checked against vLLM " + t->release + "'s parser"),
            std::string::npos)
      << note;
  note.clear();
  EXPECT_EQ(VllmFlagTableFor("0.11.0", &note)->release, "0.11.0");
  EXPECT_TRUE(note.empty());
  EXPECT_EQ(VllmFlagTableFor("0.19.0"), nullptr);
}

// FlexibleArgumentParser reads --a_b as --a-b; argparse abbreviations hold.
TEST(VllmFlagTable, UnderscoresAndAbbreviations) {
  std::vector<std::string> argv = kQwenServe;
  argv[4] = "--max_model_len";
  argv[6] = "--gpu-memory";
  VllmArgs a = ParseVllmArgs(argv, "0.11.0");
  EXPECT_EQ(*a.max_model_len, 16000);
  EXPECT_DOUBLE_EQ(*a.gpu_memory_utilization, 0.9);
  // argparse's attached short-option value: -O3 is -O 3 (--compilation-config).
  argv.push_back("-O3");
  EXPECT_TRUE(ParseVllmArgs(argv, "0.11.0").unknown_flags.empty());
  // From 0.14 -O is FlexibleArgumentParser's spelling of --optimization-level.
  EXPECT_EQ(ParseVllmArgs(argv, "0.20.1").unknown_flags,
            std::vector<std::string>({"--optimization-level"}));
  argv.insert(argv.end(), {"--max-num", "8"});
  EXPECT_EQ(VllmErrorOf(argv, "0.11.0"),
            "vllm serve: error: ambiguous option: --max-num could match "
            "--max-num-batched-tokens, --max-num-seqs, --max-num-partial-prefills");
}

// vllm/engine/arg_utils.py: --kv-cache-memory-bytes is new in 0.11.0; kvplan's
// --kv-cache-memory is its abbreviation there, and nothing before it.
TEST(VllmFlagTable, AFlagOfALaterReleaseIsRefusedByAnEarlierOne) {
  std::vector<std::string> argv = kQwenServe;
  argv.insert(argv.end(), {"--kv-cache-memory-bytes", "8G"});
  EXPECT_EQ(VllmErrorOf(argv, "0.10.1.1"),
            "vllm serve: error: unrecognized arguments: --kv-cache-memory-bytes 8G");
  argv.back() = "8589934592";
  EXPECT_EQ(*ParseVllmArgs(argv, "0.11.0").kv_cache_memory_bytes, 8589934592);
}

// arg_utils.py: --kv-cache-dtype takes CacheConfig's Literal choices.
TEST(VllmFlagTable, AValueOutsideChoicesIsRefused) {
  std::vector<std::string> argv = kQwenServe;
  argv.insert(argv.end(), {"--kv-cache-dtype", "fp8_e4m4"});
  EXPECT_EQ(VllmErrorOf(argv, "0.11.0"),
            "vllm serve: error: argument --kv-cache-dtype: invalid choice: 'fp8_e4m4' (choose "
            "from 'auto', 'bfloat16', 'fp8', 'fp8_e4m3', 'fp8_e5m2', 'fp8_inc')");
  // A flag vLLM has and kvplan does not model is warned about, its value skipped.
  argv.back() = "fp8";
  argv.insert(argv.end(), {"--max-num-partial-prefills", "2"});
  EXPECT_EQ(ParseVllmArgs(argv, "0.11.0").unknown_flags,
            std::vector<std::string>({"--max-num-partial-prefills"}));
}

// argparse's BooleanOptionalAction (0.8.5 on): --no-enable-chunked-prefill
// is the same flag as --enable-chunked-prefill, storing false.
TEST(VllmFlagTable, TheNoFormOfABooleanStoresFalse) {
  for (const char* release : {"0.8.5", "0.11.0", "0.20.1", ""}) {
    std::vector<std::string> argv = kQwenServe;
    argv.push_back("--no-enable-chunked-prefill");
    VllmArgs a = ParseVllmArgs(argv, release);
    ASSERT_TRUE(a.enable_chunked_prefill) << release;
    EXPECT_FALSE(*a.enable_chunked_prefill) << release;
    argv.back() = "--enable-chunked-prefill";
    EXPECT_TRUE(*ParseVllmArgs(argv, release).enable_chunked_prefill) << release;
  }
  // 0.6.0 had no --no- form.
  std::vector<std::string> argv = kQwenServe;
  argv.push_back("--no-enable-chunked-prefill");
  EXPECT_EQ(VllmErrorOf(argv, "0.6.0"),
            "vllm serve: error: unrecognized arguments: --no-enable-chunked-prefill");
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
