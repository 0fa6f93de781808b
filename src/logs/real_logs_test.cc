// Real public logs as users paste them (tests/data/real/SOURCES.md): with collector
// prefixes, nested Ray tags, lines wrapped at a terminal's width, bare excerpts. Each
// test checks the figures the log itself prints.
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "logs/log_scanner.h"
#include "logs/provenance.h"
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

// Pastes of 2025-2026 releases as users brought them (the realogs batch of SOURCES.md).

std::string Rule(const RunRecord& r, const char* key) {
  const LoggedSetting* s = r.FindSetting(key);
  return s == nullptr ? "" : s->rule;
}

TEST(RealUserPastes, VllmStartUpSummaryGivesEveryBudgetTerm_glmv208) {
  // "Actual usage is 50.31 GiB for weight, 5.7 GiB for peak activation, 0.72 GiB for non-torch
  // memory, and 5.97 GiB for CUDAGraph memory. ... Current kv cache memory in use is
  // 15736029798 bytes." after tqdm bars and bare "(Worker_TP0 pid=48394) " lines.
  RunRecord r = OnlyRun("vllm/glmv208_tp4_tqdm_shards_then_free_memory.log");
  EXPECT_DOUBLE_EQ(Fig(r, "weights_gib"), 50.31);
  EXPECT_DOUBLE_EQ(Fig(r, "activation_peak_gib"), 5.7);
  EXPECT_DOUBLE_EQ(Fig(r, "non_torch_memory_gib"), 0.72);
  EXPECT_DOUBLE_EQ(Fig(r, "graph_memory_gib"), 5.97);
  EXPECT_DOUBLE_EQ(Fig(r, "kv_cache_memory_in_use_bytes"), 15736029798);
  // 15736029798 / 2^30 = 14.655 GiB, as vLLM's GiB lines round it.
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 14.66);
}

TEST(RealUserPastes, VllmSummaryWithWeightsAndNonTorchAsOneTerm_club3090_1087) {
  RunRecord r = OnlyRun("vllm/club3090_issue1087_worker_tp_free_memory_consumed.log");
  EXPECT_DOUBLE_EQ(Fig(r, "consumed_memory_gib"), 15.03);
  EXPECT_EQ(Fig(r, "weights_gib"), -1);  // not split: the log prints only the sum
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 12.26);
}

TEST(RealUserPastes, ACutSummaryKeepsTheTermsBeforeTheCut_llmscaler703) {
  // The third rank's line ends at "1.46 GiB for non-torch mem": the first rank's terms stand.
  RunRecord r = OnlyRun("vllm/llmscaler703_xpu_v026_free_memory_third_rank_cut.log");
  EXPECT_DOUBLE_EQ(Fig(r, "weights_gib"), 5.22);
  EXPECT_DOUBLE_EQ(Fig(r, "non_torch_memory_gib"), 1.46);
  EXPECT_DOUBLE_EQ(Fig(r, "available_kv_cache_gib"), 20.76);
}

TEST(RealUserPastes, ElidedTimesAndACutLevelStillRead) {
  // "INFO ... [gpu_worker.py:489] Available KV cache memory: 4.11 GiB"
  RunRecord elided = OnlyRun("vllm/club3090_issue32_elided_timestamps_kv.log");
  EXPECT_DOUBLE_EQ(Fig(elided, "available_kv_cache_gib"), 4.11);
  EXPECT_DOUBLE_EQ(Fig(elided, "gpu_kv_cache_tokens"), 326112);
  // "[kv_cache_utils.py:868] Maximum concurrency for 100,000 tokens per request: 2.31x"
  RunRecord cut = OnlyRun("vllm/issue25350_fp8_kv_len100000.log");
  EXPECT_DOUBLE_EQ(Fig(cut, "max_concurrency_tokens"), 100000);
  ASSERT_NE(cut.FindSetting("max_model_len"), nullptr);
  EXPECT_EQ(cut.FindSetting("max_model_len")->value, "100000");
  EXPECT_NE(Rule(cut, "max_model_len").find("concurrency line"), std::string::npos);
}

TEST(RealUserPastes, EarlyV1EngineCoreExceptionFailsTheLaunch) {
  // "ERROR 03-18 10:25:43 [core.py:337] EngineCore hit an exception: Traceback ...", and the
  // same under Buildkite's "  | [2025-03-10T15:07:20Z] " prefix.
  RunRecord r = OnlyRun("vllm/issue14992_v1_workers_engine_core_hit_exception.log");
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_EQ(r.error, "EngineCore hit an exception");
  EXPECT_FALSE(r.traceback.empty());
  RunRecord ci = OnlyRun("vllm/issue14574_buildkite_pipes_no_available_memory.log");
  EXPECT_EQ(ci.outcome, "failed");
  EXPECT_DOUBLE_EQ(Fig(ci, "weights_gb"), 0.2389);
}

