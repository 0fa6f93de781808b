// The SGLang planner against the public cases in ../shared/cases/sglang.jsonl
// (each test names its case id) and the project's story. Expected values are
// the logged figures or hand arithmetic in the comments, never kvplan output.
#include <cmath>

#include <gtest/gtest.h>

#include "base/units.h"
#include "engines/sglang/sglang.h"
#include "kvplan/error.h"
#include "testing/sglang_test_models.h"

namespace kvplan {
namespace {

using namespace kvplan::testing;

double Fig(const PlanResult& r, const char* key) {
  const Figure* f = r.FindFigure(key);
  EXPECT_NE(f, nullptr) << key;
  return f ? f->value : NAN;
}

// The same launch with the pool held at the log's #tokens (--max-total-tokens,
// on a GPU whose whole memory is free), so that the planner's "K size" / "KV
// size" figures are its own rule applied to the engine's token count and can
// be checked against the size the log prints.
PlanResult PlanAtLoggedTokens(const char* version, const ModelSpec& m, const GpuSpec& gpu,
                              SglangArgs a, int64_t logged_tokens) {
  a.max_total_tokens = logged_tokens;
  const double free_gib = ToGiB(gpu.total_bytes);
  PlanResult r = PlanSglang(version, m, gpu, a, Measured(free_gib, free_gib));
  EXPECT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.max_total_num_tokens, logged_tokens);
  return r;
}

// Case sglang-b200-qwen3-32b-tp4-pr22537: B200 TP4, pre 176.28, post 160.78,
// mfs 0.852, page 64 (trtllm_mha). Logged 2,206,208 tokens, K size 67.33 GB.
TEST(SglangCases, B200Qwen3_32B_Tp4_pr22537) {
  SglangArgs a;
  a.tp = 4;
  a.mem_fraction_static = 0.852;
  a.page_size = 64;
  PlanResult r = PlanSglang("0.5.10", Qwen3_32B(), B200(), a, Measured(176.28, 160.78));
  ASSERT_TRUE(r.ok) << r.error_message;
  EXPECT_EQ(r.cell_size_bytes, 2 * 128 * 64 * 2 * 2);  // 2 heads/rank * (128+128) * 64 layers * 2 B
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 2206208, 0.001 * 2206208);
  EXPECT_EQ(r.max_total_num_tokens % 64, 0);
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.5.10", Qwen3_32B(), B200(), a, 2206208), "k_size_gib"),
              67.33, 0.005);
}

// Same case: the 2026 default rule for a B200 (183,359 MiB assumed) at TP4
// with piecewise prefill graphs: reserved = 512 + 16384*1.5 + 4/8*1024 +
// 512*2 + 74*8 = 27216 MiB -> round((183359 - 27216) / 183359, 3) = 0.852.
TEST(SglangCases, B200DefaultFraction2026_pr22537) {
  SglangArgs a;
  a.tp = 4;
  PlanResult r = PlanSglang("0.5.10", Qwen3_32B(), B200(), a, Measured(176.28, 160.78));
  EXPECT_NEAR(r.fraction, 0.852, 0.0005);
  EXPECT_FALSE(r.fraction_user);
  EXPECT_EQ(Fig(r, "chunked_prefill_size"), 16384);
  EXPECT_EQ(Fig(r, "cuda_graph_max_bs"), 512);
}

// Case sglang-qwen3-30b-a3b-dp4-dpattn-pr17392: TP4 DP4 with DP attention
// keeps all 4 KV heads per rank: cell = 4*128*48*2*2 = 98304 B. Pre 138.29,
// post 121.90, mfs 0.80: logged 1,029,388 tokens, K size 47.12 GB.
TEST(SglangCases, DpAttentionKeepsAllHeads_pr17392) {
  SglangArgs a;
  a.tp = 4;
  a.dp = 4;
  a.ep = 4;
  a.enable_dp_attention = true;
  a.mem_fraction_static = 0.80;
  PlanResult r = PlanSglang("0.5.12", Qwen3_30B_A3B(), H200(), a, Measured(138.29, 121.90));
  ASSERT_TRUE(r.ok);
  EXPECT_EQ(r.cell_size_bytes, 98304);
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 1029388, 0.001 * 1029388);
  EXPECT_NEAR(Fig(r, "k_size_gib"), 47.12, 0.01);
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.5.12", Qwen3_30B_A3B(), H200(), a, 1029388), "k_size_gib"),
              47.12, 0.005);
}

