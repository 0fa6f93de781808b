// explain on real logs (tests/data/real/, sources in SOURCES.md) for what issue 10 asks
// beyond the re-plan: TensorRT-LLM's KV figures, a failed vLLM launch's fixes in the
// direction that helps, and where an incomplete log stops.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "explain/explain.h"
#include "kvplan/explain.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ExplainResult ExplainReal(const std::string& name, const std::string& gpu = "") {
  ExplainRequest request;
  request.log_path = testing::RealData(name);
  request.gpu = gpu;
  return ExplainLog(request);
}

const Fix* FixFor(const std::vector<Fix>& fixes, const std::string& flag) {
  for (const Fix& f : fixes) {
    if (f.flag == flag) return &f;
  }
  return nullptr;
}

TEST(RealExplain, TrtllmShowsEveryFigureAndChecksTheBlocks_triton150) {
  // "Max KV cache blocks per sequence: 65 [window size=2051], tokens per block=32, primary
  // blocks=116617, ..." and "Allocated 78.30 GiB for max tokens in paged KV cache (3731744)".
  ExplainResult e = ExplainReal("trtllm/triton_tutorials150_paged_kv_allocated.log");
  ASSERT_TRUE(e.trtllm.has_value());
  const TrtllmExplain& t = *e.trtllm;
  EXPECT_EQ(t.figures.size(), 7u);
  EXPECT_EQ(t.logged_tokens, 3731744);
  EXPECT_EQ(t.block_tokens, 116617 * 32);
  // 78.30 GiB / 3,731,744 tokens.
  EXPECT_EQ(t.bytes_per_token, 22529);
  EXPECT_NE(t.unavailable.find("free memory at KV sizing"), std::string::npos) << t.unavailable;
  EXPECT_NE(t.unavailable.find("--kv_cache_free_gpu_memory_fraction"), std::string::npos);
  std::string text = RenderExplainText(e);
  EXPECT_NE(text.find("max_tokens_in_paged_kv_cache 3,731,744"), std::string::npos) << text;
  EXPECT_NE(text.find("= 3,731,744 tokens: the logged max tokens"), std::string::npos) << text;
}

TEST(RealExplain, TrtllmAllocationsAndV08BytesAreShown) {
  ExplainResult a = ExplainReal("trtllm/issue1188_prefixes_stripped_paged_kv.log");
  ASSERT_TRUE(a.trtllm.has_value());
  std::string text = RenderExplainText(a);
  for (const char* key : {"engine_size_mib", "execution_context_mib", "runtime_buffers_gb",
                          "decoder_gb", "trt_managed_gpu_mib", "kv_cache_gib"}) {
    EXPECT_NE(text.find(key), std::string::npos) << key << "\n" << text;
  }
  // "Allocate 69524783104 bytes for k/v cache" / "Using 132608 tokens": 512 KiB per token,
  // a 7B Llama's 32 layers x 32 heads x 128 x 2 (K, V) x 2 bytes.
  ExplainResult b = ExplainReal("trtllm/issue1400_v08_kv_bytes_and_tokens.log");
  ASSERT_TRUE(b.trtllm.has_value());
  EXPECT_EQ(b.trtllm->bytes_per_token, 524288);
  ExplainResult c = ExplainReal("trtllm/tensorrtllm_backend396_mpi4_engine_size.log");
  ASSERT_TRUE(c.trtllm.has_value());
  EXPECT_NE(c.trtllm->unavailable.find("no KV-cache line"), std::string::npos);
}

TEST(RealExplain, TrtllmReplansFromTheFreeMemoryAtKvSizing_docsMemoryMd) {
  // "Memory usage when calculating max tokens in paged kv cache: total: 79.10 GiB, available:
  // 70.48 GiB", "Number of blocks in KV cache primary pool: 4060", 64 tokens per block,
  // "Allocated 63.44 GiB for max tokens in paged KV cache (259840)": 70.48 x 0.9 = 63.43.
  ExplainResult e = ExplainReal("trtllm/docs_memory_md_info_log_free_at_kv_sizing.log");
  ASSERT_TRUE(e.trtllm.has_value());
  const TrtllmExplain& t = *e.trtllm;
  ASSERT_TRUE(t.unavailable.empty()) << t.unavailable;
  EXPECT_DOUBLE_EQ(t.free_gib, 70.48);
  EXPECT_EQ(t.block_tokens, 259840);
  EXPECT_NEAR(t.kv_gib, 70.48 * 0.9, 0.001);
  ASSERT_TRUE(t.tokens.has_value());
  EXPECT_LE(std::fabs(t.relative), 0.005);
  EXPECT_EQ(t.tokens, 259840);
  EXPECT_NE(RenderExplainText(e).find("check: the budget rule matches the logged tokens"),
            std::string::npos);
}

