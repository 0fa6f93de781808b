// trtllm-serve's parser at 1.3.0rc3 (data/flags/trtllm/1.3.0rc3.json, from
// tensorrt_llm/commands/serve.py and tensorrt_llm/llmapi/llm_args.py of the
// TensorRT-LLM copy whose version.py says 1.3.0rc3; see data/flags/trtllm/README.md).
#include "engines/trtllm/flags.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "base/embedded_data.h"
#include "engines/trtllm/stages.h"
#include "engines/trtllm/trtllm.h"
#include "testing/input_error.h"

namespace kvplan {
namespace {

constexpr const char* kRelease = "1.3.0rc3";

std::string Refusal(const std::vector<std::string>& argv, const std::string& release = kRelease) {
  return testing::InputErrorOf([&] { ParseTrtllmArgs(argv, release); });
}

// A YAML file in the temp directory, removed when the test ends.
class OptionsFile {
 public:
  explicit OptionsFile(const std::string& text)
      : path_(::testing::TempDir() + "kvplan_trtllm_flags_" +
              ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".yaml") {
    std::ofstream(path_) << text;
  }
  ~OptionsFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

TEST(TrtllmFlags, UnknownOptionIsRefusedInClicksWords) {
  // click's parser (_match_long_opt): NoSuchOption, no close match for --foo.
  EXPECT_EQ(Refusal({"trtllm-serve", "m", "--foo", "3"}),
            "trtllm-serve serve 1.3.0rc3: Error: No such option: --foo");
  // A vLLM flag: difflib.get_close_matches('--gpu_memory_utilization', long options).
  EXPECT_EQ(Refusal({"m", "--gpu_memory_utilization", "0.9"}),
            "trtllm-serve serve 1.3.0rc3: Error: No such option: "
            "--gpu_memory_utilization (Possible options: "
            "--free_gpu_memory_fraction, --kv_cache_free_gpu_memory_fraction)");
  // kvplan passes a pasted command's MODEL argument as --model (launch_command.cc).
  EXPECT_EQ(ParseTrtllmArgs({"--model", "m", "--tp_size", "2"}, kRelease).model, "m");
  // A word with one dash is tried as short options: "-x" first.
  EXPECT_EQ(Refusal({"m", "-xyz"}), "trtllm-serve serve 1.3.0rc3: Error: No such option: -x");
}

TEST(TrtllmFlags, CloseMatchesAreDifflibsAndSortedAsClickPrintsThem) {
  // Python: sorted(difflib.get_close_matches('--tp', long_options)).
  EXPECT_EQ(Refusal({"m", "--tp", "2"}),
            "trtllm-serve serve 1.3.0rc3: Error: No such option: --tp (Possible "
            "options: --host, --port, --tp_size)");
  EXPECT_EQ(Refusal({"m", "--max-batch-size=8"}),
            "trtllm-serve serve 1.3.0rc3: Error: No such option: --max-batch-size "
            "Did you mean --max_batch_size?");
  // get_close_matches keeps the 3 best: --tensor/--context/--pipeline_parallel_size.
  EXPECT_EQ(CloseMatches("--tensor-parallel-size",
                         {"--tp_size", "--tensor_parallel_size", "--pipeline_parallel_size",
                          "--context_parallel_size", "--moe_expert_parallel_size"}),
            (std::vector<std::string>{"--tensor_parallel_size", "--context_parallel_size",
                                      "--pipeline_parallel_size"}));
  // SequenceMatcher('--tp_size', '--tp').ratio() = 8/13 = 0.615 >= 0.6; 'abcd'/'bcde' = 0.75.
  EXPECT_EQ(CloseMatches("--tp", {"--tp_size", "--trust_remote_code"}),
            std::vector<std::string>{"--tp_size"});
  EXPECT_EQ(CloseMatches("bcde", {"abcd", "xyzw"}), std::vector<std::string>{"abcd"});
}

TEST(TrtllmFlags, AliasesOfModelledFlagsAreModelled) {
  // serve.py 1.3.0rc3: "--tensor_parallel_size", "--tp_size"; "--free_gpu_memory_fraction",
  // "--kv_cache_free_gpu_memory_fraction"; "--moe_expert_parallel_size", "--ep_size".
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "serve", "m", "--tensor_parallel_size", "2",
                                  "--free_gpu_memory_fraction=0.5", "--moe_expert_parallel_size",
                                  "2", "--pipeline_parallel_size", "1"},
                                 kRelease);
  EXPECT_EQ(a.tp, 2);
  EXPECT_EQ(a.ep, 2);
  EXPECT_DOUBLE_EQ(a.free_gpu_memory_fraction.value_or(0), 0.5);
  EXPECT_TRUE(a.unknown_flags.empty());
}

std::vector<std::string> TableReleases() {
  std::vector<std::string> out;
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path.rfind("flags/trtllm/", 0) == 0) {
      out.emplace_back(f.path.substr(13, f.path.size() - 13 - 5));  // drop ".json"
    }
  }
  return out;
}

// Each option of each table, given with a value it accepts: kvplan warns
// exactly about the ones the table calls not_modelled.
TEST(TrtllmFlags, EveryOptionIsTreatedAsTheTableSays) {
  OptionsFile yaml("max_batch_size: 8\n");
  for (const std::string& release : TableReleases()) {
    const TrtllmFlagTable* t = TrtllmFlagTableFor(release);
    ASSERT_NE(t, nullptr) << release;
    for (const ClickOption& o : t->options) {
      for (const std::string& name : o.names) {
        std::vector<std::string> argv{"m", name};
        if (o.takes_value) {
          const bool file = name == "--config" || name == "--extra_llm_api_options";
          argv.push_back(file ? yaml.path() : !o.choices.empty() ? o.choices[0] : "1");
        }
        TrtllmArgs a = ParseTrtllmArgs(argv, release);
        const bool warned = a.unknown_flags == std::vector<std::string>{name};
        EXPECT_EQ(warned, o.treatment == "not_modelled") << release << " " << name;
        if (!warned) {
          EXPECT_TRUE(a.unknown_flags.empty()) << release << " " << name;
        }
      }
    }
  }
}