// --enable-dp-lm-head (server_args.py 0.4.9+) keeps the whole lm_head on each rank of an
// attention-TP group of 1 instead of a quarter of it: with only the pre-load free memory
// measured, the weights grow by 3/4 of Qwen3-30B-A3B's 151936 x 2048 bf16 lm_head
// (622,329,856 B); the allocator rounds each of the two tensors up to 2 MiB (297 and 75
// segments of 2 MiB), so 465,567,744 B more, 4,736 cells of 98,304 B fewer.
TEST(SglangCases, DpLmHeadKeepsTheWholeLmHeadPerRank) {
  SglangArgs a = ParseSglangArgs({"--tp", "4", "--dp", "4", "--ep", "4", "--enable-dp-attention",
                                  "--mem-fraction-static", "0.80"});
  SglangArgs b = ParseSglangArgs({"--tp", "4", "--dp", "4", "--ep", "4", "--enable-dp-attention",
                                  "--mem-fraction-static", "0.80", "--enable-dp-lm-head"});
  EXPECT_FALSE(a.enable_dp_lm_head);
  EXPECT_TRUE(b.enable_dp_lm_head);
  SglangMeasured pre_only;
  pre_only.pre_load_free_bytes = GiBToBytes(138.29);
  PlanResult ra = PlanSglang("0.5.12", Qwen3_30B_A3B(), H200(), a, pre_only);
  PlanResult rb = PlanSglang("0.5.12", Qwen3_30B_A3B(), H200(), b, pre_only);
  ASSERT_TRUE(ra.ok && rb.ok);
  EXPECT_NEAR(static_cast<double>(ra.max_total_num_tokens - rb.max_total_num_tokens), 4736, 2);
}

// Case sglang-b200-28layer-gqa-graphmem-pr11830: K size of a 28-layer, 4-KV-head
// model (Qwen2.5-7B class) at 2,243,474 tokens is 59.91 GB:
// (2243474 + 1) * 4 * 128 * 28 * 2 / 2^30.
TEST(SglangCases, KSizeFormula_pr11830) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  const PlanResult r =
      PlanAtLoggedTokens("0.5.6", LoadModel("Qwen/Qwen2.5-7B-Instruct"), B200(), a, 2243474);
  EXPECT_EQ(r.cell_size_bytes, 57344);
  EXPECT_NEAR(Fig(r, "k_size_gib"), 59.91, 0.005);
}

// Case sglang-gemma3-4b-windows-mfs065-pr4840: before the hybrid SWA pool all
// 34 layers are sized as full attention: (46045+1)*4*256*34*2/2^30 = 2.99.
TEST(SglangCases, SlidingWindowSizedAsFullBeforeHybridPool_pr4840) {
  ModelSpec m = Gqa("google/gemma-3-4b-it", 34, 8, 4, 256, 2560, 131072);
  for (int i = 0; i < 34; ++i) {
    m.layer_kinds[static_cast<size_t>(i)] = (i % 6 == 5) ? LayerKind::kFull : LayerKind::kSliding;
  }
  SglangArgs a;
  a.mem_fraction_static = 0.65;
  PlanResult r = PlanSglang("0.4.6", m, L40S(), a, Measured(40.0, 30.0));
  EXPECT_EQ(r.cell_size_bytes, 4 * 256 * 2 * 34 * 2);
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.4.6", m, L40S(), a, 46045), "k_size_gib"), 2.99, 0.005);
}

// Cases sglang-b200-dsv32-nsa-dpattn-pr11309-with-indexer and -main: MLA with
// the fp8 NSA layout is 656 B per layer, not divided by TP/DP; from #11309 the
// indexer's 132 B per layer is in the cell: 61 * 788 = 48068 B per token.
TEST(SglangCases, DeepSeekV32IndexerInCell_pr11309) {
  SglangArgs a;
  a.tp = 8;
  a.dp = 8;
  a.enable_dp_attention = true;
  a.kv_cache_dtype = "fp8_e4m3";
  a.mem_fraction_static = 0.8;
  a.page_size = 64;
  PlanResult with = PlanSglang("0.5.4", DeepSeekV32(), B200(), a, Measured(176.0, 100.0));
  EXPECT_EQ(with.cell_size_bytes, 48068);
  // (975424 + 64) * 48068 / 2^30 = 43.67, the logged KV size.
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.5.4", DeepSeekV32(), B200(), a, 975424), "kv_size_gib"),
              43.67, 0.005);
  PlanResult before = PlanSglang("0.5.3", DeepSeekV32(), B200(), a, Measured(176.0, 100.0));
  EXPECT_EQ(before.cell_size_bytes, 61 * 656);
  // (1462784 + 64) * 61 * 656 / 2^30 = 54.52, the logged KV size.
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.5.3", DeepSeekV32(), B200(), a, 1462784), "kv_size_gib"),
              54.52, 0.005);
}

