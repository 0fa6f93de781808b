// The hybrid block size and state page against hand arithmetic from vLLM's
// rules (model_executor/models/config.py, mamba_utils.py) and the DeepSeek-V3.2
// cache dtype per release.
#include "engines/vllm/hybrid.h"

#include <gtest/gtest.h>

#include "engines/vllm/vllm.h"
#include "kvplan/error.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

ModelSpec Qwen3Next() { return LoadModel("Qwen/Qwen3-Next-80B-A3B-Thinking"); }

VllmArgs Tp(int tp) {
  VllmArgs a;
  a.tp = tp;
  return a;
}

VllmHybridBlock Block(const std::string& release, int tp, const GpuSpec& gpu, int64_t bs = 16) {
  return VllmHybridAttentionBlock(Qwen3Next(), gpu, Tp(tp), ParseVllmRelease(release), true, bs);
}

// Qwen3-Next: 16 key heads x 128, 32 value heads x 128, conv kernel 4, bf16.
// conv_dim = 128*16*2 + 128*32 = 8192. At tp 2: conv 3 x 4096, ssm 16 x 128 x 128.
TEST(VllmHybrid, Qwen3NextStatePageAtTp2) {
  VllmHybridBlock h = Block("0.10.2", 2, testing::H200());
  ASSERT_TRUE(h.modelled);
  ASSERT_EQ(h.state.size(), 2u);
  EXPECT_EQ(h.state[0].elements, 3 * 4096);
  EXPECT_EQ(h.state[1].elements, 16 * 128 * 128);
  EXPECT_EQ(h.state_bytes, (3 * 4096 + 16 * 128 * 128) * 2);  // 548,864
  // 2 KV heads over tp 2: one head of 256 + 256, bf16 = 1,024 B per token.
  EXPECT_EQ(h.attn_bytes_per_token, 1024);
  // 16 * cdiv(548864, 16 * 1024) = 16 * 34.
  EXPECT_EQ(h.block_size, 544);
  EXPECT_TRUE(h.enlarged);
  EXPECT_EQ(h.page_bytes, 544 * 1024);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_EQ(lines[0],
            "Setting attention block size to 544 tokens to ensure that attention page size is >= "
            "mamba page size.");
  // (557056 - 548864) / 548864 = 1.4925 %.
  EXPECT_EQ(lines[1],
            "Padding mamba page size by 1.49% to ensure that mamba page size and attention page "
            "size are exactly equal.");
}

TEST(VllmHybrid, BlockFollowsTensorParallelism) {
  // tp 1: state 1,097,728 B, 2,048 B/token: 16 * cdiv(1097728, 32768) = 544.
  EXPECT_EQ(Block("0.11.0", 1, testing::H100()).block_size, 544);
  // tp 4: state 274,432 B, one KV head (replicated) 1,024 B: 16 * cdiv(274432, 16384) = 272.
  EXPECT_EQ(Block("0.11.0", 4, testing::H100()).block_size, 272);
  // tp 8: state 137,216 B: 16 * 9 = 144.
  EXPECT_EQ(Block("0.11.0", 8, testing::H100()).block_size, 144);
}

TEST(VllmHybrid, BlackwellHeadSize256AlignsTo32From0_11_1) {
  // tp 4 on B200: 32 * cdiv(274432, 32 * 1024) = 288 (16 would give 272).
  EXPECT_EQ(Block("0.11.0", 4, testing::B200()).block_size, 272);
  VllmHybridBlock h = Block("0.11.1", 4, testing::B200());
  EXPECT_EQ(h.alignment, 32);
  EXPECT_EQ(h.block_size, 288);
  // 0.18.0 dropped the rule; from 0.20.0 the backend's smallest kernel block (16) or the
  // chosen block size, whichever is larger.
  EXPECT_EQ(Block("0.18.0", 4, testing::B200()).block_size, 272);
  EXPECT_EQ(Block("0.20.0", 4, testing::B200()).block_size, 272);
  VllmArgs a = Tp(4);
  a.block_size = 64;
  VllmHybridBlock u = VllmHybridAttentionBlock(Qwen3Next(), testing::H100(), a,
                                               ParseVllmRelease("0.20.0"), true, 64);
  EXPECT_EQ(u.block_size, 64 * 5);  // 64 * cdiv(274432, 64 * 1024)
}

