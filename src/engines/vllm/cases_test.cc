// The public vLLM cases of ../shared/cases/vllm.jsonl, one test (at least) per
// case id; expected values and tolerances are the case's own.
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include <fmt/core.h>

#include "base/units.h"
#include "engines/vllm/vllm.h"
#include "testing/plan_figures.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

using testing::Gpu;

bool HasLog(const PlanResult& r, const std::string& line) {
  for (const Figure& f : r.figures) {
    if (f.key.rfind("log_", 0) == 0 && f.text == line) return true;
  }
  return false;
}

VllmMeasured Measured(std::map<std::string, double> gib) { return VllmMeasuredFromGiB(gib); }

// vllm-v0-rtx3090-llama31-8b-len20000-issue10517: V0 one-line log, peak_torch includes weights.
TEST(VllmCases, V0Rtx3090Llama8BLen20000Issue10517) {
  VllmArgs a =
      ParseVllmArgs({"--model", "meta-llama/Llama-3.1-8B-Instruct", "--max-model-len", "20000"});
  auto m = Measured({{"total", 23.58}, {"peak_torch", 17.06}, {"non_torch", 0.35}});
  PlanResult r = PlanVllm("0.6.3", testing::Llama31_8B(), testing::Rtx3090(), a, m);
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 3.81, 0.01);
  EXPECT_NEAR(testing::PlanFigure(r, "num_gpu_blocks"), 1952, 3);
  EXPECT_NEAR(testing::PlanFigure(r, "max_concurrency"), 1.56, 0.01);
  EXPECT_EQ(r.cell_size_bytes, 131072);  // 2 * 32 * 8 * 128 * 2
  // 4 GiB swap space / 2 MiB blocks.
  EXPECT_EQ(testing::PlanFigure(r, "num_cpu_blocks"), 2048);
  EXPECT_EQ(r.era, "V0 (<0.7, one-line profiling log)");
}

// Same case from scratch except the logged weights (14.9888 GB): the activation
// estimate within 10% of 17.06 - 14.99 = 2.07 GiB, KV tokens within 5% of 1952*16.
TEST(VllmCases, V0Rtx3090Llama8BLen20000Issue10517FromScratch) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "20000"});
  auto m = Measured({{"weights", 14.9888}});
  PlanResult r = PlanVllm("0.6.3", testing::Llama31_8B(), testing::Rtx3090(), a, m);
  EXPECT_NEAR(testing::PlanFigure(r, "activation_peak_gib"), 17.06 - 14.9888, 0.10 * 2.07);
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 1952.0 * 16, 0.05 * 1952 * 16);
}

// vllm-v0-rtx3090-llama31-8b-len29000-issue10517: the V0 max-seq-len failure.
TEST(VllmCases, V0Rtx3090Llama8BLen29000Issue10517) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "29000"});
  auto m = Measured({{"total", 23.58}, {"peak_torch", 17.98}, {"non_torch", 0.35}});
  PlanResult r = PlanVllm("0.6.3", testing::Llama31_8B(), testing::Rtx3090(), a, m);
  EXPECT_FALSE(r.ok);
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 2.89, 0.01);
  double blocks = testing::PlanFigure(r, "num_gpu_blocks");
  EXPECT_NEAR(blocks, 1478, 3);
  // Exact given num_gpu_blocks: max tokens = 16 * blocks.
  EXPECT_EQ(r.error_message,
            "The model's max seq len (29000) is larger than the maximum number of tokens that can "
            "be stored in KV cache (" +
                std::to_string(static_cast<int64_t>(blocks) * 16) +
                "). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
                "initializing the engine.");
  // The fixes re-plan: a higher utilization or a shorter max-model-len starts.
  ASSERT_GE(r.fixes.size(), 2u);
  EXPECT_EQ(r.fixes[0].flag, "--gpu-memory-utilization");
  EXPECT_EQ(r.fixes[1].flag, "--max-model-len");
}