// Case sglang-l40s-llama31-8b-default-mfs-pr13023: L40S (46,068 MiB), v0.5.5
// defaults: chunked 4096, cuda_graph_max_bs 32, reserved = 512 + 4096*1.5 +
// 32*2 + 1/8*1024 = 6848 -> round((46068-6848)/46068, 3) = 0.851.
TEST(SglangCases, L40SDefaults_pr13023) {
  SglangArgs a;
  PlanResult r = PlanSglang("0.5.5", Llama31_8B(), L40S(), a, SglangMeasured{});
  EXPECT_NEAR(r.fraction, 0.851, 0.0005);
  EXPECT_EQ(Fig(r, "cuda_graph_max_bs"), 32);
  EXPECT_EQ(Fig(r, "chunked_prefill_size"), 4096);
}

// Case sglang-musa-qwen3-0.6b-pr17246 (Jan 2026, before piecewise graphs were
// on by default): capacity 81,920 MiB assumed -> reserved = 512 + 8192*1.5 +
// 256*2 + 1/8*1024 = 13440 -> 0.836. Pre 79.26, post 77.69: logged 605,665
// tokens, K size 32.35, max_running_requests 4096 at context 40960.
TEST(SglangCases, MusaQwen3_0_6B_pr17246) {
  SglangArgs a;
  SglangMeasured m = Measured(79.26, 77.69);
  m.gpu_capacity_mib = 81920;
  PlanResult r = PlanSglang("0.5.7", Qwen3_0_6B(), H100(), a, m);
  ASSERT_TRUE(r.ok);
  EXPECT_NEAR(r.fraction, 0.836, 0.0005);
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 605665, 0.001 * 605665);
  EXPECT_EQ(r.max_running_requests, 4096);
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.5.7", Qwen3_0_6B(), H100(), a, 605665), "k_size_gib"),
              32.35, 0.005);
}

// Case sglang-48gb-qwen3-14b-xinference3481 (v0.4.6): a 48 GB card, tp 1 ->
// table value 0.88. Pre 47.24, post 19.67: logged 91,749 tokens, K 7.00 GB,
// capture list up to 160.
TEST(SglangCases, V046Qwen3_14B_xinference3481) {
  SglangArgs a;
  SglangMeasured m = Measured(47.24, 19.67);
  m.gpu_capacity_mib = 49140;
  PlanResult r = PlanSglang("0.4.6", Qwen3_14B(), L40S(), a, m);
  ASSERT_TRUE(r.ok);
  EXPECT_DOUBLE_EQ(r.fraction, 0.88);
  EXPECT_NEAR(static_cast<double>(r.max_total_num_tokens), 91749, 0.001 * 91749);
  EXPECT_NEAR(Fig(PlanAtLoggedTokens("0.4.6", Qwen3_14B(), L40S(), a, 91749), "k_size_gib"), 7.00,
              0.005);
  EXPECT_EQ(Fig(r, "cuda_graph_max_bs"), 160);
}

// The story: TP8 on 8x RTX PRO 6000, pre 93.999 GiB, post 21.697 GiB.
// --mem-fraction-static 0.55: slack 93.999*0.45 = 42.300, rest -20.603 GiB,
// the launch fails with the engine's message.
TEST(SglangStory, Fraction055Fails) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.55;
  a.cuda_graph_max_bs = 128;
  PlanResult r = PlanSglang("0.5.6", DeepSeekV3(), RtxPro6000(), a, Measured(93.999, 21.697));
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "Not enough memory. Please try to increase --mem-fraction-static. Current value: "
            "self.server_args.mem_fraction_static=0.55");
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), -20.603, 0.0005);
  bool minimum = false;
  for (const Fix& f : r.fixes) {
    if (f.flag == "--mem-fraction-static" && f.value == "0.770") minimum = true;
  }
  // 1 - 21.697/93.999 = 0.76918 -> 0.770 is the smallest three-decimal value that starts.
  EXPECT_TRUE(minimum);
}

// The story's working run: SGLang chose 0.88 itself, which leaves
// 21.697 - 93.999*0.12 = 10.417 GiB; MLA cell 576 * 61 * 2 = 70272 B.
TEST(SglangStory, Fraction088Leaves10_417GiB) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.88;
  PlanResult r = PlanSglang("0.5.6", DeepSeekV3(), RtxPro6000(), a, Measured(93.999, 21.697));
  ASSERT_TRUE(r.ok);
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 10.417, 0.0005);
  EXPECT_EQ(r.cell_size_bytes, 70272);
  EXPECT_EQ(r.max_total_num_tokens, static_cast<int64_t>(10.41712 * (1 << 30)) / 70272);
}

