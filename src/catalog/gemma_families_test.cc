// Gemma-4 and Gemma-3n (architectures.cc ModelFamily::kGemma4 / kGemma3n), one row per
// config: real configs from tests/data/real/configs/SOURCES.md, synthetic ones (marked)
// where no public config.json was reachable. Each row: the parameter count equal to a
// hand computation (and within 1 % of the published size where the published figure
// counts what kvplan counts), the KV bytes per token per rank by hand at TP 1 and at a
// TP > 1, and the layer facts the parse must get right.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "catalog/layer_geometry.h"
#include "catalog/model.h"
#include "catalog/weights.h"
#include "testing/gemma_models.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

using testing::Gemma3nE2bSynthetic;
using testing::kGemma3nE4bSynthetic;
using testing::kGemma4E2bSynthetic;
using testing::WithoutQuantization;

int64_t GemmaParams(const ModelSpec& m) { return EstimateWeights(m, {}).total_params; }

// Every layer's own K and V in bf16 on one of `tp` ranks (KV-sharing layers hold none).
int64_t GemmaKvPerRank(const ModelSpec& m, int tp) {
  return KvBytesPerTokenOfLayers(m, 0, m.num_layers, tp, 2);
}

struct GemmaRow {
  const char* name;
  ModelSpec (*load)();
  double published;  // 0: the published size counts encoders kvplan leaves uncounted
  int64_t params;    // by hand (the row's comment)
  int64_t kv_tp1;
  int tp;
  int64_t kv_tp;
  int own_kv_layers;
};