TEST(RealExplain, KvTooSmallGetsFixesThatHelp_issue44376) {
  // "(6.66 GiB KV cache is needed, which is larger than the available KV cache memory
  // (5.44 GiB). ... the estimated maximum model length is 13528."
  ExplainResult e = ExplainReal("vllm/issue44376_gh200_tp2_kv_too_small_cpu_note.log", "h100-sxm");
  ASSERT_TRUE(e.vllm.has_value());
  const std::vector<Fix>& fixes = e.vllm->fixes;
  EXPECT_EQ(e.vllm->fixes_from, "the error's figures");
  const Fix* len = FixFor(fixes, "--max-model-len");
  ASSERT_NE(len, nullptr);
  EXPECT_EQ(len->value, "13528");
  const Fix* util = FixFor(fixes, "--gpu-memory-utilization");
  ASSERT_NE(util, nullptr);
  // More utilization, never less: 0.9 + 1.22 GiB / the memory --gpu gives, rounded up.
  EXPECT_GT(std::stod(util->value), 0.9) << util->effect;
  const Fix* tp = FixFor(fixes, "--tensor-parallel-size");
  ASSERT_NE(tp, nullptr);
  EXPECT_NE(tp->effect.find("3.33 GiB"), std::string::npos) << tp->effect;
}

TEST(RealExplain, AWrappedValueErrorKeepsItsFigures_arcB70) {
  // The ValueError is wrapped by the terminal mid-word ("KV cach" / "e is needed").
  ExplainResult e = ExplainReal("vllm/arc_b70_issue4_wrapped_valueerror.log");
  ASSERT_TRUE(e.vllm.has_value());
  EXPECT_EQ(e.run.Figure("needed_kv_gib"), 4.26);
  EXPECT_EQ(e.run.Figure("available_kv_cache_gib"), 4.25);
  const Fix* len = FixFor(e.vllm->fixes, "--max-model-len");
  ASSERT_NE(len, nullptr);
  // 100,000 x 4.25 / 4.26 in blocks of 16.
  EXPECT_EQ(len->value, "99760");
}

TEST(RealExplain, AFailedV0LaunchReplansToMoreUtilization_issue10517) {
  ExplainResult e = ExplainReal("vllm/issue10517_v0_rtx3090_len29000_failed.log");
  ASSERT_TRUE(e.vllm.has_value());
  EXPECT_EQ(e.vllm->fixes_from, "re-plan");
  const Fix* util = FixFor(e.vllm->fixes, "--gpu-memory-utilization");
  ASSERT_NE(util, nullptr);
  EXPECT_GT(std::stod(util->value), 0.9);
}

TEST(RealExplain, AnIncompleteLogSaysWhereItStops) {
  // pr4826 ends after "Capture cuda graph begin": no end line.
  ExplainResult e = ExplainReal("sglang/pr4826_gemma3_kv_and_capture.log");
  EXPECT_EQ(e.stops, "the log stops during CUDA-graph capture");
  EXPECT_NE(RenderExplainText(e).find("incomplete (the log stops during CUDA-graph capture)"),
            std::string::npos);
  ExplainResult w = ExplainReal("sglang/issue3219_rocm_mi300x_dsv3_tp8_load_end.log");
  EXPECT_EQ(w.stops, "the log stops after loading the weights, before the KV cache");
}

TEST(RealExplain, VllmStartUpSummaryReplansTheBudget_club3090_1087) {
  // 0.92 x 31.4 = 28.89 GiB requested; 28.89 - 15.03 (weights + non-torch, one term) - 1.59
  // peak activation = 12.27 GiB against the logged 12.26; the start-up check uses the logged
  // free memory (30.27 GiB), not an estimate.
  std::string text =
      RenderExplainText(ExplainReal("vllm/club3090_issue1087_worker_tp_free_memory_consumed.log"));
  EXPECT_NE(text.find("=> kv = 12.27 GiB (logged 12.26)"), std::string::npos) << text;
  EXPECT_NE(text.find("free at start-up 30.27 GiB (measured)"), std::string::npos) << text;
  EXPECT_NE(text.find("weights and non-torch memory as one term"), std::string::npos) << text;
  EXPECT_EQ(text.find("holds no profiling breakdown"), std::string::npos) << text;
}

TEST(RealExplain, TrtllmExecutorOutOfMemoryShowsItsFiguresAndWhyNoPool_mlcommons2501) {
  ExplainResult e = ExplainReal("trtllm/mlcommons2501_gptoss_executor_insufficient_memory.log");
  ASSERT_TRUE(e.trtllm.has_value());
  // Total 276.50, the model row 274.64 / 208.12, 200.47 free before the KV cache.
  EXPECT_EQ(e.trtllm->figures.size(), 4u);
  EXPECT_NE(e.trtllm->unavailable.find("failed for memory before the pool was allocated"),
            std::string::npos)
      << e.trtllm->unavailable;
}

}  // namespace
}  // namespace kvplan