// Newest rules (#28855): rest_memory <= 0 is a ValueError naming the minimum;
// the suggestion is math.ceil(minimum * 1000) / 1000 (kv_cache_configurator.py).
TEST(SglangStory, NewestEraRaisesTheValueError) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.55;
  PlanResult r = PlanSglang("main", DeepSeekV3(), RtxPro6000(), a, Measured(93.999, 21.697));
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.error_message.find("Loaded weights leave no GPU memory for the KV cache under "
                                 "--mem-fraction-static=0.55. Raise --mem-fraction-static above "
                                 "0.770 (minimum viable = 1 - available/pre = 0.7692)"),
            std::string::npos)
      << r.error_message;
}

// Trap: a fraction of free memory taken where the engine takes it of the
// pre-load free memory (or of total). SGLang's slack is pre * (1 - mfs).
TEST(SglangTraps, FractionIsOfPreLoadFreeNotTotal) {
  SglangArgs a;
  a.mem_fraction_static = 0.9;
  PlanResult r = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(70.0, 55.0));
  // rest = 55 - 70 * 0.1 = 48 GiB, not 55 - 79.19 * 0.1.
  EXPECT_NEAR(ToGiB(r.rest_memory_bytes), 48.0, 1e-6);
}

// Trap: an fp8 checkpoint keeps a bf16 KV cache unless --kv-cache-dtype says otherwise.
TEST(SglangTraps, Fp8CheckpointKeepsBf16Cache) {
  ModelSpec m = Qwen3_32B();
  m.quant.method = "fp8";
  m.quant.weight_bits = 8;
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  PlanResult r = PlanSglang("main", m, H100(), a, Measured(78.0, 45.0));
  EXPECT_EQ(r.cell_size_bytes, 8 * 256 * 64 * 2);
  a.kv_cache_dtype = "fp8_e4m3";
  EXPECT_EQ(PlanSglang("main", m, H100(), a, Measured(78.0, 45.0)).cell_size_bytes, 8 * 256 * 64);
}

// Trap: per-GPU and whole-node figures mixed at high TP. GQA heads split over
// TP (8 heads / TP8 = 1 per rank); MLA's latent is held whole on every rank.
TEST(SglangTraps, CellIsPerRank) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.85;
  PlanResult gqa = PlanSglang("main", Qwen3_32B(), H100(), a, Measured(78.0, 60.0));
  EXPECT_EQ(gqa.cell_size_bytes * 8, 8 * 256 * 64 * 2);
  PlanResult mla = PlanSglang("main", DeepSeekV3(), H100(), a, Measured(78.0, 60.0));
  EXPECT_EQ(mla.cell_size_bytes, 576 * 61 * 2);
}

// Trap: one engine version's rules applied to all. H100 (81,559 MiB) at TP8:
// v0.4.6 table 0.81; v0.4.7.post1 reserved (9.5 + 8/2) GiB = 13824 -> 67735/81559 = 0.8305 ->
// 0.831; v0.5.3 reserved 512 + 8192*1.5 + 512*2 + 8/8*1024 = 14848 -> 0.818.
TEST(SglangTraps, DefaultFractionDiffersByRelease) {
  SglangArgs a;
  a.tp = 8;
  EXPECT_DOUBLE_EQ(PlanSglang("0.4.6", Llama31_8B(), H100(), a, {}).fraction, 0.81);
  EXPECT_NEAR(PlanSglang("0.4.9", Llama31_8B(), H100(), a, {}).fraction, 0.831, 1e-9);
  EXPECT_NEAR(PlanSglang("0.5.3", Llama31_8B(), H100(), a, {}).fraction, 0.818, 1e-9);
}

// Speculative decoding before Dec 2025 inflates the pool: + reqs*steps*topk +
// reqs*draft_tokens + 100, with 48 requests: 48*3*1 + 48*4 + 100 = 436.
TEST(SglangSpeculative, OldHeadroomAddsTokens) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.speculative_algorithm = "EAGLE3";
  a.speculative_num_steps = 3;
  a.speculative_eagle_topk = 1;
  a.speculative_num_draft_tokens = 4;
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  PlanResult spec = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &draft);
  SglangArgs plain = a;
  plain.speculative_algorithm.clear();
  plain.speculative_num_steps.reset();
  plain.speculative_eagle_topk.reset();
  plain.speculative_num_draft_tokens.reset();
  PlanResult base = PlanSglang("0.5.6", Llama31_8B(), H100(), plain, Measured(78.0, 63.0));
  EXPECT_EQ(spec.max_total_num_tokens - base.max_total_num_tokens, 436);
  EXPECT_EQ(spec.max_running_requests, 48);
}

