// Real public logs as users paste them (tests/data/real/SOURCES.md): with collector
// prefixes, nested Ray tags, lines wrapped at a terminal's width, bare excerpts. Each
// test checks the figures the log itself prints.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "logs/log_scanner.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

RunRecord OnlyRun(const std::string& name) {
  std::vector<RunRecord> runs = ScanLogFile(kvplan::testing::RealData(name)).runs;
  EXPECT_EQ(runs.size(), 1u) << name;
  return runs.empty() ? RunRecord{} : runs[0];
}

double Fig(const RunRecord& r, const char* key) { return r.Figure(key).value_or(-1); }

TEST(RealPrefixedLogs, ComposeServicePrefixOnAV0Verdict) {
  RunRecord r = OnlyRun("vllm/issue3435_compose_mistral7b_kv_too_small.log");
  EXPECT_EQ(r.engine, "vllm");
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_DOUBLE_EQ(Fig(r, "max_model_len"), 32768);
  EXPECT_DOUBLE_EQ(Fig(r, "max_tokens_in_kv_cache"), 16832);
}

TEST(RealPrefixedLogs, RayWorkerTagNestedInTheEngineCoreTag) {
  RunRecord r = OnlyRun("vllm/issue30017_ray_nested_deepseek_v31.log");
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 26.98);
}

TEST(RealPrefixedLogs, RayWorkersLoadingTheModel) {
  RunRecord r = OnlyRun("vllm/issue16259_ray_workers_model_loading.log");
  EXPECT_DOUBLE_EQ(Fig(r, "weights_gib"), 51.1453);
}

TEST(RealPrefixedLogs, ValueErrorWrappedAtTheTerminalWidthKeepsItsFigures) {
  RunRecord r = OnlyRun("vllm/arc_b70_issue4_wrapped_valueerror.log");
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_DOUBLE_EQ(Fig(r, "max_model_len"), 100000);
  EXPECT_DOUBLE_EQ(Fig(r, "needed_kv_gib"), 4.26);  // "(4.26 GiB KV cach" + "e is needed"
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 4.25);
  EXPECT_NE(r.error.find("4.26 GiB KV cache is needed"), std::string::npos) << r.error;
}

TEST(RealPrefixedLogs, WorkerTp0TagAndAvailableKv) {
  RunRecord r = OnlyRun("vllm/club3090_pr96_worker_tp0_kv.log");
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 10.55);
}

TEST(RealPrefixedLogs, V0WorkerProcessesProfiling) {
  RunRecord r = OnlyRun("vllm/pr14447_v0_workers_profiling.log");
  EXPECT_DOUBLE_EQ(Fig(r, "total_gpu_memory_gib"), 23.58);
  EXPECT_DOUBLE_EQ(Fig(r, "gpu_memory_utilization"), 0.99);
  EXPECT_DOUBLE_EQ(Fig(r, "instance_can_use_gib"), 23.35);
  EXPECT_DOUBLE_EQ(Fig(r, "weights_take_gib"), 21.21);
  EXPECT_DOUBLE_EQ(Fig(r, "non_torch_memory_gib"), 0.20);
  EXPECT_DOUBLE_EQ(Fig(r, "activation_peak_gib"), 0.37);
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 1.57);
}

TEST(RealPrefixedLogs, WorkerKvThenEngineCoreFailed) {
  RunRecord r = OnlyRun("vllm/issue26612_qwen3vl_worker_kv_then_failed.log");
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 13.69);
  EXPECT_EQ(r.outcome, "failed");
}

TEST(RealBareLogs, VllmKvMemoryAndTokens) {
  RunRecord r = OnlyRun("vllm/issue21348_qwen3_235b_tp4_kv.log");
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 8.11);
  EXPECT_DOUBLE_EQ(Fig(r, "gpu_kv_cache_tokens"), 178880);
}

TEST(RealBareLogs, SglangKvAllocated) {
  RunRecord r = OnlyRun("sglang/vllm_issue21348_qwen3_235b_tp4_kv.log");
  EXPECT_EQ(r.engine, "sglang");
  EXPECT_DOUBLE_EQ(Fig(r, "kv_tokens"), 367404);
  EXPECT_DOUBLE_EQ(Fig(r, "k_size_gib"), 8.23);
  EXPECT_DOUBLE_EQ(Fig(r, "v_size_gib"), 8.23);
}

TEST(RealBareLogs, VllmKvTokensConcurrencyAndGraphs) {
  RunRecord r = OnlyRun("vllm/pr19794_sm120_kv_and_graphs.log");
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 26.91);
  EXPECT_DOUBLE_EQ(Fig(r, "gpu_kv_cache_tokens"), 251920);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency_tokens"), 40960);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency"), 6.15);
  EXPECT_DOUBLE_EQ(Fig(r, "cuda_graph_mem_gib"), 0.84);
}

TEST(RealBareLogs, VllmWindowsBuildKvTokens) {
  RunRecord r = OnlyRun("vllm/windows_build_issue4_kv_and_graphs.log");
  EXPECT_DOUBLE_EQ(Fig(r, "gpu_kv_cache_tokens"), 396928);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency_tokens"), 131072);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency"), 3.03);
  EXPECT_DOUBLE_EQ(Fig(r, "cuda_graph_mem_gib"), 0.11);
}

TEST(RealBareLogs, VllmV1BlocksAndWeights) {
  RunRecord r = OnlyRun("vllm/pr12569_v1_blocks_concurrency.log");
  EXPECT_DOUBLE_EQ(Fig(r, "weights_gb"), 67.7229);
  EXPECT_DOUBLE_EQ(Fig(r, "num_gpu_blocks"), 1381);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency"), 10.79);
}

TEST(RealBareLogs, VllmV1KvTokensWithThousands) {
  RunRecord r = OnlyRun("vllm/pr13596_v1_kv_tokens.log");
  EXPECT_DOUBLE_EQ(Fig(r, "gpu_kv_cache_tokens"), 2042016);
  EXPECT_DOUBLE_EQ(Fig(r, "max_concurrency"), 997.08);
}

}  // namespace
}  // namespace kvplan