TEST(VllmHybrid, LargerUserBlockStaysAndPadsTheState) {
  VllmArgs a = Tp(2);
  a.block_size = 1024;
  VllmHybridBlock h = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a,
                                               ParseVllmRelease("0.10.2"), true, 1024);
  EXPECT_EQ(h.block_size, 1024);
  EXPECT_FALSE(h.enlarged);
  EXPECT_EQ(h.page_bytes, 1024 * 1024);
  ASSERT_EQ(VllmHybridLogLines(h).size(), 1u);  // only the padding line
  a.block_size = 32;                            // too small: raised as when unset
  h = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a, ParseVllmRelease("0.10.2"), true,
                               32);
  EXPECT_EQ(h.block_size, 544);
  EXPECT_TRUE(h.enlarged);
}

TEST(VllmHybrid, NotModelledBeforeTheV1HybridLayoutOrOnV0) {
  VllmHybridBlock early = Block("0.9.2", 2, testing::H200());
  EXPECT_FALSE(early.modelled);
  EXPECT_NE(early.not_modelled_reason.find("0.10.0"), std::string::npos);
  VllmHybridBlock v0 = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), Tp(2),
                                                ParseVllmRelease("0.10.2"), false, 16);
  EXPECT_FALSE(v0.modelled);
  EXPECT_FALSE(v0.not_modelled_reason.empty());
  // A model without state layers has nothing to say.
  VllmHybridBlock dense = VllmHybridAttentionBlock(testing::Llama31_8B(), testing::H200(), Tp(1),
                                                   ParseVllmRelease("0.10.2"), true, 16);
  EXPECT_FALSE(dense.modelled);
  EXPECT_TRUE(dense.not_modelled_reason.empty());
}

TEST(VllmHybrid, DeepSeekV32CacheDtypeByRelease) {
  ModelSpec v32 = testing::DeepSeekV32();
  // 0.11.0: "auto" and fp8 both become fp8_ds_mla.
  VllmSparseMlaCache c = VllmDeepSeekV32Cache(v32, ParseVllmRelease("0.11.0"), "auto");
  EXPECT_TRUE(c.indexer);
  EXPECT_EQ(c.kv_cache_dtype, "fp8_ds_mla");
  // 0.11.1 and later: only fp8 does; auto stays the model's bf16.
  EXPECT_EQ(VllmDeepSeekV32Cache(v32, ParseVllmRelease("0.11.1"), "auto").kv_cache_dtype, "auto");
  EXPECT_EQ(VllmDeepSeekV32Cache(v32, ParseVllmRelease("0.20.0"), "fp8").kv_cache_dtype,
            "fp8_ds_mla");
  // Before 0.11.0 vLLM has no DeepSeek-V3.2 indexer; DeepSeek-V3 never has one.
  EXPECT_FALSE(VllmDeepSeekV32Cache(v32, ParseVllmRelease("0.10.2"), "auto").indexer);
  EXPECT_FALSE(
      VllmDeepSeekV32Cache(testing::DeepSeekV3(), ParseVllmRelease("0.20.0"), "fp8").indexer);
}

TEST(VllmHybrid, MambaCacheDtypeFlags) {
  VllmArgs a = ParseVllmArgs({"--tensor-parallel-size", "2", "--mamba-cache-dtype", "float32"});
  EXPECT_EQ(a.mamba_cache_dtype, "float32");
  VllmHybridBlock h = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a,
                                               ParseVllmRelease("0.11.0"), true, 16);
  // Both states in float32: twice the 548,864 B; 16 * cdiv(1097728, 16384) = 1,072 tokens.
  EXPECT_EQ(h.state_bytes, 2 * 548864);
  EXPECT_EQ(h.block_size, 1072);
  // --mamba-ssm-cache-dtype moves the gated delta-net's temporal state only from 0.17.0.
  a = ParseVllmArgs({"--tensor-parallel-size", "2", "--mamba-ssm-cache-dtype", "float32"});
  EXPECT_EQ(VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a, ParseVllmRelease("0.15.0"),
                                     true, 16)
                .state_bytes,
            548864);
  EXPECT_EQ(VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a, ParseVllmRelease("0.17.0"),
                                     true, 16)
                .state_bytes,
            3 * 4096 * 2 + 16 * 128 * 128 * 4);
  EXPECT_THROW(ParseVllmArgs({"--mamba-cache-dtype", "int8"}), InputError);
}