// server_args.py @v0.5.5 auto_choose_speculative_params: Llama gets (5, 4, 8);
// the headroom is then 48*5*4 + 48*8 + 100 = 1444 tokens.
TEST(SglangSpeculative, AutoParamsForLlama) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.speculative_algorithm = "EAGLE3";
  ModelSpec llama = Llama31_8B();
  llama.architecture = "LlamaForCausalLM";
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  PlanResult spec = PlanSglang("0.5.6", llama, H100(), a, Measured(78.0, 63.0), &draft);
  SglangArgs plain;
  plain.mem_fraction_static = 0.85;
  PlanResult base = PlanSglang("0.5.6", llama, H100(), plain, Measured(78.0, 63.0));
  EXPECT_EQ(spec.max_total_num_tokens - base.max_total_num_tokens, 1444);
  EXPECT_EQ(Fig(spec, "speculative_num_draft_tokens"), 8);
}

// Top-k 1 forces num_draft_tokens = num_steps + 1, even over a user value.
TEST(SglangSpeculative, TopK1ChainsTheDraft) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.speculative_algorithm = "EAGLE3";
  a.speculative_num_steps = 5;
  a.speculative_eagle_topk = 1;
  a.speculative_num_draft_tokens = 8;
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  PlanResult r = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &draft);
  EXPECT_EQ(Fig(r, "speculative_num_draft_tokens"), 6);
}

// Speculative decoding sets max_running_requests to 48, which the scheduler
// divides over the attention DP groups like a user value: 48 // 4 = 12.
TEST(SglangSpeculative, FortyEightDividedOverDpGroups) {
  SglangArgs a;
  a.tp = 4;
  a.dp = 4;
  a.enable_dp_attention = true;
  a.mem_fraction_static = 0.85;
  a.speculative_algorithm = "NEXTN";
  PlanResult r = PlanSglang("0.5.6", DeepSeekV3(), H200(), a, Measured(138.0, 100.0));
  EXPECT_EQ(r.max_running_requests, 12);
  PlanResult newest = PlanSglang("main", DeepSeekV3(), H200(), a, Measured(138.0, 100.0));
  EXPECT_EQ(newest.max_running_requests, 12);
}

// model_config.py hybrid_swa_archs: GPT-OSS gets the per-kind pool in 2026
// (12 full + 12 sliding layers, 8 KV heads of 64: F = S = 8*128*2 = 2048 B
// per layer; divisor 2048*12 + 0.8*2048*12 = 44236.8), Gemma-3 is sized as
// full attention.
TEST(SglangHybridSwa, GptOssHybridGemmaFull) {
  ModelSpec oss = LoadModel("openai/gpt-oss-20b");
  ASSERT_EQ(oss.layer_kinds[0], LayerKind::kSliding);
  ASSERT_EQ(oss.layer_kinds[1], LayerKind::kFull);
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.page_size = 1;
  PlanResult r = PlanSglang("main", oss, H100(), a, Measured(78.0, 65.0));
  const double rest = static_cast<double>(r.rest_memory_bytes);
  EXPECT_EQ(r.max_total_num_tokens, static_cast<int64_t>(std::floor(rest / 44236.8)));
  EXPECT_EQ(Fig(r, "swa_layer_tokens"),
            static_cast<double>(static_cast<int64_t>(r.max_total_num_tokens * 0.8)));
  ModelSpec gemma = oss;
  gemma.architecture = "Gemma3ForCausalLM";
  PlanResult g = PlanSglang("main", gemma, H100(), a, Measured(78.0, 65.0));
  EXPECT_EQ(g.cell_size_bytes, 2048 * 24);
}

// From #23862 (2026-06) the draft's KV is in the cell: int(cell * (1 + 1/32)).
TEST(SglangSpeculative, NewestBudgetsDraftInCell) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.speculative_algorithm = "EAGLE3";
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  PlanResult r = PlanSglang("main", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &draft);
  EXPECT_EQ(r.cell_size_bytes, static_cast<int64_t>(131072 * (1 + 1.0 / 32)));
}

