// vLLM planner: invariants, era differences and bad input.
#include "engines/vllm/vllm.h"

#include <gtest/gtest.h>

#include <cmath>

#include "base/units.h"
#include "kvplan/error.h"
#include "testing/plan_figures.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

VllmMeasured Weights(double gib) { return VllmMeasuredFromGiB({{"weights", gib}}); }

PlanResult Llama8B(const std::string& version, std::vector<std::string> flags,
                   VllmMeasured m = Weights(14.99)) {
  return PlanVllm(version, testing::Llama31_8B(), testing::H100(), ParseVllmArgs(flags), m);
}

TEST(Vllm, BlocksGrowWithUtilization) {
  for (const char* v : {"0.6.3", "0.8.5", "0.10.1", "0.21.0"}) {
    int64_t prev = -1;
    for (int pct = 40; pct <= 99; ++pct) {
      PlanResult r = Llama8B(
          v, {"--max-model-len", "8192", "--gpu-memory-utilization", std::to_string(pct / 100.0)});
      int64_t blocks = static_cast<int64_t>(testing::PlanFigure(r, "num_gpu_blocks"));
      EXPECT_GE(blocks, prev) << v << " " << pct;
      if (prev > 0) {
        EXPECT_GT(blocks, prev) << v << " " << pct;  // 0.79 GiB more per step
      }
      prev = blocks;
    }
  }
}

TEST(Vllm, TokensAndConcurrencyAsEachEraComputesThem) {
  // 0.8.5 (V1 early): tokens = blocks * 16, concurrency = tokens / max_model_len.
  PlanResult early = Llama8B("0.8.5", {"--max-model-len", "10000"});
  double blocks = testing::PlanFigure(early, "num_gpu_blocks");
  EXPECT_EQ(early.max_total_num_tokens, static_cast<int64_t>(blocks) * 16);
  EXPECT_DOUBLE_EQ(testing::PlanFigure(early, "max_concurrency"), blocks * 16 / 10000);
  // 0.10.1: concurrency = blocks / cdiv(10000, 16) = blocks / 625.
  PlanResult mid = Llama8B("0.10.1", {"--max-model-len", "10000"});
  blocks = testing::PlanFigure(mid, "num_gpu_blocks");
  EXPECT_EQ(mid.max_total_num_tokens, static_cast<int64_t>(blocks) * 16);
  EXPECT_DOUBLE_EQ(testing::PlanFigure(mid, "max_concurrency"), blocks / 625);
  // 0.26+: tokens derived from the concurrency.
  PlanResult late = Llama8B("0.26.0", {"--max-model-len", "10000"});
  EXPECT_EQ(late.max_total_num_tokens,
            static_cast<int64_t>(testing::PlanFigure(late, "max_concurrency") * 10000));
}

TEST(Vllm, HybridTokensCountBlocksPerGroup) {
  VllmArgs a = ParseVllmArgs({"--max-model-len", "32768"});
  VllmMeasured m = VllmMeasuredFromGiB({{"kv_cache", 20}});
  PlanResult r = PlanVllm("0.11.0", testing::GptOss120B(), testing::H100(), a, m);
  ASSERT_TRUE(r.ok) << r.error_message;
  int64_t blocks = static_cast<int64_t>(testing::PlanFigure(r, "num_gpu_blocks"));
  EXPECT_EQ(blocks, (int64_t{20} << 30) / (16 * 2048) / 18);
  EXPECT_EQ(r.max_total_num_tokens, blocks / 2 * 16);  // as if every layer were full
  // Per request: full group cdiv(32768, 16) = 2048 blocks + sliding group
  // cdiv(min(127 + 8192, 32768), 16) + 1 = 521 blocks (8192 batched tokens on H100).
  EXPECT_DOUBLE_EQ(testing::PlanFigure(r, "max_concurrency"),
                   static_cast<double>(blocks) / (2048 + 521));
}

TEST(Vllm, GraphEstimateEraSubtractsCudaGraphs) {
  auto m = VllmMeasuredFromGiB(
      {{"weights", 14.99}, {"activation_peak", 1.2}, {"non_torch", 0.3}, {"cuda_graph", 1.5}});
  // envs.py @v0.20.0 (PR #38284): the estimate is subtracted by default from 0.20.0.
  PlanResult v20 = Llama8B("0.19.0", {"--max-model-len", "8192"}, m);
  PlanResult v21 = Llama8B("0.20.0", {"--max-model-len", "8192"}, m);
  EXPECT_EQ(v20.rest_memory_bytes - v21.rest_memory_bytes, GiBToBytes(1.5));
  // requested 0.9 * 79.19 GiB - 14.99 - 1.2 - 0.3 - 1.5
  EXPECT_NEAR(ToGiB(v21.rest_memory_bytes), 0.9 * 81090.0 / 1024 - 17.99, 1e-6);
  bool info = false;
  for (const std::string& w : v21.warnings) {
    info |= w.rfind("CUDA graph memory profiling is enabled (default since v0.21.0).", 0) == 0;
  }
  EXPECT_TRUE(info);
  PlanResult eager = Llama8B("0.20.0", {"--max-model-len", "8192", "--enforce-eager"}, m);
  EXPECT_EQ(eager.rest_memory_bytes, v20.rest_memory_bytes);
}