TEST(VllmHybrid, SpeculativeTokensWidenTheConvState) {
  VllmArgs a = ParseVllmArgs({"--tensor-parallel-size", "2", "--speculative-config",
                              R"({"method": "qwen3_next_mtp", "num_speculative_tokens": 2})"});
  VllmHybridBlock h = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a,
                                               ParseVllmRelease("0.10.2"), true, 16);
  ASSERT_TRUE(h.modelled);
  EXPECT_EQ(h.state[0].elements, (3 + 2) * 4096);
  EXPECT_EQ(h.state_bytes, ((3 + 2) * 4096 + 16 * 128 * 128) * 2);
  EXPECT_EQ(h.pages_per_request, 1);  // before 0.15.0 one page whatever the speculation
  h = VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a, ParseVllmRelease("0.15.0"), true,
                               16);
  EXPECT_EQ(h.pages_per_request, 3);  // one plus one per speculative token
}

TEST(VllmHybrid, PrefixCachingAlignModeHoldsTwoStatePagesFrom0_15) {
  VllmArgs a = ParseVllmArgs({"--tensor-parallel-size", "2", "--enable-prefix-caching"});
  ASSERT_TRUE(a.enable_prefix_caching.value_or(false));
  auto pages = [&](const char* release) {
    return VllmHybridAttentionBlock(Qwen3Next(), testing::H200(), a, ParseVllmRelease(release),
                                    true, 16)
        .pages_per_request;
  };
  EXPECT_EQ(pages("0.14.1"), 1);  // vLLM turns prefix caching off for the model
  EXPECT_EQ(pages("0.15.0"), 2);  // mamba_cache_mode "align"
  EXPECT_EQ(Block("0.15.0", 2, testing::H200()).pages_per_request, 1);  // off by default
}

// Granite-4.0-H-Tiny's Mamba2 layers (tests/data/synthetic/hybrid/, synthetic): 48 heads x 64,
// state 128, one group, conv 4, hidden 1536: conv_dim = 3072 + 2 x 128 = 3,328; at tp 1 the
// state is (3 x 3,328 + 48 x 64 x 128) x 2 B = 806,400 B; the 4 KV heads of 128 take 2,048 B
// per token: 16 x cdiv(806400, 32768) = 400 tokens.
TEST(VllmHybrid, GraniteMamba2StatePage) {
  ModelSpec g = LoadModel(testing::SyntheticData("hybrid/granite-4.0-h-tiny-synthetic.json"));
  VllmHybridBlock h =
      VllmHybridAttentionBlock(g, testing::H100(), Tp(1), ParseVllmRelease("0.11.0"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state_bytes, (3 * 3328 + 48 * 64 * 128) * 2);
  EXPECT_EQ(h.attn_bytes_per_token, 2048);
  EXPECT_EQ(h.block_size, 400);
  // Mamba2 takes --mamba-ssm-cache-dtype at every release.
  VllmArgs a = Tp(1);
  a.mamba_ssm_cache_dtype = "float32";
  EXPECT_EQ(VllmHybridAttentionBlock(g, testing::H100(), a, ParseVllmRelease("0.11.0"), true, 16)
                .state_bytes,
            3 * 3328 * 2 + 48 * 64 * 128 * 4);
}

// Qwen3.5-27B (tests/data/real/configs/) at tp 1: 48 value heads, 16 key heads of 128, conv 4,
// 4 KV heads of 256. With a float32 SSM state, which vLLM 0.17+ takes from the config's
// mamba_ssm_dtype (models/config.py Qwen3_5ForConditionalGenerationConfig @v0.17.0; kvplan's
// catalog does not read that field yet, so the flag gives it): (3 x 10,240 x 2) + (48 x 128 x
// 128 x 4) = 3,207,168 B; 16 x cdiv(3207168, 16 x 4096) = 784 tokens, padded by 0.13 %, the
// lines a public vLLM 0.19 start-up of a Qwen3.5-27B checkpoint prints.
TEST(VllmHybrid, Qwen3_5WithAFloat32SsmState) {
  ModelSpec q = LoadModel(testing::RealData("configs/Qwen--Qwen3.5-27B.json"));
  VllmArgs a = Tp(1);
  a.mamba_ssm_cache_dtype = "float32";
  VllmHybridBlock h =
      VllmHybridAttentionBlock(q, testing::H100(), a, ParseVllmRelease("0.19.0"), true, 16);
  EXPECT_EQ(h.state_bytes, 3 * 10240 * 2 + 48 * 128 * 128 * 4);
  EXPECT_EQ(h.block_size, 784);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("by 0.13%"), std::string::npos) << lines[1];
}