// The activation peak grows with max_model_len in V0 (no chunked prefill):
// 2.99 GiB logged at 29000 tokens (17.98 - 14.99); the estimate within 10%.
TEST(VllmCases, V0Rtx3090Llama8BLen29000Issue10517ActivationEstimate) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "29000"});
  PlanResult r = PlanVllm("0.6.3", testing::Llama31_8B(), testing::Rtx3090(), a,
                          Measured({{"weights", 14.9888}}));
  EXPECT_NEAR(testing::PlanFigure(r, "activation_peak_gib"), 17.98 - 14.9888, 0.10 * 2.99);
}

// vllm-v0-h100-llama32-11b-vision-pr12126: V0 0.7 multi-line log, 40 cached layers.
TEST(VllmCases, V0H100Llama32VisionPr12126) {
  ModelSpec vision =
      testing::Gqa("meta-llama/Llama-3.2-11B-Vision", 40, 32, 8, 128, 4096, 14336, 128256, 131072);
  VllmArgs a = ParseVllmArgs({"--max-model-len", "65536", "--max-num-seqs", "128",
                              "--enforce-eager", "--load-format", "dummy"});
  auto m = Measured(
      {{"total", 79.22}, {"weights", 19.86}, {"non_torch", 0.16}, {"activation_peak", 36.63}});
  PlanResult r = PlanVllm("0.7.0", vision, testing::H100(), a, m);
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_NEAR(testing::PlanFigure(r, "requested_memory_gib"), 71.29, 0.01);
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 14.65, 0.02);
  EXPECT_NEAR(testing::PlanFigure(r, "num_gpu_blocks"), 6001, 5);
  EXPECT_EQ(r.cell_size_bytes * 16, 2621440);  // 40 layers * 16 * 2 * 8 * 128 * 2
  EXPECT_EQ(testing::PlanFigure(r, "num_cpu_blocks"), 1638);
}

// vllm-v1-llama31-70b-w8a8-maxlen2048-pr12569: early V1 (0.7.0, VLLM_USE_V1=1).
TEST(VllmCases, V1EarlyLlama70BW8A8Pr12569) {
  // Parsed at the release it plans: VLLM_USE_V1 is gone from vllm/envs.py by the default one.
  VllmArgs a = ParseVllmArgs({"VLLM_USE_V1=1", "vllm", "serve", "neuralmagic/x", "--max-model-len",
                              "2048", "--gpu-memory-utilization", "0.98"},
                             "0.7.0");
  // Given num_gpu_blocks 1381: the KV budget of exactly 1381 blocks.
  auto m = Measured({{"kv_cache", 1381.0 * 16 * 327680 / kGiB}});
  PlanResult r = PlanVllm("0.7.0", testing::Llama31_70B(), testing::H100(), a, m);
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), 1381);
  EXPECT_NEAR(testing::PlanFigure(r, "max_concurrency"), 10.79, 0.01);
  EXPECT_NEAR(testing::PlanFigure(r, "num_gpu_blocks") * 16 * 327680 / kGiB, 6.74, 0.01);
  EXPECT_TRUE(HasLog(r, "# GPU blocks: 1381"));
  EXPECT_TRUE(HasLog(r, "Maximum concurrency for 2048 tokens per request: 10.79x"));
  EXPECT_EQ(r.era, "V1 early (<=0.9.1, counts other processes)");
}

// vllm-v1-pp2-5070ti-5090d-qwen3-coder-30b-issue34076: 0.15.2 counts all 48
// layers on each PP stage in the start-up check.
TEST(VllmCases, V1Pp2Qwen3Coder30BIssue34076) {
  ModelSpec coder = testing::Qwen3_30B_A3B();
  coder.max_position_embeddings = 262144;
  VllmArgs a =
      ParseVllmArgs({"--model", "Qwen/Qwen3-Coder-30B-A3B-Instruct-FP8", "--pipeline-parallel-size",
                     "2", "--gpu-memory-utilization", "0.9", "--enable-chunked-prefill"});
  PlanResult r = PlanVllm("0.15.2rc1.dev93+g11a4c9d30", coder, Gpu("rtx-5070-ti", 15.47), a,
                          Measured({{"kv_cache", 3.18}}));
  EXPECT_FALSE(r.ok);
  EXPECT_NEAR(testing::PlanFigure(r, "needed_kv_gib"), 24.0, 0.05);
  double est = testing::PlanFigure(r, "estimated_max_model_len");
  EXPECT_NEAR(est, 34736, 64);
  EXPECT_EQ(r.error_message,
            "To serve at least one request with the models's max seq len (262144), (24.0 GiB KV "
            "cache is needed, which is larger than the available KV cache memory (3.18 GiB). Based "
            "on the available memory, the estimated maximum model length is " +
                std::to_string(static_cast<int64_t>(est)) +
                ". Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when "
                "initializing the engine. See "
                "https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more "
                "details.");
}