TEST(RealUserPastes, TrtllmExecutorOutOfMemoryWithItsComponentTable) {
  RunRecord r = OnlyRun("trtllm/issue5872_v100rc_tp8_executor_insufficient_memory.log");
  EXPECT_EQ(r.engine, "trtllm");
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_EQ(r.error, "Executor creation failed due to insufficient GPU memory.");
  EXPECT_DOUBLE_EQ(Fig(r, "total_gpu_memory_gib"), 140.06);
  EXPECT_DOUBLE_EQ(Fig(r, "free_at_failure_gib"), 108.86);
  // The model row: 139.55 GiB free before the weights, 110.70 after.
  EXPECT_DOUBLE_EQ(Fig(r, "free_before_model_gib") - Fig(r, "free_after_model_gib"),
                   139.55 - 110.7);
  ASSERT_FALSE(r.notes.empty());
  EXPECT_NE(r.notes.back().find("did not fit: KV cache"), std::string::npos) << r.notes.back();
}

TEST(RealUserPastes, TrtllmPoolBelowOneSequenceFailsTheLaunch_backend366) {
  RunRecord r = OnlyRun("trtllm/tensorrtllm_backend366_bytes_tokens_blocks_per_sequence_error.log");
  EXPECT_EQ(r.outcome, "failed");
  // 29184 tokens < beam 1 x 128 tokens per block x 272 blocks = 34816: the check that fails.
  EXPECT_LT(Fig(r, "max_tokens_in_paged_kv_cache"),
            Fig(r, "tokens_per_block") * Fig(r, "max_blocks_per_sequence"));
}

TEST(RealUserPastes, RankTagsOfAnExcerptGiveALowerBound) {
  // Only TP4, TP5, TP10, TP13 and TP14 print in the excerpt of a TP16 launch.
  RunRecord some = OnlyRun("sglang/pr29853_npu_grok2_tp16_kv_dtype_field.log");
  EXPECT_NE(Rule(some, "tp_size").find("at least"), std::string::npos) << Rule(some, "tp_size");
  EXPECT_NE(Rule(some, "tp_size").find("5 of ranks 0-14"), std::string::npos);
  // TP0 and TP1 both print: the size, not a bound.
  RunRecord all = OnlyRun("sglang/pr12978_tp2_graph_capture_end_tqdm.log");
  EXPECT_EQ(Rule(all, "tp_size").find("at least"), std::string::npos) << Rule(all, "tp_size");
}

TEST(RealUserPastes, RecordsWhoseLineBreaksThePasteLostAreReadOneByOne_aibrix1154) {
  // "> (base) [root@localhost ~]# kubectl logs pod/... INFO 06-09 05:30:55 [**init**.py:239]
  // Automatically detected platform cuda. INFO 06-09 05:30:58 [api_server.py:1043] vLLM API
  // server version 0.8.6.dev0+g4e8c9f5e9.d20250506 INFO 06-09 05:30:58 ..." on one line.
  RunRecord r = OnlyRun("vllm/aibrix1154_quoted_kubectl_records_on_one_line.log");
  EXPECT_EQ(r.engine, "vllm");
  EXPECT_EQ(r.version, "0.8.6.dev0+g4e8c9f5e9.d20250506");
  EXPECT_EQ(r.started_at, "06-09 05:30:58");
  // "args: Namespace(host='0.0.0.0', ..., model='/models/llama3-8b', ..., tokenizer_revision=None,"
  // the paste ends there: the model is read, the cut is said.
  EXPECT_EQ(r.model, "/models/llama3-8b");
  EXPECT_FALSE(r.settings_complete);
  EXPECT_EQ(r.FindSetting("tensor_parallel_size"), nullptr);
  EXPECT_FALSE(r.LoggedTp().has_value()) << "no rank information is not TP 1";
}

TEST(RealUserPastes, ArgsNamespaceGivesTheParsedSettings_ascend244) {
  // vLLM 0.7.1's "args: Namespace(..., model='/workspace/llm_models/Qwen2.5-7B-Instruct/', ...,
  // max_model_len=2048, ..., tensor_parallel_size=1, ..., block_size=None, ...,
  // gpu_memory_utilization=0.5, ..., max_num_seqs=30, ..., enforce_eager=True, ...)".
  RunRecord r = OnlyRun("vllm/ascend244_v071_args_namespace_npu_blocks.log");
  EXPECT_EQ(r.version, "0.7.1");
  EXPECT_EQ(r.model, "/workspace/llm_models/Qwen2.5-7B-Instruct/");
  EXPECT_TRUE(r.settings_complete);
  const std::pair<const char*, const char*> kPrinted[] = {
      {"tensor_parallel_size", "1"},
      {"max_model_len", "2048"},
      {"gpu_memory_utilization", "0.5"},
      {"max_num_seqs", "30"},
      {"enforce_eager", "True"},
      {"kv_cache_dtype", "auto"},
      {"served_model_name", "['deepseek-r1-14b']"}};
  for (const auto& [key, value] : kPrinted) {
    const LoggedSetting* s = r.FindSetting(key);
    ASSERT_NE(s, nullptr) << key;
    EXPECT_EQ(s->value, value) << key;
    // Defaults and flags alike: the Namespace alone cannot say who set it.
    EXPECT_EQ(s->provenance, "unknown") << key;
    EXPECT_EQ(s->rule, kArgsLineRule) << key;
  }
  // None is left for the engine to resolve; <ConfigFormat.AUTO: 'auto'> is no value kvplan uses.
  EXPECT_EQ(r.FindSetting("block_size"), nullptr);
  EXPECT_EQ(r.FindSetting("config_format"), nullptr);
  EXPECT_EQ(r.LoggedTp(), 1);
  // "# CPU blocks: 18111, # CPU blocks: 4681": the platform vLLM did not detect names the NPU's
  // blocks "CPU"; the first count is the device's.
  EXPECT_EQ(Fig(r, "num_gpu_blocks"), 18111);
  EXPECT_EQ(Fig(r, "num_cpu_blocks"), 4681);
}