// Qwen3.5-27B's config names mamba_ssm_dtype float32: from 0.17.0 vLLM takes it when
// --mamba-ssm-cache-dtype is auto (models/config.py Qwen3_5ForConditionalGenerationConfig), so
// the 784-token block of the test above comes without the flag; before 0.17.0 the gated
// delta-net keeps its state in the conv dtype: 2 x 3 x 10,240 + 48 x 128 x 128 x 2 =
// 1,634,304 B, 16 x cdiv(1634304, 65536) = 400 tokens.
TEST(VllmHybrid, Qwen3_5TakesTheConfigSsmDtype) {
  ModelSpec q = LoadModel(testing::RealData("configs/Qwen--Qwen3.5-27B.json"));
  EXPECT_EQ(q.config_ssm_dtype, "float32");
  VllmHybridBlock h =
      VllmHybridAttentionBlock(q, testing::H100(), Tp(1), ParseVllmRelease("0.19.0"), true, 16);
  EXPECT_EQ(h.state_bytes, 3 * 10240 * 2 + 48 * 128 * 128 * 4);
  EXPECT_EQ(h.block_size, 784);
  h = VllmHybridAttentionBlock(q, testing::H100(), Tp(1), ParseVllmRelease("0.15.0"), true, 16);
  EXPECT_EQ(h.state_bytes, 1634304);
  EXPECT_EQ(h.block_size, 400);
  // An explicit flag wins over the config.
  VllmArgs a = Tp(1);
  a.mamba_ssm_cache_dtype = "float16";
  EXPECT_EQ(VllmHybridAttentionBlock(q, testing::H100(), a, ParseVllmRelease("0.19.0"), true, 16)
                .state_bytes,
            1634304);
}