// kvplan: data table
const GemmaRow kGemmaRows[] = {
    // google/gemma-4-26B-A4B: "25.2B total, 3.8B active" (Gemma 4 model card).
    // Hidden 2816, 30 layers (5 sliding : 1 full), 16 heads; sliding layers 8 KV heads of
    // 256, full layers 512 wide with attention_k_eq_v and 2 global KV heads.
    //   sliding attention: 2 x 16 x 256 x 2816 (q, o) + 2 x 8 x 256 x 2816 (k, v) + 2 x 256
    //     (q/k norms) = 34,603,520; full: 2 x 16 x 512 x 2816 + 2 x 2 x 512 x 2816 + 1,024
    //     = 51,905,536 (the engines' fused qkv_proj keeps a V slot, loaded with K, so V is
    //     counted: 5 x 2,883,584 above the checkpoint's tensors).
    //   per layer: 128 experts x 3 x 704 x 2816 = 761,266,176, router 128 x 2816 +
    //     per_expert_scale 128, the dense MLP beside them 3 x 2112 x 2816 = 17,842,176,
    //     8 norms (and the router's scale) x 2816.
    //   25 x 34,603,520 + 5 x 51,905,536 + 30 x 779,491,456 + 262144 x 2816 (tied) + 2816
    //     = 25,247,559,680 (0.19 % over the published 25.2B: the V slots).
    // KV: 25 x 2 x 8 x 256 x 2 + 5 x 2 x 2 x 512 x 2 = 225,280; tp 4: 2 sliding heads a
    // rank, the 2 full heads replicated to 1: 25 x 2 x 2 x 256 x 2 + 5 x 2 x 1 x 512 x 2.
    {"gemma-4-26B-A4B",
     [] { return LoadModel(kvplan::testing::RealData("configs/google--gemma-4-26B-A4B.json")); },
     25.2e9, 25'247'559'680, 225'280, 4, 25 * 2 * 2 * 256 * 2 + 5 * 2 * 1 * 512 * 2, 30},
    // google/gemma-4-31B: "30.7B" (Gemma 4 model card); the NVFP4 checkpoint keeps the
    // geometry. Hidden 5376, 60 layers (10 full), 32 heads; sliding 16 KV heads of 256,
    // full 4 global KV heads of 512 (k_eq_v), MLP 21504.
    //   sliding attention 2 x 32 x 256 x 5376 + 2 x 16 x 256 x 5376 + 512 = 132,121,088;
    //   full 2 x 32 x 512 x 5376 + 2 x 4 x 512 x 5376 + 1,024 = 198,182,912;
    //   MLP 3 x 21504 x 5376 = 346,816,512; 4 norms x 5376.
    //   50 x 132,121,088 + 10 x 198,182,912 + 60 x 346,838,016 + 262144 x 5376 + 5376
    //     = 30,807,445,760 (0.35 % over 30.7B: the V slots of the full layers).
    // KV: 50 x 2 x 16 x 256 x 2 + 10 x 2 x 4 x 512 x 2 = 901,120; tp 8: 2 and 1 heads.
    {"gemma-4-31B",
     [] {
       return LoadModel(kvplan::testing::RealData("configs/nvidia--Gemma-4-31B-IT-NVFP4.json"));
     },
     30.7e9, 30'807'445'760, 901'120, 8, 50 * 2 * 2 * 256 * 2 + 10 * 2 * 1 * 512 * 2, 60},
    // google/gemma-4-E4B: "4.5B effective, 8B with embeddings" (model card) counts the
    // vision and audio encoders kvplan names uncounted. Hidden 2560, 42 layers (7 full),
    // 8 heads, 2 KV heads (256; 512 on full layers, no k_eq_v), MLP 10240, per-layer
    // inputs 256; the last 18 layers share KV.
    //   sliding attention 2 x 8 x 256 x 2560 + 2 x 2 x 256 x 2560 + 512 = 13,107,712;
    //   full 2 x 8 x 512 x 2560 + 2 x 2 x 512 x 2560 + 1,024 = 26,215,424;
    //   per layer: MLP 3 x 10240 x 2560 = 78,643,200, PLE gate and projection
    //     2 x 256 x 2560 = 1,310,720, 5 norms x 2560.
    //   35 x 13,107,712 + 7 x 26,215,424 + 42 x 79,966,720 + 262144 x 2560 + 2560
    //   + the per-layer table 262144 x (42 x 256) + its projection 10752 x 2560 + 256
    //     = 7,518,068,992.
    // KV: layers 0-23 keep their own: 20 sliding x 2 x 2 x 256 x 2 + 4 full x 2 x 2 x 512
    // x 2 = 57,344; tp 2: one head a rank.
    {"gemma-4-E4B", [] { return WithoutQuantization("Jackrong--Gemopus-4-E4B-it-W4A16.json"); }, 0,
     7'518'068'992, 57'344, 2, 57'344 / 2, 24},
    // gemma-4-E2B (synthetic above): "2.3B effective, 5.1B with embeddings" counts the
    // encoders. Layers 0-14 own KV (12 sliding, 3 full), the other 20 share it and run a
    // 12288-wide MLP.
    //   sliding attention 2 x 8 x 256 x 1536 + 2 x 1 x 256 x 1536 + 512 = 7,078,400;
    //   full 2 x 8 x 512 x 1536 + 2 x 512 x 1536 + 1,024 = 14,156,800;
    //   MLP 3 x 6144 x 1536 = 28,311,552 (x 2 on 20 layers); PLE 2 x 256 x 1536; 5 norms.
    //   28 x 7,078,400 + 7 x 14,156,800 + 15 x 28,311,552 + 20 x 56,623,104
    //   + 35 x (786,432 + 7,680) + 262144 x 1536 + 1536 + 262144 x 8960 + 8960 x 1536 + 256
    //     = 4,647,449,856.
    // KV: 12 x 2 x 256 x 2 + 3 x 2 x 512 x 2 = 18,432; tp 2 replicates the one KV head.
    {"gemma-4-E2B (synthetic)",
     [] { return ParseModelConfig(kGemma4E2bSynthetic, "gemma-4-E2B-synthetic.json"); }, 0,
     4'647'449'856, 18'432, 2, 18'432, 15},
    // gemma-3n-E4B (synthetic above): "8B raw parameters" (model card) counts the
    // MobileNet-v5 and audio encoders. Hidden 2048, 35 layers (every fifth full), 8 heads,
    // 2 KV heads of 256, MLP 16384, vocabulary 262400, per-layer inputs 256 over 262144
    // rows, AltUp 4 streams, LAuReL rank 64; the last 15 layers share KV.
    //   per layer: attention 2 x 8 x 256 x 2048 + 2 x 2 x 256 x 2048 + 512 = 10,486,272;
    //     MLP 3 x 16384 x 2048 = 100,663,296; AltUp 16 + 64 + 4 x 2048; LAuReL
    //     2 x 64 x 2048; PLE 2 x 256 x 2048; 8 norms-sized vectors x 2048.
    //   35 x 112,517,200 + 262400 x 2048 + 2048 + 262144 x 8960 + 8960 x 2048 + 256
    //   + AltUp's 6 embedding / unembedding projections 6 x 2048 x 2048 = 6,866,696,688.
    // KV: 20 own layers x 2 x 2 x 256 x 2 = 40,960; tp 2: 20,480.
    {"gemma-3n-E4B (synthetic)",
     [] { return ParseModelConfig(kGemma3nE4bSynthetic, "gemma-3n-E4B-synthetic.json"); }, 0,
     6'866'696'688, 40'960, 2, 20'480, 20},
    // gemma-3n-E2B (synthetic above): "5B raw parameters" with the encoders. 30 layers of
    // MLP 8192, 10 sharing KV: 30 x 62,185,552 + the same model-level tensors over
    // 262144 x 7680 = 4,456,156,768. KV: 20 own layers, as E4B.
    {"gemma-3n-E2B (synthetic)",
     [] { return ParseModelConfig(Gemma3nE2bSynthetic(), "gemma-3n-E2B-synthetic.json"); }, 0,
     4'456'156'768, 40'960, 2, 20'480, 20},
};

TEST(GemmaFamilies, ParametersAndKvPerRankByHand) {
  for (const GemmaRow& r : kGemmaRows) {
    SCOPED_TRACE(r.name);
    const ModelSpec m = r.load();
    EXPECT_EQ(GemmaParams(m), r.params);
    if (r.published > 0) {
      EXPECT_LT(std::fabs(static_cast<double>(GemmaParams(m)) - r.published) / r.published, 0.01);
    }
    EXPECT_EQ(GemmaKvPerRank(m, 1), r.kv_tp1);
    EXPECT_EQ(GemmaKvPerRank(m, r.tp), r.kv_tp);
    EXPECT_EQ(NumKvLayers(m, 0, m.num_layers), r.own_kv_layers);
  }
}

// NVIDIA's NVFP4 31B keeps every layer's attention in bf16 (modelopt ignore list entries
// "model.language_model.layers.N.self_attn*"), quantizing the MLPs only.
TEST(GemmaFamilies, Gemma4Nvfp4KeepsTheAttentionUnquantized) {
  const ModelSpec m =
      LoadModel(kvplan::testing::RealData("configs/nvidia--Gemma-4-31B-IT-NVFP4.json"));
  EXPECT_EQ(m.quant.format, "nvfp4");
  EXPECT_FALSE(m.quant.attention_quantized);
  EXPECT_TRUE(m.quant.dense_mlp_quantized);
  EXPECT_FALSE(m.quant.lm_head_quantized);
}

// The layer facts: Gemma-4's full layers (every sixth) take global_head_dim and the global
// KV heads; E4B's last 18 layers read layers 22 (sliding) and 23 (full); the encoders are
// named uncounted (E4B has an audio_config).
TEST(GemmaFamilies, LayerGeometryAndUncountedEncoders) {
  const ModelSpec big =
      LoadModel(kvplan::testing::RealData("configs/google--gemma-4-26B-A4B.json"));
  EXPECT_EQ(LayerGeometryAt(big, 5).head_dim, 512);
  EXPECT_EQ(LayerGeometryAt(big, 5).kv_heads, 2);
  EXPECT_EQ(LayerGeometryAt(big, 4).head_dim, 256);
  EXPECT_EQ(LayerGeometryAt(big, 4).kv_heads, 8);
  EXPECT_EQ(big.uncounted_weights, "vision tower");
  const ModelSpec e4b = WithoutQuantization("Jackrong--Gemopus-4-E4B-it-W4A16.json");
  EXPECT_EQ(LayerGeometryAt(e4b, 24).kv, LayerKv::kShared);
  EXPECT_EQ(LayerGeometryAt(e4b, 24).kv_source, 22);
  EXPECT_EQ(LayerGeometryAt(e4b, 41).kv_source, 23);
  EXPECT_EQ(e4b.uncounted_weights, "vision tower, audio encoder");
  EXPECT_TRUE(e4b.multimodal);
}

}  // namespace
}  // namespace kvplan