// The slack check's CUDA-graph estimate (kvplan's fit, engines/common/cuda_graph_memory.h):
// a speculative target captures verify graphs over bs x num_draft_tokens
// tokens (cuda_graph_runner.py TARGET_VERIFY), and the draft adds its
// draft-decode (bs x topk) and draft-extend (bs x (steps + 1)) graphs.
// EAGLE-3 for Llama-3.1-8B at --cuda-graph-max-bs 48, steps 3, topk 1, 4 draft tokens:
//   target 192 tokens x 32 layers x 4096 x 2 B x 15.05 = 757,491,302 B
//   draft  48 x 1 x 4096 x 2 x 15.05 + 192 x 1 x 4096 x 2 x 15.05 = 5,917,900 + 23,671,603 B
TEST(SglangGraphs, SpeculativeSlackIncludesDraftGraphs) {
  SglangArgs a;
  a.mem_fraction_static = 0.85;
  a.cuda_graph_max_bs = 48;
  a.speculative_algorithm = "EAGLE3";
  a.speculative_num_steps = 3;
  a.speculative_eagle_topk = 1;
  a.speculative_num_draft_tokens = 4;
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  for (const char* version : {"0.5.6", "main"}) {
    PlanResult r = PlanSglang(version, Llama31_8B(), H100(), a, Measured(78.0, 63.0), &draft);
    ASSERT_TRUE(r.ok) << version;
    EXPECT_NEAR(Fig(r, "draft_graph_estimate_bytes"), 5917900.0 + 23671603.0, 2) << version;
    EXPECT_NEAR(Fig(r, "cuda_graph_estimate_bytes"), 757491302.0 + 5917900.0 + 23671603.0, 3)
        << version;
    // Everything after the KV pool that the slack must hold; draft weights
    // count only where they load after profiling (before #28855).
    const double draft_weights = std::string(version) == "main" ? 0 : Fig(r, "draft_weights_bytes");
    EXPECT_DOUBLE_EQ(Fig(r, "slack_used_estimate_bytes"),
                     Fig(r, "req_to_token_bytes") + Fig(r, "draft_kv_bytes") + draft_weights +
                         Fig(r, "cuda_graph_estimate_bytes"))
        << version;
  }
  // Without a draft the target captures plain decode graphs: 48 x 32 x 4096 x 2 x 15.05.
  SglangArgs plain;
  plain.mem_fraction_static = 0.85;
  plain.cuda_graph_max_bs = 48;
  PlanResult p = PlanSglang("main", Llama31_8B(), H100(), plain, Measured(78.0, 63.0));
  EXPECT_NEAR(Fig(p, "cuda_graph_estimate_bytes"), 189372825.0, 1);
  EXPECT_EQ(p.FindFigure("draft_graph_estimate_bytes"), nullptr);
}

// NEXTN without a draft path captures the target's own MTP layer: DeepSeek-V3
// TP8, bs 64, 4 draft tokens: target 256 x 61 x 7168 x 2 x (15.05 + 1.86 x 8)
// = 6,700,458,311 B; draft (64 + 64 x 4) x 1 layer x 7168 x 2 x 29.93.
TEST(SglangGraphs, MtpDraftGraphsUseTheTargetLayerShape) {
  SglangArgs a;
  a.tp = 8;
  a.mem_fraction_static = 0.85;
  a.cuda_graph_max_bs = 64;
  a.speculative_algorithm = "NEXTN";
  a.speculative_num_steps = 3;
  a.speculative_eagle_topk = 1;
  a.speculative_num_draft_tokens = 4;
  PlanResult r = PlanSglang("0.5.6", DeepSeekV3(), H200(), a, Measured(138.0, 60.0));
  const double draft = 320.0 * 1 * 7168 * 2 * (15.05 + 1.86 * 8);
  EXPECT_NEAR(Fig(r, "draft_graph_estimate_bytes"), draft, 2);
  EXPECT_NEAR(Fig(r, "cuda_graph_estimate_bytes"), 6700458311.0 + draft, 3);
}