// Nemotron-3-Nano-30B-A3B (tests/data/real/configs/) at TP 1: 23 Mamba2 layers of 64 heads x
// 64, state 128, 8 groups, conv 4; 6 attention layers of 2 KV heads x 128. The config's
// mamba_ssm_cache_dtype float32 is what vLLM uses under auto (models/config.py
// NemotronHForCausalLMConfig): state page 6,144 x 3 x 2 + 64 x 64 x 128 x 4 = 2,134,016 B;
// attention 2 x (128 + 128) x 2 = 1,024 B per token; block 16 x cdiv(2134016, 16384) = 2,096.
TEST(VllmHybrid, Nemotron3NanoStatePage) {
  ModelSpec n =
      LoadModel(testing::RealData("configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16.json"));
  VllmHybridBlock h =
      VllmHybridAttentionBlock(n, testing::H100(), Tp(1), ParseVllmRelease("0.12.0"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state_bytes, 6144 * 3 * 2 + 64 * 64 * 128 * 4);
  EXPECT_EQ(h.attn_bytes_per_token, 1024);
  EXPECT_EQ(h.block_size, 2096);
  // --mamba-ssm-cache-dtype float16: 36,864 + 1,048,576 = 1,085,440 B, 16 x 67 = 1,072.
  VllmArgs a = Tp(1);
  a.mamba_ssm_cache_dtype = "float16";
  EXPECT_EQ(VllmHybridAttentionBlock(n, testing::H100(), a, ParseVllmRelease("0.12.0"), true, 16)
                .block_size,
            1072);
}

// NVIDIA-Nemotron-Nano-9B-v2 (synthetic config of its published geometry,
// tests/data/synthetic/hybrid/) at TP 1: 27 Mamba2 layers of 128 heads x 80, state 128, 8
// groups: conv_dim 10,240 + 2 x 8 x 128 = 12,288; its config names no SSM dtype, so the state
// stays in the model dtype: 12,288 x 3 x 2 + 128 x 80 x 128 x 2 = 2,695,168 B; 8 KV heads of
// 128 take 4,096 B per token: 16 x cdiv(2695168, 65536) = 672 tokens, the block size
// vllm-project/vllm#24280 (2025-09-04) says vLLM sets for this model.
TEST(VllmHybrid, NemotronNano9BV2BlockOfTheIssue) {
  ModelSpec n = LoadModel(testing::SyntheticData("hybrid/nemotron-nano-9b-v2-synthetic.json"));
  EXPECT_EQ(n.NumLayersOfKind(LayerKind::kLinear), 27);
  EXPECT_EQ(n.NumLayersOfKind(LayerKind::kFull), 4);
  VllmHybridBlock h =
      VllmHybridAttentionBlock(n, testing::H100(), Tp(1), ParseVllmRelease("0.10.2"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state_bytes, 12288 * 3 * 2 + 128 * 80 * 128 * 2);
  EXPECT_EQ(h.attn_bytes_per_token, 4096);
  EXPECT_EQ(h.block_size, 672);
}

// Jamba-1.5-Mini (tests/data/real/configs/) at TP 2: Mamba-1 state of 4,096 channels a rank,
// conv (4096, 3) and SSM (4096, 16) in bf16 = 155,648 B; 4 KV heads of 128 a rank take 2,048
// B per token: 16 x cdiv(155648, 32768) = 80 tokens.
TEST(VllmHybrid, JambaMambaOneStatePage) {
  ModelSpec j = LoadModel(testing::RealData("configs/ai21labs--AI21-Jamba-1.5-Mini.json"));
  VllmHybridBlock h =
      VllmHybridAttentionBlock(j, testing::H100(), Tp(2), ParseVllmRelease("0.11.0"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state_bytes, (4096 * 3 + 4096 * 16) * 2);
  EXPECT_EQ(h.attn_bytes_per_token, 2048);
  EXPECT_EQ(h.block_size, 80);
}

// Falcon-H1-7B (synthetic config, tests/data/synthetic/hybrid/) at TP 1: every layer attends
// and holds a Mamba2 state: conv 3,584 x 3 x 2 + SSM 24 x 128 x 256 x 2 (auto: the conv
// dtype) = 1,594,368 B; 2 KV heads of 128: 1,024 B per token; 16 x cdiv(1594368, 16384) = 1,568.
TEST(VllmHybrid, FalconH1StatePage) {
  ModelSpec f = LoadModel(testing::SyntheticData("hybrid/falcon-h1-7b-synthetic.json"));
  VllmHybridBlock h =
      VllmHybridAttentionBlock(f, testing::H100(), Tp(1), ParseVllmRelease("0.11.0"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state_bytes, 3584 * 3 * 2 + 24 * 128 * 256 * 2);
  EXPECT_EQ(h.block_size, 1568);
}

// Kimi-Linear-48B (tests/data/real/configs/) on 0.11.1, its first release: the KDA state is
// three conv windows in bf16 and a float32 recurrent state whatever the flags
// (kda_state_dtype): TP 1 conv 3 x 4096 x 3 x 2 = 73,728 B, recurrent 32 x 128 x 128 x 4 =
// 2,097,152 B, 2,170,880 B. The MLA page of one token is (512 + 64) x 2 = 1,152 B on every
// rank, and MLA aligns to 64: 64 x cdiv(2170880, 64 x 1152) = 64 x 30 = 1,920 tokens, a page
// of 2,211,840 B (1.89 % padding). TP 4: 18,432 + 524,288 = 542,720 B, 64 x 8 = 512 tokens.
ModelSpec KimiLinear() {
  return LoadModel(testing::RealData("configs/moonshotai--Kimi-Linear-48B-A3B-Instruct.json"));
}

TEST(VllmHybrid, KimiLinearKdaStateAndMlaAlignment) {
  VllmHybridBlock h = VllmHybridAttentionBlock(KimiLinear(), testing::H200(), Tp(1),
                                               ParseVllmRelease("0.11.1"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  ASSERT_EQ(h.state.size(), 2u);
  EXPECT_EQ(h.state[0].elements, 3 * 4096 * 3);
  EXPECT_EQ(h.state[0].dtype_bytes, 2);
  EXPECT_EQ(h.state[1].elements, 32 * 128 * 128);
  EXPECT_EQ(h.state[1].dtype_bytes, 4);
  EXPECT_EQ(h.state_bytes, 2'170'880);
  EXPECT_EQ(h.attn_bytes_per_token, 1152);
  EXPECT_EQ(h.alignment, 64);
  EXPECT_EQ(h.block_size, 1920);
  EXPECT_EQ(h.page_bytes, 2'211'840);
  std::vector<std::string> lines = VllmHybridLogLines(h);
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[1].find("by 1.89%"), std::string::npos) << lines[1];
  VllmHybridBlock t4 = VllmHybridAttentionBlock(KimiLinear(), testing::H200(), Tp(4),
                                                ParseVllmRelease("0.11.1"), true, 16);
  EXPECT_EQ(t4.state_bytes, 542'720);
  EXPECT_EQ(t4.block_size, 512);
}

// --mamba-ssm-cache-dtype does not reach the KDA recurrent state; speculative tokens do not
// widen its conv windows (kda_state_shape @v0.11.1 leaves them at kernel - 1).
TEST(VllmHybrid, KimiLinearRecurrentStateStaysFloat32) {
  VllmArgs a = Tp(1);
  a.mamba_ssm_cache_dtype = "float16";
  VllmHybridBlock h = VllmHybridAttentionBlock(KimiLinear(), testing::H200(), a,
                                               ParseVllmRelease("0.11.1"), true, 16);
  ASSERT_TRUE(h.modelled) << h.not_modelled_reason;
  EXPECT_EQ(h.state[1].dtype_bytes, 4);
  a.mamba_ssm_cache_dtype = "auto";
  a.mamba_cache_dtype = "float32";
  h = VllmHybridAttentionBlock(KimiLinear(), testing::H200(), a, ParseVllmRelease("0.11.1"), true,
                               16);
  EXPECT_EQ(h.state_bytes, 3 * 4096 * 3 * 4 + 32 * 128 * 128 * 4);
}

// Before 0.11.1 vLLM has no kimi_linear.py; from 0.18 the MLA backend's kernel block sizes
// set the alignment, which kvplan does not model: both say so and leave the state out.
TEST(VllmHybrid, KimiLinearOutsideTheModelledReleases) {
  // Before 0.11.1 the model registry refuses it (engines/vllm/model_support.h).
  PlanResult early = PlanVllm("0.11.0", KimiLinear(), testing::H200(), ParseVllmArgs({}), {});
  EXPECT_FALSE(early.ok);
  EXPECT_NE(early.error_message.find("['KimiLinearForCausalLM'] are not supported"),
            std::string::npos)
      << early.error_message;
  VllmHybridBlock late = VllmHybridAttentionBlock(KimiLinear(), testing::H200(), Tp(1),
                                                  ParseVllmRelease("0.18.0"), true, 16);
  EXPECT_FALSE(late.modelled);
  EXPECT_NE(late.not_modelled_reason.find("MLA"), std::string::npos);
}

}  // namespace
}  // namespace kvplan