// vllm-v1-h100-gpt-oss-120b-fail-issue27508: hybrid allocator, sliding layers bounded.
TEST(VllmCases, V1H100GptOss120BIssue27508) {
  VllmArgs a = ParseVllmArgs({"--model", "openai/gpt-oss-120b", "--gpu-memory-utilization", "0.95",
                              "--max-num-batched-tokens", "1024"});
  PlanResult r =
      PlanVllm("0.11.0", testing::GptOss120B(), testing::H100(), a, Measured({{"kv_cache", 1.71}}));
  EXPECT_FALSE(r.ok);
  EXPECT_NEAR(testing::PlanFigure(r, "needed_kv_gib"), 4.54, 0.02);
  EXPECT_EQ(testing::PlanFigure(r, "kv_cache_groups"), 2);  // 18 full + 18 sliding
  EXPECT_NE(r.error_message.find("(4.54 GiB KV cache is needed"), std::string::npos);
}

// vllm-v1-h20-qwen3-coder-480b-fp8-dp8-recipes12: DP replicas keep all KV heads.
TEST(VllmCases, V1H20Qwen3Coder480BDp8Recipes12) {
  ModelSpec coder = testing::Moe(testing::Gqa("Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8", 62, 96, 8,
                                              128, 6144, 8192, 151936, 262144),
                                 160, 8, 2560);
  VllmArgs a = ParseVllmArgs({"/tmp/model/Qwen3-Coder-480B-A35B-Instruct-FP8", "-dp=8",
                              "--enable-expert-parallel", "--enable-auto-tool-choice",
                              "--tool-call-parser", "qwen3_coder"});
  for (auto [avail, util, expected] : {std::tuple{48.66, 0.9, 205728}, {55.65, 0.95, 235296}}) {
    VllmArgs b = a;
    b.gpu_memory_utilization = util;
    PlanResult r = PlanVllm("0.10.1.dev101+gbda9d0535", coder, testing::H20_141(), b,
                            Measured({{"kv_cache", avail}}));
    EXPECT_FALSE(r.ok);
    EXPECT_EQ(r.cell_size_bytes, 253952);
    EXPECT_NEAR(testing::PlanFigure(r, "needed_kv_gib"), 62.0, 0.01);
    EXPECT_NEAR(testing::PlanFigure(r, "estimated_max_model_len"), expected, 16);
    EXPECT_EQ(r.error_message,
              fmt::format("To serve at least one request with the models's max seq len (262144), "
                          "(62.00 GiB KV cache is needed, which is larger than the available KV "
                          "cache memory ({:.2f} GiB). Based on the available memory, the "
                          "estimated maximum model length is {}. Try increasing "
                          "`gpu_memory_utilization` or decreasing `max_model_len` when "
                          "initializing the engine.",
                          avail,
                          static_cast<int64_t>(testing::PlanFigure(r, "estimated_max_model_len"))));
  }
}

// vllm-v1-deepseek-v2-lite-chat-offload-fail-issue15871: MLA latent, 0.8.3 text.
TEST(VllmCases, V1DeepSeekV2LiteIssue15871) {
  VllmArgs a = ParseVllmArgs({"--model", "deepseek-ai/DeepSeek-V2-Lite-Chat", "--max-model-len",
                              "32768", "--cpu-offload-gb", "13", "--enforce-eager"});
  PlanResult r = PlanVllm("0.8.3.dev172+g2b93162f", testing::DeepSeekMla("ds-v2-lite", 27, 163840),
                          testing::H100(), a, Measured({{"kv_cache", 0.93}}));
  EXPECT_FALSE(r.ok);
  EXPECT_NEAR(testing::PlanFigure(r, "needed_kv_gib"), 0.95, 0.005);
  EXPECT_EQ(r.cell_size_bytes, 31104);  // 27 * 576 * 2
  EXPECT_EQ(r.error_message,
            "To serve at least one request with the models's max seq len (32768), (0.95 GiB KV "
            "cache is needed, which is larger than the available KV cache memory (0.93 GiB). Try "
            "increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing "
            "the engine.");
}