TEST(TrtllmFlags, OlderReleaseRefusesWhatItLacked) {
  // 0.18.2's trtllm-serve (its rendered --help): no --ep_size, no YAML options,
  // and --backend only Choice(["pytorch"]) (the default is the C++ runtime).
  EXPECT_EQ(Refusal({"m", "--ep_size", "2"}, "0.18.2"),
            "trtllm-serve 0.18.2: Error: No such option: --ep_size "
            "(Possible options: --pp_size, --tokenizer, --tp_size)");
  EXPECT_EQ(Refusal({"m", "--backend", "tensorrt"}, "0.18.2"),
            "trtllm-serve 0.18.2: Error: Invalid value for '--backend': "
            "'tensorrt' is not 'pytorch'.");
  EXPECT_EQ(ParseTrtllmArgs({"m", "--tp_size", "2"}, "0.18.2").tp, 2);
}

TEST(TrtllmFlags, ChoicesAreClicks) {
  // serve.py: ChoiceWithAlias(["pytorch", "tensorrt", "_autodeploy"], {"trt": "tensorrt"}).
  EXPECT_EQ(Refusal({"m", "--backend", "onnx"}),
            "trtllm-serve serve 1.3.0rc3: Error: Invalid value for '--backend': "
            "'onnx' is not one of 'pytorch', 'tensorrt', "
            "'_autodeploy'.");
  EXPECT_EQ(ParseTrtllmArgs({"m", "--backend", "trt"}, kRelease).backend, "tensorrt");
}

TEST(TrtllmFlags, UnknownYamlKeyIsRefusedAsPydanticForbidsIt) {
  // llm_args.py: StrictBaseModel and BaseLlmArgs set extra="forbid".
  // pydantic lists the keys in the file's order; kvplan in sorted order, the same here.
  OptionsFile top("max_batch_size: 8\nbar: fast\nfoo: 3\n");
  EXPECT_EQ(Refusal({"m", "--config", top.path()}),
            top.path() +
                ": 2 validation errors for TorchLlmArgs; bar: Extra inputs are not permitted "
                "[type=extra_forbidden, input_value='fast', input_type=str]; foo: Extra inputs "
                "are not permitted [type=extra_forbidden, input_value=3, input_type=int]");
  // update_llm_args_with_extra_dict builds KvCacheConfig(**kv_cache_config) first.
  OptionsFile kv("foo: 1\nkv_cache_config:\n  free_gpu_memory_fraction: 0.5\n  reuse: true\n");
  EXPECT_EQ(Refusal({"m", "--extra_llm_api_options", kv.path()}),
            kv.path() +
                ": 1 validation error for KvCacheConfig; reuse: Extra inputs are not permitted "
                "[type=extra_forbidden, input_value=True, input_type=bool]");
  // tokens_per_block is a KvCacheConfig field at 1.3.0rc3, not a top-level one.
  OptionsFile tpb("tokens_per_block: 64\n");
  EXPECT_NE(Refusal({"m", "--config", tpb.path()}).find("tokens_per_block: Extra inputs"),
            std::string::npos);
}

TEST(TrtllmFlags, YamlIsCheckedAgainstTheBackendsArgs) {
  // cuda_graph_config is a TorchLlmArgs field; TrtLlmArgs (backend: tensorrt) lacks it.
  OptionsFile f("backend: tensorrt\ncuda_graph_config:\n  enable_padding: true\n");
  EXPECT_EQ(Refusal({"m", "--config", f.path()}),
            f.path() +
                ": 1 validation error for TrtLlmArgs; cuda_graph_config: Extra inputs are not "
                "permitted [type=extra_forbidden, input_value={'enable_padding': True}, "
                "input_type=dict]");
  EXPECT_EQ(Refusal({"m", "--backend", "pytorch", "--config", f.path()}).find("TorchLlmArgs"),
            std::string::npos);
  OptionsFile ok("kv_cache_config:\n  dtype: fp8\n  enable_block_reuse: false\n");
  TrtllmArgs a = ParseTrtllmArgs({"m", "--config", ok.path()}, kRelease);
  EXPECT_EQ(a.kv_dtype, "fp8");
}

TEST(TrtllmFlags, WithoutATableTheOldRulesHold) {
  // 1.2.0 has no table here: an unknown flag is a warning, not a refusal.
  TrtllmArgs a = ParseTrtllmArgs({"m", "--foo", "3"}, "1.2.0");
  EXPECT_EQ(a.unknown_flags, std::vector<std::string>{"--foo"});
  EXPECT_EQ(TrtllmFlagTableFor("1.2.0"), nullptr);
}

TEST(TrtllmFlags, EveryTableIsAPlannableRelease) {
  const std::vector<std::string> releases = TableReleases();
  EXPECT_GE(releases.size(), 2u);
  for (const std::string& release : releases) {
    const TrtllmFlagTable* t = TrtllmFlagTableFor(release);
    ASSERT_NE(t, nullptr) << release;
    EXPECT_EQ(t->release, release);
    EXPECT_NO_THROW(ParseTrtllmRelease(release)) << release;
    EXPECT_NE(t->Find("--help"), nullptr) << release;
  }
}

}  // namespace
}  // namespace kvplan
