// TensorRT-LLM planner against hand arithmetic of _util.py / kvCacheManager.cpp.
#include "engines/trtllm/trtllm.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "base/units.h"
#include "engines/trtllm/fixes.h"
#include "kvplan/error.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

TrtllmMeasured Terms() {
  return TrtllmMeasuredFromGiB(
      {{"total", 79.19}, {"weights", 14.99}, {"activation_peak", 1.0}, {"non_torch", 0.5}});
}

TEST(Trtllm, FractionOfFreeMemoryAfterLoading) {
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "meta-llama/Llama-3.1-8B-Instruct"});
  PlanResult r = PlanTrtllm("1.0.0", testing::Llama31_8B(), testing::H100(), a, Terms());
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.era, "PyTorch backend (KvCacheCreator)");
  int64_t free_after = GiBToBytes(79.19) - GiBToBytes(14.99) - GiBToBytes(1.0) - GiBToBytes(0.5);
  int64_t avail = static_cast<int64_t>(static_cast<double>(free_after) * 0.9);
  EXPECT_EQ(r.rest_memory_bytes, avail);
  EXPECT_EQ(r.cell_size_bytes, 2 * 32 * 128 * 8 * 2);  // bf16 x layers x (128 x 8 // 1) x 2
  int64_t max_tokens = avail / 131072;
  EXPECT_EQ(r.max_total_num_tokens, (max_tokens + 31) / 32 * 32);  // ceilDiv to 32-token blocks
  EXPECT_EQ(r.fraction_name, "free_gpu_memory_fraction");
  EXPECT_DOUBLE_EQ(r.fraction, 0.9);
}

TEST(Trtllm, TokensGrowWithFraction) {
  int64_t prev = 0;
  for (int pct = 10; pct <= 100; pct += 5) {
    TrtllmArgs a =
        ParseTrtllmArgs({"m", "--kv_cache_free_gpu_memory_fraction", std::to_string(pct / 100.0)});
    PlanResult r = PlanTrtllm("1.0.0", testing::Llama31_8B(), testing::H100(), a, Terms());
    EXPECT_GT(r.max_total_num_tokens, prev) << pct;
    EXPECT_EQ(r.max_total_num_tokens % 32, 0);
    prev = r.max_total_num_tokens;
  }
}

TEST(Trtllm, KvSizePerTokenDividesHeadsByTp) {
  TrtllmArgs a = ParseTrtllmArgs({"m", "--tp_size", "4"});
  TrtllmMeasured m = TrtllmMeasuredFromGiB({{"weights", 55}});
  EXPECT_EQ(PlanTrtllm("1.0.0", testing::Qwen3_235B_FP8(), testing::H100(), a, m).cell_size_bytes,
            48128);
  a.tp = 8;  // 128 * 4 // 8 = 64: the estimate halves, unlike vLLM's replicated head
  EXPECT_EQ(PlanTrtllm("1.0.0", testing::Qwen3_235B_FP8(), testing::H100(), a, m).cell_size_bytes,
            24064);
  a.enable_attention_dp = true;  // tp 1 for the KV estimate under attention DP
  EXPECT_EQ(PlanTrtllm("1.0.0", testing::Qwen3_235B_FP8(), testing::H100(), a, m).cell_size_bytes,
            192512);
}

TEST(Trtllm, MlaLatentKvFactorOne) {
  TrtllmArgs a = ParseTrtllmArgs({"m", "--tp_size", "8"});
  PlanResult r = PlanTrtllm("1.0.0", testing::DeepSeekMla("v3", 61, 163840), testing::H100(), a,
                            TrtllmMeasuredFromGiB({{"weights", 80}}));
  EXPECT_EQ(r.cell_size_bytes, 61 * 576 * 2);
}

TEST(Trtllm, MaxTokensCapsTheCache) {
  TrtllmArgs a = ParseTrtllmArgs({"m"});
  ApplyTrtllmYaml("kv_cache_config:\n  max_tokens: 1000\n  free_gpu_memory_fraction: 0.5\n",
                  "t.yaml", &a);
  PlanResult r = PlanTrtllm("1.0.0", testing::Llama31_8B(), testing::H100(), a, Terms());
  EXPECT_EQ(r.max_total_num_tokens, 1024);  // ceilDiv(1000, 32) * 32
  EXPECT_DOUBLE_EQ(r.fraction, 0.5);
}

TEST(Trtllm, MeasuredFreeAfterLoadingIsUsedDirectly) {
  TrtllmArgs a = ParseTrtllmArgs({"m"});
  PlanResult r = PlanTrtllm("1.0.0", testing::Llama31_8B(), testing::H100(), a,
                            TrtllmMeasuredFromGiB({{"post_load_free", 10}}));
  EXPECT_EQ(r.rest_memory_bytes, static_cast<int64_t>(10.0 * kGiB * 0.9));
}