// vllm-v0-rtx3090-qwen3-30b-a3b-w4a16-issue17327: V0 0.8.5 per-instance budget.
TEST(VllmCases, V0Rtx3090Qwen3MoeW4A16Issue17327) {
  VllmArgs a = ParseVllmArgs({"VLLM_USE_V1=0", "--model", "nytopop/Qwen3-30B-A3B.w4a16",
                              "--gpu-memory-utilization", "0.9", "--max-num-seqs", "8"},
                             "0.8.5");
  auto m = Measured(
      {{"total", 23.56}, {"weights", 15.6841}, {"non_torch", 0.06}, {"activation_peak", 0.12}});
  PlanResult r = PlanVllm("0.8.5", testing::Qwen3_30B_A3B(), Gpu("rtx-3090", 23.56), a, m);
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_NEAR(testing::PlanFigure(r, "requested_memory_gib"), 21.2, 0.01);
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 5.34, 0.01);
  EXPECT_NEAR(testing::PlanFigure(r, "num_gpu_blocks"), 3645,
              5);  // derived in the case, not logged
  // The two logged lines, word for word.
  EXPECT_TRUE(HasLog(r,
                     "the current vLLM instance can use total_gpu_memory (23.56GiB) x "
                     "gpu_memory_utilization (0.90) = 21.20GiB"));
  EXPECT_TRUE(HasLog(r,
                     "model weights take 15.68GiB; non_torch_memory takes 0.06GiB; PyTorch "
                     "activation peak memory takes 0.12GiB; the rest of the memory reserved for KV "
                     "Cache is 5.34GiB."));
}

// Same case: the activation estimate at the V0 chunked-prefill budget of 2048
// tokens (max_model_len 40960 > 32K) within 10% of the logged 0.12 GiB.
TEST(VllmCases, V0Rtx3090Qwen3MoeW4A16Issue17327ActivationEstimate) {
  VllmArgs a = ParseVllmArgs({"VLLM_USE_V1=0", "--max-num-seqs", "8"}, "0.8.5");
  PlanResult r = PlanVllm("0.8.5", testing::Qwen3_30B_A3B(), Gpu("rtx-3090", 23.56), a,
                          Measured({{"weights", 15.6841}}));
  EXPECT_EQ(testing::PlanFigure(r, "max_num_batched_tokens"), 2048);
  EXPECT_NEAR(testing::PlanFigure(r, "activation_peak_gib"), 0.12, 0.012);
}

// vllm issue 21348 (not in the jsonl): Qwen3-235B-A22B-FP8, 4x H100, ~v0.10:
// "Available KV cache memory: 8.11 GiB" on rank 0, "GPU KV cache size: 178,880 tokens".
TEST(VllmCases, V1H100Qwen3_235BFp8Tp4Issue21348) {
  VllmArgs a =
      ParseVllmArgs({"vllm", "serve", "/path/to/Qwen3-235B-A22B-FP8", "--tensor-parallel-size", "4",
                     "--kv-transfer-config", "{\"kv_connector\":\"LMCacheConnectorV1\"}"});
  PlanResult r = PlanVllm("0.10.0", testing::Qwen3_235B_FP8(), testing::H100(), a,
                          Measured({{"kv_cache", 8.11}}));
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.cell_size_bytes, 48128);  // 94 * 2 * 1 * 128 * 2 (4 KV heads / tp 4)
  // Rank 0's budget overstates the minimum over workers slightly (178,880 tokens).
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 178880, 0.02 * 178880);
  EXPECT_EQ(r.max_total_num_tokens % 16, 0);
}

}  // namespace
}  // namespace kvplan
