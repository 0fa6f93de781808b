// explain on real logs of hybrid models (tests/data/real/, sources in SOURCES.md): each pool
// the log prints is reported on its own, and neither the SWA pool nor the Mamba state pool is
// taken as the KV size. Also the layout and settings issue 10's last corpus gaps read: vLLM's
// engine config line, NCCL's nranks, the fraction SGLang's memory error names.
#include <string>

#include <gtest/gtest.h>

#include "explain/explain.h"
#include "explain/log_vllm_replan.h"
#include "kvplan/explain.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ExplainResult ExplainHybrid(const std::string& name, const std::string& gpu = "") {
  ExplainRequest request;
  request.log_path = testing::RealData(name);
  request.gpu = gpu;
  return ExplainLog(request);
}

const LoggedSetting* HybridSetting(const ExplainResult& e, const std::string& key) {
  return e.run.FindSetting(key);
}

TEST(HybridPools, MambaStatePoolIsListedBesideTheKvPoolAndNotReplanned_ktransformers1870) {
  // "Mamba Cache is allocated. max_mamba_cache_size: 82, conv_state size: 0.13GB, ssm_state
  // size: 7.29GB" before "KV Cache is allocated. #tokens: 580364, K size: 4.15 GB, V size: 4.15
  // GB".
  ExplainResult e = ExplainHybrid("sglang/ktransformers1870_qwen35_moe_tp2_mamba_pool.log");
  ASSERT_EQ(e.pools.size(), 2u);
  EXPECT_EQ(e.pools[0].kind, "KV");
  EXPECT_EQ(e.pools[0].size, 580364);
  EXPECT_NEAR(*e.pools[0].gib, 8.30, 1e-9);
  EXPECT_EQ(e.pools[1].kind, "Mamba state");
  EXPECT_EQ(e.pools[1].size, 82);
  EXPECT_NEAR(*e.pools[1].gib, 7.42, 1e-9);
  ASSERT_TRUE(e.sglang.has_value());
  EXPECT_NE(e.sglang->unavailable.find("Mamba state pool (82 request slots)"), std::string::npos)
      << e.sglang->unavailable;
  std::string text = RenderExplainText(e);
  EXPECT_NE(text.find("Mamba state              82 request slots   7.42 GiB  conv 0.13 + ssm "
                      "7.29 GiB"),
            std::string::npos)
      << text;
  EXPECT_NE(RenderExplainJson(e).find("\"kind\": \"Mamba state\""), std::string::npos);
}

TEST(HybridPools, TheSwaPoolsKvLineIsNotTheKvSize_pr18039) {
  // "Use sliding window memory pool. full_layer_tokens=375360, swa_layer_tokens=300288", then
  // the SWA pool's "KV Cache is allocated. #tokens: 300288, K size: 8.38 GB, V size: 5.59 GB".
  ExplainResult e = ExplainHybrid("sglang/pr18039_mimo_v2_flash_tp4_swa_pool.log");
  EXPECT_FALSE(e.run.Figure("kv_tokens").has_value());
  EXPECT_EQ(e.run.Figure("swa_kv_tokens"), 300288);
  ASSERT_EQ(e.pools.size(), 2u);
  EXPECT_EQ(e.pools[0].kind, "full-attention KV");
  EXPECT_EQ(e.pools[0].size, 375360);
  EXPECT_FALSE(e.pools[0].gib.has_value());
  EXPECT_EQ(e.pools[1].kind, "sliding-window KV");
  EXPECT_EQ(e.pools[1].size, 300288);
  EXPECT_NEAR(*e.pools[1].gib, 13.97, 1e-9);
}

TEST(HybridPools, APlainLogListsNoPools_xinference3481) {
  EXPECT_TRUE(ExplainHybrid("sglang/xinference3481_qwen3_14b.log").pools.empty());
}