// Property: a lower --cuda-graph-max-bs never raises the estimate, and
// strictly lowers it, plain and speculative, in both draft-accounting eras.
TEST(SglangGraphs, LowerMaxBsLowersTheEstimate) {
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  for (const char* version : {"0.5.6", "main"}) {
    for (bool spec : {false, true}) {
      double prev_graphs = INFINITY, prev_used = INFINITY;
      for (int64_t bs : {512, 256, 160, 64, 16, 1}) {
        SglangArgs a;
        a.mem_fraction_static = 0.85;
        a.cuda_graph_max_bs = bs;
        if (spec) a.speculative_algorithm = "EAGLE3";
        PlanResult r = PlanSglang(version, Llama31_8B(), H100(), a, Measured(78.0, 63.0),
                                  spec ? &draft : nullptr);
        const double graphs = Fig(r, "cuda_graph_estimate_bytes");
        const double used = Fig(r, "slack_used_estimate_bytes");
        EXPECT_GT(graphs, 0) << version << " spec " << spec << " bs " << bs;
        EXPECT_LT(graphs, prev_graphs) << version << " spec " << spec << " bs " << bs;
        EXPECT_LT(used, prev_used) << version << " spec " << spec << " bs " << bs;
        prev_graphs = graphs;
        prev_used = used;
      }
    }
  }
  SglangArgs off;
  off.mem_fraction_static = 0.85;
  off.disable_cuda_graph = true;
  PlanResult r = PlanSglang("main", Llama31_8B(), H100(), off, Measured(78.0, 63.0));
  EXPECT_EQ(Fig(r, "cuda_graph_estimate_bytes"), 0);
}

bool WarnsOfCaptureOom(const PlanResult& r) {
  for (const std::string& w : r.warnings) {
    if (w.find("out-of-memory error during CUDA-graph capture") != std::string::npos) return true;
  }
  return false;
}

// A small slack: pre 78 GiB x (1 - 0.96) = 3.12 GiB. At --cuda-graph-max-bs
// 256 the plain launch's graphs are 256 x 32 x 4096 x 2 B x 15.05 = 0.941 GiB
// (plus a 0.125 GiB req_to_token pool: 4097 rows x 8196 x 4 B); EAGLE-3
// (3 steps, topk 1, 4 draft tokens) verifies 1024 tokens per graph: 3.762
// GiB, plus the draft's 256 + 1024 tokens over 1 layer: 0.147 GiB, together
// over the slack. (The old 2 MiB x bs rule said 0.5 GiB for both.)
TEST(SglangGraphs, Eagle3SmallSlackWarnsPlainDoesNot) {
  SglangArgs plain;
  plain.mem_fraction_static = 0.96;
  plain.context_length = 8192;
  plain.cuda_graph_max_bs = 256;
  PlanResult p = PlanSglang("main", Llama31_8B(), H100(), plain, Measured(78.0, 63.0));
  ASSERT_TRUE(p.ok);
  EXPECT_FALSE(WarnsOfCaptureOom(p));
  EXPECT_NEAR(ToGiB(static_cast<int64_t>(Fig(p, "cuda_graph_estimate_bytes"))), 0.9406, 0.0005);

  SglangArgs spec = plain;
  spec.speculative_algorithm = "EAGLE3";
  spec.speculative_num_steps = 3;
  spec.speculative_eagle_topk = 1;
  spec.speculative_num_draft_tokens = 4;
  ModelSpec draft = Gqa("draft", 1, 32, 8, 128, 4096, 131072);
  PlanResult s = PlanSglang("main", Llama31_8B(), H100(), spec, Measured(78.0, 63.0), &draft);
  ASSERT_TRUE(s.ok);
  EXPECT_TRUE(WarnsOfCaptureOom(s));
  EXPECT_NEAR(ToGiB(static_cast<int64_t>(Fig(s, "cuda_graph_estimate_bytes"))), 3.7625 + 0.1470,
              0.0005);
  bool names_parts = false;
  for (const std::string& w : s.warnings) {
    if (w.find("(fitted: target ") != std::string::npos &&
        w.find(" + draft ") != std::string::npos) {
      names_parts = true;
    }
  }
  EXPECT_TRUE(names_parts);
}

// server_args.py _handle_data_parallelism: DP attention with dp 1 is turned
// off, so heads split over the full TP.
TEST(SglangInput, DpAttentionWithOneGroupIsOff) {
  SglangArgs a;
  a.tp = 8;
  a.enable_dp_attention = true;
  a.mem_fraction_static = 0.85;
  PlanResult r = PlanSglang("main", Qwen3_32B(), H100(), a, Measured(78.0, 60.0));
  EXPECT_EQ(r.cell_size_bytes, 1 * 256 * 64 * 2);
  EXPECT_FALSE(r.warnings.empty());
}