TEST(Vllm, EarlyV1CountsOtherProcesses) {
  auto m = VllmMeasuredFromGiB({{"weights", 14.99}, {"pre_load_free", 60}});
  PlanResult early = Llama8B("0.9.1", {"--gpu-memory-utilization", "0.7"}, m);
  PlanResult fixed = Llama8B("0.9.2", {"--gpu-memory-utilization", "0.7"}, m);
  ASSERT_TRUE(fixed.ok) << fixed.error_message;
  // 19.19 GiB held by another process come off the early budget only.
  EXPECT_LT(early.rest_memory_bytes, fixed.rest_memory_bytes - GiBToBytes(19.19));
}

TEST(Vllm, StartupCheckAgainstFreeMemory) {
  auto m = VllmMeasuredFromGiB({{"weights", 14.99}, {"pre_load_free", 60}, {"total", 79.19}});
  PlanResult r = Llama8B("0.10.1", {}, m);
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "Free memory on device (60.0/79.19 GiB) on startup is less than desired GPU memory "
            "utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce GPU memory "
            "used by other processes.");
  // The fix lowers the utilization under the free memory: 60 / 79.19 = 0.757.
  ASSERT_FALSE(r.fixes.empty());
  EXPECT_EQ(r.fixes[0].flag, "--gpu-memory-utilization");
  EXPECT_EQ(r.fixes[0].value, "0.75");
}

TEST(Vllm, KvCacheMemoryReplacesTheBudget) {
  PlanResult r = Llama8B("0.11.0", {"--kv-cache-memory", "4294967296", "--max-model-len", "4096",
                                    "--gpu-memory-utilization", "0.5"});
  EXPECT_EQ(r.rest_memory_bytes, int64_t{4} << 30);
  EXPECT_EQ(testing::PlanFigure(r, "num_gpu_blocks"), (int64_t{4} << 30) / 65536 / 32);
  EXPECT_THROW(Llama8B("0.9.2", {"--kv-cache-memory", "4294967296"}), InputError);
}

TEST(Vllm, FixesAreVerifiedByReplanning) {
  // 131072 tokens need 16 GiB; a 20 GiB budget at 0.5 is short once weights are paid.
  PlanResult r = Llama8B("0.10.1", {"--gpu-memory-utilization", "0.4"});
  ASSERT_FALSE(r.ok);
  ASSERT_FALSE(r.fixes.empty());
  EXPECT_EQ(r.fixes[0].flag, "--gpu-memory-utilization");
  double u = std::stod(r.fixes[0].value);
  EXPECT_TRUE(Llama8B("0.10.1", {"--gpu-memory-utilization", r.fixes[0].value}).ok);
  EXPECT_FALSE(Llama8B("0.10.1", {"--gpu-memory-utilization", std::to_string(u - 0.01)}).ok);
  bool len_fix = false, fp8_fix = false;
  for (const Fix& f : r.fixes) {
    len_fix |= f.flag == "--max-model-len";
    fp8_fix |= f.flag == "--kv-cache-dtype" && f.value == "fp8";
  }
  EXPECT_TRUE(len_fix);
  EXPECT_TRUE(fp8_fix);
}

TEST(Vllm, MtpAddsOneLayerOfKv) {
  ModelSpec v3 = testing::DeepSeekMla("deepseek-v3", 61, 163840);
  v3.num_nextn_predict_layers = 1;
  VllmArgs plain = ParseVllmArgs({"--max-model-len", "4096"});
  VllmArgs mtp = ParseVllmArgs(
      {"--max-model-len", "4096", "--speculative-config", R"({"method":"deepseek_mtp"})"});
  VllmMeasured m = VllmMeasuredFromGiB({{"kv_cache", 10}});
  EXPECT_EQ(PlanVllm("0.10.1", v3, testing::H100(), mtp, m).cell_size_bytes -
                PlanVllm("0.10.1", v3, testing::H100(), plain, m).cell_size_bytes,
            576 * 2);
}

TEST(Vllm, BadInput) {
  EXPECT_THROW(Llama8B("0.4.0", {}), InputError);
  EXPECT_THROW(Llama8B("nightly", {}), InputError);
  EXPECT_THROW(VllmMeasuredFromGiB({{"weightz", 1}}), InputError);
  EXPECT_THROW(VllmMeasuredFromGiB({{"weights", -1}}), InputError);
}

TEST(Vllm, ResultCarriesEngineFields) {
  PlanResult r = Llama8B("", {"--max-model-len", "8192"});
  EXPECT_EQ(r.engine, "vllm");
  EXPECT_EQ(r.engine_version, "0.28.0");
  EXPECT_EQ(r.fraction_name, "gpu_memory_utilization");
  EXPECT_DOUBLE_EQ(r.fraction, 0.9);
  EXPECT_FALSE(r.fraction_user);
  EXPECT_FALSE(r.stages.empty());
  for (const Stage& s : r.stages) EXPECT_FALSE(s.source.empty()) << s.name;
  EXPECT_EQ(r.context_length, 8192);
  EXPECT_EQ(r.max_running_requests, 1024);  // H100: >= 70 GiB, not A100
}

}  // namespace
}  // namespace kvplan