TEST(Trtllm, OldReleasesDefaultToTensorRtEngines) {
  TrtllmArgs a = ParseTrtllmArgs({"m"});
  EXPECT_EQ(PlanTrtllm("0.17.0", testing::Llama31_8B(), testing::H100(), a, Terms()).era,
            "TensorRT engine (C++ KV cache manager)");
  a.free_gpu_memory_fraction = 1.0;  // the C++ manager requires < 1
  EXPECT_THROW(PlanTrtllm("0.17.0", testing::Llama31_8B(), testing::H100(), a, Terms()),
               InputError);
}

TEST(Trtllm, ShortCacheGetsFixes) {
  TrtllmArgs a = ParseTrtllmArgs({"m", "--kv_cache_free_gpu_memory_fraction", "0.2"});
  TrtllmMeasured m = TrtllmMeasuredFromGiB({{"total", 23.58}, {"weights", 14.99}});
  PlanResult r = PlanTrtllm("1.0.0", testing::Llama31_8B(), testing::Rtx3090(), a, m);
  ASSERT_LT(r.max_total_num_tokens, 131072);
  std::vector<Fix> fixes = TrtllmFixes("1.0.0", testing::Llama31_8B(), testing::Rtx3090(), a, m, r);
  ASSERT_FALSE(fixes.empty());
  bool len = false;
  for (const Fix& f : fixes) len |= f.flag == "--max_seq_len";
  EXPECT_TRUE(len);
}

TEST(Trtllm, BadInput) {
  EXPECT_THROW(ParseTrtllmArgs({"m", "--kv_cache_free_gpu_memory_fraction", "0"}), InputError);
  EXPECT_THROW(ParseTrtllmArgs({"m", "--kv_cache_free_gpu_memory_fraction", "1.5"}), InputError);
  EXPECT_THROW(ParseTrtllmArgs({"m", "--backend", "onnx"}), InputError);
  EXPECT_THROW(ParseTrtllmArgs({"m", "--max_num_tokens", "900000000000"}), InputError);
  EXPECT_THROW(ParseTrtllmArgs({"m", "--extra_llm_api_options", "/nonexistent/x.yaml"}),
               InputError);
  TrtllmArgs a = ParseTrtllmArgs({"m"});
  EXPECT_THROW(PlanTrtllm("0.8.0", testing::Llama31_8B(), testing::H100(), a, Terms()), InputError);
  EXPECT_THROW(PlanTrtllm("latest", testing::Llama31_8B(), testing::H100(), a, Terms()),
               InputError);
  EXPECT_THROW(TrtllmMeasuredFromGiB({{"peak", 3}}), InputError);
  EXPECT_THROW(ApplyTrtllmYaml("kv_cache_config:\n  free_gpu_memory_fraction: 2\n", "x", &a),
               InputError);
}

TEST(Trtllm, ExtraOptionsFileOverridesFlags) {
  std::string path = ::testing::TempDir() + "kvplan_trtllm_extra.yaml";
  {
    std::ofstream f(path);
    f << "# serving options\nmax_batch_size: 64\nkv_cache_config:\n  dtype: fp8\n"
         "  free_gpu_memory_fraction: 0.8  # leave room\nprint_iter_log: true\n";
  }
  TrtllmArgs a = ParseTrtllmArgs({"serve", "m", "--kv_cache_free_gpu_memory_fraction", "0.95",
                                  "--extra_llm_api_options", path});
  std::remove(path.c_str());
  EXPECT_DOUBLE_EQ(*a.free_gpu_memory_fraction, 0.8);
  EXPECT_EQ(*a.max_batch_size, 64);
  EXPECT_EQ(a.kv_dtype, "fp8");
  ASSERT_EQ(a.ignored_yaml_keys.size(), 1u);
  EXPECT_EQ(a.ignored_yaml_keys[0], "print_iter_log");
}

// Nemotron-3-Nano (tests/data/real/configs/): the KV of its 6 attention layers, 2 B x 6 x
// (128 x 2 // 1) x 2 = 6,144 B per token, and a warning that the state of its 23 Mamba2
// layers is not set aside.
TEST(Trtllm, HybridStateIsNamedAsNotModelled) {
  ModelSpec m =
      LoadModel(testing::RealData("configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"));
  TrtllmArgs a = ParseTrtllmArgs({"trtllm-serve", "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16"});
  PlanResult r = PlanTrtllm("1.0.0", m, testing::H100(), a, Terms());
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.cell_size_bytes, 6144);
  bool named = false;
  for (const std::string& w : r.warnings) named |= w.find("23 mamba") != std::string::npos;
  EXPECT_TRUE(named);
}

}  // namespace
}  // namespace kvplan