TEST(HybridPools, VllmHybridAttentionBlockSizeIsRead_rocm6055) {
  // "Setting attention block size to 1056 tokens to ensure that attention page size is >= mamba
  // page size." and "Padding mamba page size by 0.76% ...".
  ExplainResult e = ExplainHybrid("vllm/rocm6055_v018_qwen35_moe_hybrid_block_size.log");
  EXPECT_EQ(e.run.Figure("attention_block_size"), 1056);
  EXPECT_EQ(e.run.Figure("mamba_page_padding_pct"), 0.76);
  EXPECT_NE(RenderExplainText(e).find("attention_block_size     1,056"), std::string::npos);
}

TEST(HybridPools, KvBlocksCountInTheHybridBlockSize) {
  RunRecord r;
  r.figures["num_gpu_blocks"] = 100;
  EXPECT_EQ(LoggedKvTokens(r), 1600);  // vLLM's default block of 16 tokens
  r.figures["attention_block_size"] = 1056;
  EXPECT_EQ(LoggedKvTokens(r), 105600);
}

TEST(CorpusGaps, VllmEngineConfigLineGivesTheLayoutAndMaxModelLen_issue14452) {
  ExplainResult e = ExplainHybrid("vllm/issue14452_v0_engine_config_wrapped.log");
  ASSERT_NE(HybridSetting(e, "pipeline_parallel_size"), nullptr);
  EXPECT_EQ(HybridSetting(e, "pipeline_parallel_size")->value, "2");
  EXPECT_EQ(HybridSetting(e, "pipeline_parallel_size")->provenance, "unknown");
  EXPECT_EQ(e.run.SettingNumber("tensor_parallel_size"), 1);
  EXPECT_EQ(e.run.Figure("max_model_len"), 60000);
  EXPECT_EQ(e.run.dtype, "torch.bfloat16");
}

TEST(CorpusGaps, NcclRanksGiveTheTpWhereNoLineCarriesARankTag_issue12664) {
  ExplainResult e = ExplainHybrid("vllm/issue12664_v0_tp2_weights_nccl_hang.log");
  EXPECT_EQ(e.run.nccl_ranks, 2);
  EXPECT_EQ(e.run.nccl_nodes, 1);
  EXPECT_EQ(e.run.tp_from_ranks, 2);
  ASSERT_NE(HybridSetting(e, "tensor_parallel_size"), nullptr);
  EXPECT_EQ(HybridSetting(e, "tensor_parallel_size")->provenance, "derived");
  EXPECT_NE(HybridSetting(e, "tensor_parallel_size")->rule.find("NCCL"), std::string::npos);
}

TEST(CorpusGaps, TheFractionTheErrorNamesIsComparedWithTheDefaultRule_inferencex2128) {
  // "Loaded weights leave no GPU memory for the KV cache under --mem-fraction-static=0.88."
  // after "Load weight end. ... avail mem=12.25 GB, mem usage=125.65 GB": 137.90 GiB fits one
  // catalog capacity, an H200's 143771 MiB, whose default rule gives 0.903 at TP 1.
  ExplainResult plain = ExplainHybrid("sglang/inferencex2128_dsv4_weights_leave_no_kv.log");
  const LoggedSetting* s = HybridSetting(plain, "mem_fraction_static");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->value, "0.88");
  EXPECT_EQ(s->provenance, "user");
  EXPECT_NE(s->rule.find("differs from the default rule"), std::string::npos) << s->rule;
  EXPECT_NE(s->rule.find("143771 MiB (inferred from the load's figures)"), std::string::npos)
      << s->rule;
  // --gpu names the capacity: no inference.
  ExplainResult h200 = ExplainHybrid("sglang/inferencex2128_dsv4_weights_leave_no_kv.log", "H200");
  EXPECT_EQ(HybridSetting(h200, "mem_fraction_static")->provenance, "user");
  EXPECT_EQ(HybridSetting(h200, "mem_fraction_static")->rule.find("inferred"), std::string::npos);
  // No load figures and no GPU (Ascend): the setting stays unknown.
  ExplainResult ascend =
      ExplainHybrid("sglang/gpustack3831_ascend_not_enough_memory_current_value.log");
  EXPECT_EQ(HybridSetting(ascend, "mem_fraction_static")->provenance, "unknown");
}

}  // namespace
}  // namespace kvplan