TEST(RealUserPastes, LaunchFlagsInVllmsOtherSpellings_ascend244) {
  // The command the user pasted below the log: "... -tp 1 ... --max_model_len 2048".
  std::vector<std::string> flags = CommandFlags(
      "ASCEND_RT_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server --model "
      "/workspace/llm_models/Qwen2.5-7B-Instruct/ --served-model-name deepseek-r1-14b "
      "--trust-remote-code --port 11468 -tp 1 --max-num-seqs 30 --gpu-memory-utilization 0.5 "
      "--enforce-eager --max_model_len 2048");
  EXPECT_NE(std::find(flags.begin(), flags.end(), "-tp"), flags.end());
  EXPECT_NE(std::find(flags.begin(), flags.end(), "--max_model_len"), flags.end());
  // vLLM reads "--max_model_len" as "--max-model-len" (FlexibleArgumentParser): the setting is
  // the user's.
  RunRecord r;
  r.engine = "vllm";
  r.launch_command = "vllm serve M -tp 2 --max_model_len 2048";
  r.settings = {{"tensor_parallel_size", "2", "unknown", ""}, {"max_model_len", "2048", "", ""}};
  AssignPrintedProvenance(&r);
  EXPECT_EQ(r.FindSetting("tensor_parallel_size")->provenance, "user");
  EXPECT_EQ(r.FindSetting("max_model_len")->provenance, "user");
}

TEST(RealUserPastes, KvCacheMemoryBytesReservedIsTheKvBudget_issue49878) {
  // vLLM 0.26: "Initial free memory 93.88 GiB, reserved 49.0 GiB memory for KV Cache as
  // specified by kv_cache_memory_bytes config and skipped memory profiling. ...".
  RunRecord r = OnlyRun("vllm/issue49878_v026_gemma4_kv_cache_memory_bytes_reserved.log");
  EXPECT_EQ(Fig(r, "initial_free_memory_gib"), 93.88);
  EXPECT_EQ(Fig(r, "available_kv_cache_gib"), 49.0);
  EXPECT_EQ(r.outcome, "failed");
  EXPECT_FALSE(r.LoggedTp().has_value());
}

TEST(RealUserPastes, CutArgsNamespaceAndTheLaunchCommandsTp_pr7716) {
  // "vllm serve $MODEL --tensor-parallel-size 3", then a Namespace cut at "load_format='a".
  RunRecord r = OnlyRun("vllm/pr7716_v054_tp3_version_and_cut_namespace.log");
  EXPECT_EQ(r.model, "meta-llama/Meta-Llama-3-8B-Instruct");
  EXPECT_FALSE(r.settings_complete);
  ASSERT_NE(r.FindSetting("tensor_parallel_size"), nullptr);
  EXPECT_EQ(r.FindSetting("tensor_parallel_size")->provenance, "user");
  EXPECT_EQ(r.LoggedTp(), 3);
  // On the Namespace, not on the command: argparse's default.
  ASSERT_NE(r.FindSetting("trust_remote_code"), nullptr);
  EXPECT_EQ(r.FindSetting("trust_remote_code")->provenance, "auto");
}

TEST(RealUserPastes, MaxModelLenNotAmongTheLaunchFlagsIsTheDefault_glmv162) {
  // `vllm serve /home/szs/GLM-4.5V-FP8 --tensor-parallel-size 8 ...` (no --max-model-len), then
  // "Using max model len 65536": the model's own length, vLLM's default.
  RunRecord r = OnlyRun("vllm/glmv162_v01011_shell_prompt_serve_tp8.log");
  const LoggedSetting* len = r.FindSetting("max_model_len");
  ASSERT_NE(len, nullptr);
  EXPECT_EQ(len->value, "65536");
  EXPECT_EQ(len->provenance, "auto");
  EXPECT_EQ(r.FindSetting("tensor_parallel_size")->provenance, "user");
}

}  // namespace
}  // namespace kvplan