TEST(SglangInput, BadFlagsAreInputErrors) {
  const SglangMeasured m = Measured(78.0, 63.0);
  for (double f : {0.0, 1.0, -0.5, 1.5, std::nan("")}) {
    SglangArgs a;
    a.mem_fraction_static = f;
    EXPECT_THROW(PlanSglang("main", Llama31_8B(), H100(), a, m), InputError) << f;
  }
  SglangArgs dp;
  dp.tp = 4;
  dp.dp = 3;
  dp.enable_dp_attention = true;
  EXPECT_THROW(PlanSglang("main", Llama31_8B(), H100(), dp, m), InputError);
  SglangArgs spec;
  spec.speculative_num_steps = 3;
  EXPECT_THROW(PlanSglang("main", Llama31_8B(), H100(), spec, m), InputError);
  SglangArgs ok;
  EXPECT_THROW(PlanSglang("0.3.0", Llama31_8B(), H100(), ok, m), InputError);
  EXPECT_THROW(PlanSglang("banana", Llama31_8B(), H100(), ok, m), InputError);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

bool HasWarning(const PlanResult& r, const std::string& text) {
  for (const std::string& w : r.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// sglang PR #21272: --speculative-algorithm EAGLE with an EAGLE-3 head
// (SpecForge's LlamaForCausalLMEagle3) silently accepts nothing. kvplan warns
// and proposes EAGLE3; with EAGLE3, or with an EAGLE-1/2 style draft, it does not.
TEST(SglangSpeculative, EagleWithAnEagle3DraftIsCaught) {
  const ModelSpec eagle3 = LoadModel("sgl-project/SpecForge-llama3-8B-eagle3");
  ASSERT_NE(eagle3.architecture.find("Eagle3"), std::string::npos);
  SglangArgs a;
  a.speculative_algorithm = "EAGLE";
  PlanResult r = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &eagle3);
  EXPECT_TRUE(HasWarning(r, "PR #21272"));
  bool fix = false;
  for (const Fix& f : r.fixes) fix |= f.flag == "--speculative-algorithm" && f.value == "EAGLE3";
  EXPECT_TRUE(fix);
  a.speculative_algorithm = "eagle3";
  r = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &eagle3);
  EXPECT_FALSE(HasWarning(r, "PR #21272"));
  const ModelSpec eagle1 = LoadModel("SafeAILab/EAGLE-traineagle3-llama3.1-8b-draft");
  a.speculative_algorithm = "EAGLE";
  r = PlanSglang("0.5.6", Llama31_8B(), H100(), a, Measured(78.0, 63.0), &eagle1);
  EXPECT_EQ(HasWarning(r, "PR #21272"), eagle1.architecture.find("Eagle3") != std::string::npos);
}

// server_args.py @v0.5.14 to v0.5.18: --cuda-graph-max-bs is the deprecated alias of
// --cuda-graph-max-bs-decode (one dest), so the decode graphs SGLang captures, and with them the
// graph memory, are the same for either flag: the default list cut at 96 (first principles: no
// captured size above the limit, the limit itself captured).
TEST(SglangCudaGraphFlags, MaxBsDecodeCapturesAsMaxBs) {
  const int64_t h200_mib = 143771;
  for (const char* release : {"0.5.14", "0.5.18"}) {
    const std::vector<int64_t> by_decode = SglangDecodeCaptureList(
        release, Qwen3_32B(), h200_mib,
        ParseSglangArgs({"--model-path", "m", "--cuda-graph-max-bs-decode", "96"}, release));
    const std::vector<int64_t> by_alias = SglangDecodeCaptureList(
        release, Qwen3_32B(), h200_mib,
        ParseSglangArgs({"--model-path", "m", "--cuda-graph-max-bs", "96"}, release));
    EXPECT_EQ(by_decode, by_alias) << release;
    ASSERT_FALSE(by_decode.empty()) << release;
    EXPECT_EQ(by_decode.back(), 96) << release;
  }
}

// The per-phase CUDA-graph flags kvplan does not model get a warning that says what SGLang does
// with them (server_args.py @v0.5.15 _parse_cuda_graph_config), not the generic one.
TEST(SglangCudaGraphFlags, UnmodelledPhaseFlagsSayWhatTheyChange) {
  SglangArgs a = ParseSglangArgs(
      {"--model-path", "m", "--tp-size", "4", "--cuda-graph-bs-decode", "8", "16"}, "0.5.15");
  a.mem_fraction_static = 0.852;
  PlanResult r = PlanSglang("0.5.15", Qwen3_32B(), B200(), a, Measured(176.28, 160.78));
  EXPECT_TRUE(HasWarning(r,
                         "--cuda-graph-bs-decode: not one of the SGLang flags kvplan models; "
                         "ignored, so this plan does not show what it changes: the decode "
                         "batch sizes captured"));
}

}  // namespace
}  // namespace kvplan
