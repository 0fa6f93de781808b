// EstimateWeights against exact parameter counts, safetensors sizes, hand
// arithmetic and the weight figures logged in the public cases.
#include "catalog/weights.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "base/units.h"
#include "catalog/quantization.h"
#include "catalog/sharding.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

const WeightPart* FindPart(const WeightEstimate& w, const std::string& name) {
  for (const WeightPart& p : w.parts) {
    if (p.name == name) return &p;
  }
  return nullptr;
}

// A number logged in tests/data/real/cases/<file> for case `id`, at JSON pointer `ptr`.
std::optional<double> Logged(const std::string& file, const std::string& id,
                             const std::string& ptr) {
  std::ifstream in(kvplan::testing::RealData("cases/" + file));
  std::string line;
  while (std::getline(in, line)) {
    nlohmann::json c = nlohmann::json::parse(line, nullptr, false);
    if (c.is_discarded() || c.value("id", "") != id) continue;
    return c.at(nlohmann::json::json_pointer(ptr)).get<double>();
  }
  return std::nullopt;
}

// Exact counts from data/models/SOURCES.md (recomputed there from the configs;
// the 16-bit ones also equal safetensors total_size / 2).
TEST(Weights, ExactParameterCounts) {
  const std::pair<const char*, int64_t> kCounts[] = {
      {"meta-llama/Llama-3.1-8B-Instruct", 8'030'261'248},
      {"meta-llama/Meta-Llama-3.1-70B", 70'553'706'496},
      {"meta-llama/Meta-Llama-3.1-405B", 405'853'388'800},
      {"meta-llama/Llama-3.2-1B", 1'235'814'400},
      {"Qwen/Qwen2.5-7B-Instruct", 7'615'616'512},
      {"Qwen/Qwen2.5-72B", 72'706'203'648},
      {"Qwen/Qwen3-8B", 8'190'735'360},
      {"Qwen/Qwen3-32B", 32'762'123'264},
      {"Qwen/Qwen3-30B-A3B", 30'532'122'624},
      {"Qwen/Qwen3-235B-A22B", 235'093'634'560},
      {"openai/gpt-oss-20b", 20'914'757'184},
      {"openai/gpt-oss-120b", 116'829'156'672},
      {"mistralai/Mistral-7B-Instruct-v0.3", 7'248'023'552},
      {"mistralai/Mixtral-8x7B-v0.1", 46'702'792'704},
      {"google/gemma-2-9b-it", 9'241'705'984},
  };
  for (const auto& [id, params] : kCounts) {
    EXPECT_EQ(EstimateWeights(LoadModel(id), {}).total_params, params) << id;
  }
}

// safetensors total_size figures listed in data/models/SOURCES.md: all bf16.
TEST(Weights, BytesEqualSafetensorsTotalSize) {
  const std::pair<const char*, int64_t> kSizes[] = {
      {"meta-llama/Llama-3.1-8B-Instruct", 16060522496},
      {"meta-llama/Meta-Llama-3.1-70B", 141107412992},
      {"Qwen/Qwen2.5-7B-Instruct", 15231233024},
      {"Qwen/Qwen3-8B", 16381470720},
      {"Qwen/Qwen3-32B", 65524246528},
      {"Qwen/Qwen3-30B-A3B", 61064245248},
      {"mistralai/Mistral-7B-Instruct-v0.3", 14496047104},
      {"mistralai/Mixtral-8x7B-v0.1", 93405585408},
      {"google/gemma-2-9b-it", 18483411968},
  };
  for (const auto& [id, bytes] : kSizes) {
    WeightEstimate w = EstimateWeights(LoadModel(id), {});
    EXPECT_EQ(w.total_bytes, bytes) << id;
    EXPECT_EQ(w.bytes_per_rank, bytes) << id;  // TP1: one rank holds it all
  }
}

TEST(Weights, HeadlineSizesOfLargeModels) {
  // DeepSeek-V3 "671B" main model (the MTP layer is not loaded with it).
  int64_t ds = EstimateWeights(LoadModel("deepseek-ai/DeepSeek-V3"), {}).total_params;
  EXPECT_NEAR(static_cast<double>(ds) / 1e9, 671.0, 0.5);
  int64_t kimi = EstimateWeights(LoadModel("moonshotai/Kimi-K2-Instruct"), {}).total_params;
  EXPECT_NEAR(static_cast<double>(kimi) / 1e12, 1.026, 0.001);
  // Gemma-3-27B: about 27.4B with the vision tower.
  int64_t g3 = EstimateWeights(LoadModel("google/gemma-3-27b-it"), {}).total_params;
  EXPECT_NEAR(static_cast<double>(g3) / 1e9, 27.4, 0.1);
  int64_t next = EstimateWeights(LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"), {}).total_params;
  EXPECT_NEAR(static_cast<double>(next) / 1e9, 80.0, 1.0);
}

// Trap: DeepSeek-V3's first 3 layers have a dense MLP, not experts.
TEST(Weights, DeepseekDenseLayersAreNotCountedAsMoe) {
  WeightEstimate w = EstimateWeights(LoadModel("deepseek-ai/DeepSeek-V3"), {});
  const WeightPart* dense = FindPart(w, "dense mlp");
  const WeightPart* experts = FindPart(w, "experts");
  ASSERT_NE(dense, nullptr);
  ASSERT_NE(experts, nullptr);
  EXPECT_EQ(dense->params, 3LL * 3 * 7168 * 18432);
  EXPECT_EQ(experts->params, 58LL * 256 * 3 * 7168 * 2048);
  WeightEstimate k = EstimateWeights(LoadModel("moonshotai/Kimi-K2-Instruct"), {});
  EXPECT_EQ(FindPart(k, "dense mlp")->params, 1LL * 3 * 7168 * 18432);
  EXPECT_EQ(FindPart(k, "experts")->params, 60LL * 384 * 3 * 7168 * 2048);
}

// Trap: torch_dtype says bfloat16, the fp8 config keeps lm_head (and norms,
// gates) in bf16 while the experts are fp8 with float32 128x128 block scales.
TEST(Weights, Fp8CheckpointKeepsLmHeadInBf16) {
  WeightEstimate w = EstimateWeights(LoadModel("Qwen/Qwen3-235B-A22B-FP8"), {});
  EXPECT_EQ(FindPart(w, "lm_head")->bytes, 151936LL * 4096 * 2);
  EXPECT_EQ(FindPart(w, "embedding")->bytes, 151936LL * 4096 * 2);
  // Per expert: gate+up [3072 x 4096] and down [4096 x 1536], 1 byte each,
  // plus (24*32 + 32*12) float32 scales.
  int64_t per_expert = 3072LL * 4096 + 24 * 32 * 4 + 4096LL * 1536 + 32 * 12 * 4;
  EXPECT_EQ(FindPart(w, "experts")->bytes, 94LL * 128 * per_expert);
  EXPECT_EQ(FindPart(w, "router")->bytes, 94LL * 128 * 4096 * 2);
}

TEST(Weights, GptOssMxfp4ExpertsOnly) {
  WeightEstimate w = EstimateWeights(LoadModel("openai/gpt-oss-20b"), {});
  // Attention stays bf16: q 4096x2880, k/v 512x2880, o 2880x4096, biases, sinks.
  int64_t attn = (4096LL * 2880 * 2 + 2 * 512LL * 2880 + 4096 + 2 * 512 + 2880 + 64) * 2;
  EXPECT_EQ(FindPart(w, "attention")->bytes, 24 * attn);
  // Experts: 4-bit + one byte per 32 values; the biases stay bf16.
  int64_t values = 2 * 2880LL * 2880 + 2880LL * 2880;
  int64_t per_expert = values / 2 + values / 32 + (2 * 2880 + 2880) * 2;
  EXPECT_EQ(FindPart(w, "experts")->bytes, 24LL * 32 * per_expert);
}

TEST(Weights, KvHeadsReplicatedWhenFewerThanTp) {
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");  // 4 KV heads
  Parallelism tp8;
  tp8.tp = 8;
  WeightEstimate w = EstimateWeights(m, tp8);
  // q [4096 x 2048] and o [2048 x 4096] split 8 ways; k and v keep one whole
  // head each [128 x 2048]; q/k norms (2 x 128) replicated.
  int64_t per_layer = (4096LL * 2048 / 8 + 2 * 128LL * 2048 + 2048LL * 4096 / 8 + 256) * 2;
  EXPECT_EQ(FindPart(w, "attention")->bytes_per_rank, 48 * per_layer);
}

// TP 4 with DP attention over 4 ranks and the experts split 4 ways (the layout of
// sglang-qwen3-30b-a3b-dp4-dpattn-pr17392).
Parallelism Dp4AttentionLayout() {
  Parallelism p;
  p.tp = 4;
  p.dp = 4;
  p.ep = 4;
  p.dp_attention = true;
  return p;
}

TEST(Weights, DpAttentionReplicatesAttentionAndEmbedding) {
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");
  Parallelism p = Dp4AttentionLayout();
  WeightEstimate w = EstimateWeights(m, p);
  EXPECT_EQ(FindPart(w, "attention")->bytes_per_rank, FindPart(w, "attention")->bytes);
  EXPECT_EQ(FindPart(w, "embedding")->bytes_per_rank, 151936LL * 2048 * 2);
  EXPECT_EQ(FindPart(w, "lm_head")->bytes_per_rank, 151936LL / 4 * 2048 * 2);
  EXPECT_EQ(FindPart(w, "experts")->bytes_per_rank, FindPart(w, "experts")->bytes / 4);
  p.dp_lm_head = true;
  EXPECT_EQ(FindPart(EstimateWeights(m, p), "lm_head")->bytes_per_rank, 151936LL * 2048 * 2);
}

TEST(Weights, PipelineStagesFollowGetPpIndices) {
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");  // 48 layers
  Parallelism p;
  p.pp = 5;
  WeightEstimate w = EstimateWeights(m, p);
  // 48 // 5 = 9 each; the 3 left over go to the stages before the last.
  std::vector<int> want = {9, 10, 10, 10, 9};
  EXPECT_EQ(w.stage_layers, want);
  p.pp = 2;
  WeightEstimate two = EstimateWeights(m, p);
  EXPECT_EQ(two.stage, 1);  // both 24 layers; the lm_head tips the last one over
  EXPECT_EQ(FindPart(two, "embedding")->bytes_per_rank, 0);
  EXPECT_LT(two.bytes_per_rank, EstimateWeights(m, {}).bytes_per_rank);
}

// Property: more TP never grows a rank, and the ranks together hold at least
// the whole model (replicated parts count once per rank).
TEST(Weights, PerRankShrinksWithTpAndCoversTheModel) {
  for (const std::string& id : CatalogModelIds()) {
    ModelSpec m = LoadModel(id);
    int64_t prev = EstimateWeights(m, {}).bytes_per_rank;
    for (int tp : {2, 4, 8}) {
      Parallelism p;
      p.tp = tp;
      // Only layouts the engine loads (phi-4's 10 KV heads do not split over TP 4).
      if (!ShardingProblems(m, p).empty()) continue;
      WeightEstimate w = EstimateWeights(m, p);
      EXPECT_LE(w.bytes_per_rank, prev) << id << " tp" << tp;
      // Drafts borrow the target's embedding, so no rank holds it.
      int64_t held = w.total_bytes - (m.IsDraft() ? FindPart(w, "embedding")->bytes : 0);
      EXPECT_GE(w.bytes_per_rank * tp, held) << id << " tp" << tp;
      prev = w.bytes_per_rank;
    }
  }
}

// Specs built by hand (as the engine tests do) may leave the per-layer tables
// and the vocabulary empty: the estimate must still be defined.
TEST(Weights, HandBuiltSpecWithoutTables) {
  ModelSpec m;
  m.num_layers = 4;
  m.hidden_size = 64;
  m.num_attention_heads = 4;
  m.num_kv_heads = 2;
  m.head_dim = 16;
  m.intermediate_size = 128;
  m.num_experts = 8;
  m.experts_per_token = 2;
  m.moe_intermediate_size = 32;
  m.first_k_dense_layers = 1;
  WeightEstimate w = EstimateWeights(m, {});
  // 1 dense layer (3 x 64 x 128) and 3 MoE layers (8 x 3 x 64 x 32 + router 8 x 64).
  EXPECT_EQ(FindPart(w, "dense mlp")->params, 3 * 64 * 128);
  EXPECT_EQ(FindPart(w, "experts")->params, 3 * 8 * 3 * 64 * 32);
  EXPECT_EQ(FindPart(w, "embedding"), nullptr);
}

// DeepSeek-V3's MTP head as SGLang loads it for EAGLE speculation: one MoE
// layer + eh_proj + norms; embedding and lm_head come from the target.
TEST(Weights, DeepseekMtpDraft) {
  ModelSpec target = LoadModel("deepseek-ai/DeepSeek-V3");
  ModelSpec mtp = MtpDraftSpec(target);
  EXPECT_EQ(mtp.num_layers, 1);
  EXPECT_TRUE(mtp.layer_is_moe[0]);
  Parallelism p;
  p.tp = 8;
  WeightEstimate w = EstimateWeights(mtp, p);
  EXPECT_EQ(FindPart(w, "experts")->params, 256LL * 3 * 7168 * 2048);
  EXPECT_EQ(FindPart(w, "embedding")->bytes_per_rank, 0);
  EXPECT_EQ(FindPart(w, "lm_head")->bytes_per_rank, 0);
  EXPECT_EQ(FindPart(w, "draft fc")->params, 7168LL * 2 * 7168 + 2 * 7168);
  // One of 61 target layers' worth of per-rank weights, give or take eh_proj.
  WeightEstimate t = EstimateWeights(target, p);
  EXPECT_LT(w.bytes_per_rank, t.bytes_per_rank / 50);
  EXPECT_THROW(MtpDraftSpec(LoadModel("Qwen/Qwen3-8B")), InputError);
}

// MLA without q_lora (DeepSeek-V2-Lite, public config values): 15.7B params.
TEST(Weights, DeepseekV2LiteWithoutQLora) {
  ModelSpec m = ParseModelConfig(R"({"architectures":["DeepseekV2ForCausalLM"],
    "hidden_size":2048,"intermediate_size":10944,"num_hidden_layers":27,"num_attention_heads":16,
    "num_key_value_heads":16,"vocab_size":102400,"kv_lora_rank":512,"q_lora_rank":null,
    "qk_nope_head_dim":128,"qk_rope_head_dim":64,"v_head_dim":128,"n_routed_experts":64,
    "num_experts_per_tok":6,"moe_intermediate_size":1408,"n_shared_experts":2,
    "first_k_dense_replace":1,"moe_layer_freq":1,"topk_method":"greedy",
    "torch_dtype":"bfloat16"})",
                                 "v2-lite");
  EXPECT_EQ(m.q_lora_rank, 0);
  EXPECT_FALSE(m.routing_bias);
  WeightEstimate w = EstimateWeights(m, {});
  EXPECT_NEAR(static_cast<double>(w.total_params) / 1e9, 15.7, 0.05);
  // Per layer: q_proj 3072x2048, kv_a 576x2048, kv_a norm 512, kv_b 4096x512, o 2048x2048.
  int64_t attn = 3072LL * 2048 + 576LL * 2048 + 512 + 4096LL * 512 + 2048LL * 2048;
  EXPECT_EQ(FindPart(w, "attention")->params, 27 * attn);
}

// DeepSeek-V3.2 adds a replicated indexer to every layer's attention.
TEST(Weights, DeepseekV32Indexer) {
  ModelSpec v3 = LoadModel("deepseek-ai/DeepSeek-V3");
  ModelSpec v32 = v3;
  v32.index_head_dim = 128;
  v32.index_n_heads = 64;
  Parallelism p;
  p.tp = 8;
  int64_t a3 = FindPart(EstimateWeights(v3, p), "attention")->params;
  int64_t a32 = FindPart(EstimateWeights(v32, p), "attention")->params;
  // wq_b 8192x1536, wk 128x7168, k_norm weight+bias 256, weights_proj 64x7168.
  EXPECT_EQ(a32 - a3, 61 * (8192LL * 1536 + 128LL * 7168 + 256 + 64LL * 7168));
}

TEST(Weights, ImpossibleParallelismIsInputError) {
  ModelSpec m = LoadModel("Qwen/Qwen3-8B");
  Parallelism p;
  p.tp = 0;
  EXPECT_THROW(EstimateWeights(m, p), InputError);
  p.tp = 4;
  p.dp = 3;
  p.dp_attention = true;
  EXPECT_THROW(EstimateWeights(m, p), InputError);
  Parallelism pp;
  pp.pp = 100;
  EXPECT_THROW(EstimateWeights(m, pp), InputError);
}

// The weight memory the engines report for Qwen2.5-7B-Instruct at TP1: the checkpoint's
// 15,231,233,024 bytes, the caching allocator's rounding of the fused tensors and the rotary
// table (32768 x 128). Allocated view (vLLM): per layer qkv_proj 31.5 MiB (0.5 MiB tail kept),
// o_proj 24.5 MiB (1.5 MiB tail split off), gate_up 259 MiB (1 MiB tail kept), down 129.5 MiB
// (0.5 kept), and 0.5 MiB on each 1039.5 MiB vocabulary table: 28 x 2 + 1 = 57 MiB. vLLM
// 0.19.0 logs 14.25 GiB; this is 14.2487.
TEST(Weights, LoadedBytesAsEachEngineMeasuresThem) {
  ModelSpec m = LoadModel("Qwen/Qwen2.5-7B-Instruct");
  WeightEstimate w = EstimateWeights(m, {});
  EXPECT_EQ(w.slack.allocated, 57 * kMiB);
  EXPECT_EQ(LoadedBytesPerRank(m, w, LoadMeasure::kAllocated, 2),
            15231233024 + 57 * kMiB + 32768LL * 128 * 2);
  // Reserved view (SGLang): every tail counts, o_proj's 1.5 MiB too: 28 x 3.5 + 1 = 99 MiB;
  // SGLang keeps the rotary table in float32.
  EXPECT_EQ(w.slack.reserved, 99 * kMiB);
  EXPECT_EQ(LoadedBytesPerRank(m, w, LoadMeasure::kDeviceFree, 4),
            15231233024 + 99 * kMiB + 32768LL * 128 * 4);
}

// ---- Logged weight memory (GiB) in the public cases. ----

double PerRankGiB(const ModelSpec& m, const Parallelism& p) {
  return ToGiB(EstimateWeights(m, p).bytes_per_rank);
}

// Case sglang-b200-qwen3-32b-tp4-pr22537: "mem usage=15.50 GB" per rank.
TEST(WeightsCases, SglangQwen3_32bTp4) {
  std::optional<double> logged =
      Logged("sglang.jsonl", "sglang-b200-qwen3-32b-tp4-pr22537", "/logged/weights_usage_gib/TP0");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  Parallelism p;
  p.tp = 4;
  EXPECT_NEAR(PerRankGiB(LoadModel("Qwen/Qwen3-32B"), p), *logged, 0.02 * *logged);
}

// Case sglang-48gb-qwen3-14b-xinference3481: TP1, "mem usage=27.57 GB".
// Qwen3-14B is not bundled; the fields are those of its public config.json.
TEST(WeightsCases, SglangQwen3_14bTp1) {
  std::optional<double> logged =
      Logged("sglang.jsonl", "sglang-48gb-qwen3-14b-xinference3481", "/logged/weights_usage_gib");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  ModelSpec m = ParseModelConfig(R"({"architectures":["Qwen3ForCausalLM"],"model_type":"qwen3",
    "hidden_size":5120,"intermediate_size":17408,"num_hidden_layers":40,"num_attention_heads":40,
    "num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":false,
    "max_position_embeddings":40960,"torch_dtype":"bfloat16"})",
                                 "Qwen3-14B");
  EXPECT_EQ(EstimateWeights(m, {}).total_params, 14'768'307'200);
  EXPECT_NEAR(PerRankGiB(m, {}), *logged, 0.02 * *logged);
}

// Case sglang-qwen3-30b-a3b-dp4-dpattn-pr17392: tp4 dp4 dp-attention ep4,
// "mem usage=16.39 GB". SGLang's code keeps the embedding whole under DP
// attention but splits lm_head over all 4 ranks unless --enable-dp-lm-head:
// that gives 15.94 GiB, 2.8% under the log; replicating lm_head too gives
// 16.37 GiB. The log does not show the flag, so both are checked: the
// code-faithful default within 3% and below the log (the allocator's load-time
// slack only adds), --enable-dp-lm-head within 2%.
TEST(WeightsCases, SglangQwen3_30bA3bDpAttention) {
  std::optional<double> logged = Logged("sglang.jsonl", "sglang-qwen3-30b-a3b-dp4-dpattn-pr17392",
                                        "/logged/weights_usage_gib");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");
  Parallelism p = Dp4AttentionLayout();
  double est = PerRankGiB(m, p);
  EXPECT_LT(est, *logged);
  EXPECT_NEAR(est, *logged, 0.03 * *logged);
  p.dp_lm_head = true;
  EXPECT_NEAR(PerRankGiB(m, p), *logged, 0.02 * *logged);
}

// Case sglang-musa-qwen3-0.6b-pr17246: "mem usage=1.57 GB" on a Moore Threads
// card. Qwen3-0.6B (public config: hidden 1024, 28 layers, 16/8 heads,
// head_dim 128, intermediate 3072, tied embeddings) holds 596,049,920 bf16
// parameters (model card: 0.44B non-embedding + 0.16B embedding) = 1.11 GiB.
// The other 0.46 GiB are not weights (the MUSA backend's load-time
// allocations; an untied lm_head copy would explain only 0.29 GiB), so this
// case is outside the 2% target: checked as a bound only.
TEST(WeightsCases, SglangMusaQwen3_0_6bIsBelowTheLoggedUsage) {
  std::optional<double> logged =
      Logged("sglang.jsonl", "sglang-musa-qwen3-0.6b-pr17246", "/logged/weights_usage_gib");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  ModelSpec m = ParseModelConfig(R"({"architectures":["Qwen3ForCausalLM"],"hidden_size":1024,
    "intermediate_size":3072,"num_hidden_layers":28,"num_attention_heads":16,
    "num_key_value_heads":8,"head_dim":128,"vocab_size":151936,"tie_word_embeddings":true,
    "torch_dtype":"bfloat16"})",
                                 "Qwen3-0.6B");
  EXPECT_EQ(EstimateWeights(m, {}).total_params, 596'049'920);
  double est = PerRankGiB(m, {});
  EXPECT_LT(est, *logged);
  EXPECT_GT(est, *logged - 0.5);
}

// Case vllm-v0-rtx3090-llama31-8b-len20000-issue10517: "Loading model weights took 14.9888 GB".
TEST(WeightsCases, VllmLlama31_8b) {
  std::optional<double> logged =
      Logged("vllm.jsonl", "vllm-v0-rtx3090-llama31-8b-len20000-issue10517", "/logged/weights_gb");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  EXPECT_NEAR(PerRankGiB(LoadModel("meta-llama/Llama-3.1-8B-Instruct"), {}), *logged,
              0.02 * *logged);
}

// Case vllm-v1-llama31-70b-w8a8-maxlen2048-pr12569: 67.7229 GiB. The neuralmagic
// w8a8 config is Llama-3.1-70B plus compressed-tensors int8 per-channel weights,
// lm_head ignored.
TEST(WeightsCases, VllmLlama31_70bW8a8) {
  std::optional<double> logged =
      Logged("vllm.jsonl", "vllm-v1-llama31-70b-w8a8-maxlen2048-pr12569", "/logged/weights_gb");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  ModelSpec m = ParseModelConfig(R"({"architectures":["LlamaForCausalLM"],"hidden_size":8192,
    "intermediate_size":28672,"num_hidden_layers":80,"num_attention_heads":64,
    "num_key_value_heads":8,"vocab_size":128256,"torch_dtype":"bfloat16",
    "quantization_config":{"quant_method":"compressed-tensors","format":"int-quantized",
      "config_groups":{"group_0":{"targets":["Linear"],"weights":{"num_bits":8,"type":"int",
        "symmetric":true,"strategy":"channel","group_size":null}}},"ignore":["lm_head"]}})",
                                 "w8a8");
  EXPECT_NEAR(PerRankGiB(m, {}), *logged, 0.02 * *logged);
}

// Case vllm-v0-rtx3090-qwen3-30b-a3b-w4a16-issue17327: 15.6841 GiB, an int4
// (w4a16, group 128) compressed-tensors Qwen3-30B-A3B with lm_head and the
// routers ignored. [assumed scheme: llm-compressor W4A16 preset]
TEST(WeightsCases, VllmQwen3_30bA3bW4a16) {
  std::optional<double> logged =
      Logged("vllm.jsonl", "vllm-v0-rtx3090-qwen3-30b-a3b-w4a16-issue17327", "/logged/weights_gib");
  if (!logged) GTEST_SKIP() << "shared cases not present";
  ModelSpec m = LoadModel("Qwen/Qwen3-30B-A3B");
  m.quant = ParseQuantization(
      nlohmann::json::parse(R"({"quant_method":"compressed-tensors","format":"pack-quantized",
        "config_groups":{"group_0":{"targets":["Linear"],"weights":{"num_bits":4,"type":"int",
        "symmetric":true,"strategy":"group","group_size":128}}},
        "ignore":["lm_head","re:.*mlp.gate$"]})"),
      "w4a16");
  EXPECT_NEAR(PerRankGiB(m, {}), *logged, 0.02 * *logged);
}

}  // namespace
}  // namespace kvplan
