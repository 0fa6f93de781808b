// vLLM's encoder budget, the profiling batch's held outputs and the vision
// tower's sharding, against hand arithmetic.
#include "engines/vllm/multimodal.h"

#include <gtest/gtest.h>

#include "catalog/model.h"
#include "kvplan/error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

ModelSpec MultimodalQwen25Vl3b() {
  return LoadModel(testing::RealData("configs/Qwen--Qwen2.5-VL-3B-Instruct.json"));
}

// One image of 16,384 tokens (max_pixels 12845056 / 28^2) is more than 8,192
// batched tokens: the budget becomes 16,384, one image is encoded, and its
// output 16,384 x 2048 x 2 B = 64 MiB is held while the text model profiles.
TEST(VllmMultimodal, Qwen25VlBudgetIsOneLargestImage) {
  VllmEncoderBudget b = VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), VllmArgs{}, 8192, 1024);
  EXPECT_TRUE(b.active);
  EXPECT_EQ(b.max_tokens_per_item, 16384);
  EXPECT_EQ(b.compute_budget, 16384);
  EXPECT_EQ(b.cache_size, 16384);
  EXPECT_EQ(b.profile_items, 1);
  EXPECT_EQ(b.profile_output_bytes, 16384LL * 2048 * 2);
  // A larger step budget holds more images, up to max_num_seqs x the limit.
  EXPECT_EQ(VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), VllmArgs{}, 65536, 1024).profile_items, 4);
  VllmArgs two;
  two.limit_mm_per_prompt = R"({"image": 1, "video": 0})";
  EXPECT_EQ(VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), two, 65536, 2).profile_items, 2);
}

// The encoder's own peak on that one image: 16,384 tokens x 2 x 2 merged
// patches = 65,536 patches, each holding the residual and norm output (2 x
// 1280), gate_up and its activation (3 x 3420) and its pixel values (3 x 2 x
// 14 x 14 = 1176): 65,536 x 13,996 x 2 B = 1,834,483,712 B (1.71 GiB). The
// profile's peak is the larger of it and the text run's peak plus the held
// outputs (64 MiB).
TEST(VllmMultimodal, Qwen25VlEncoderPeak) {
  const VllmEncoderBudget b = VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), VllmArgs{}, 8192, 1024);
  EXPECT_EQ(b.encoder_peak_bytes, 65536LL * (2 * 1280 + 3 * 3420 + 1176) * 2);
  EXPECT_EQ(b.encoder_peak_bytes, 1'834'483'712);
  const int64_t gib = int64_t{1} << 30;
  EXPECT_EQ(VllmProfileActivation(2 * gib, b), 2 * gib + (int64_t{64} << 20));
  EXPECT_EQ(VllmProfileActivation(gib, b), 1'834'483'712);
  // Four images at 65,536 batched tokens: four times the patches.
  EXPECT_EQ(VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), VllmArgs{}, 65536, 1024).encoder_peak_bytes,
            4 * b.encoder_peak_bytes);
}

// Gemma-3-27B's SigLIP (896 px / 14 = 64 x 64 = 4,096 patches an image, before
// the pooling to 256 tokens): 32 images x 4,096 patches x (2 x 1152 + 2 x 4304 +
// 3 x 14 x 14) x 2 B = 3,014,656,000 B.
TEST(VllmMultimodal, Gemma3EncoderPeak) {
  const VllmEncoderBudget b =
      VllmEncoderBudgetOf(LoadModel("google/gemma-3-27b-it"), VllmArgs{}, 8192, 256);
  EXPECT_EQ(b.encoder_peak_bytes, 32LL * 4096 * (2 * 1152 + 2 * 4304 + 588) * 2);
}

TEST(VllmMultimodal, ImageLimitZeroDisablesTheBudget) {
  VllmArgs a;
  a.limit_mm_per_prompt = "image=0,video=0";
  VllmEncoderBudget b = VllmEncoderBudgetOf(MultimodalQwen25Vl3b(), a, 8192, 1024);
  EXPECT_FALSE(b.active);
  EXPECT_EQ(b.profile_output_bytes, 0);
  EXPECT_EQ(VllmImageLimit(R"({"image": {"count": 3, "width": 512}})"), 3);
  EXPECT_EQ(VllmImageLimit(R"({"video": 1})"), std::nullopt);
  EXPECT_THROW(VllmImageLimit("image=many"), InputError);
  // What vLLM's parser refuses is refused, not read as "no image limit" or as another number.
  for (const char* bad :
       {"garbage", "image", "image=-1", "image=2,", R"({"image": -1})", R"({"image": 1e99})",
        R"({"image": 2.5})", R"({"image": "2"})", R"(["image", 2])", R"({"image": 2)"}) {
    EXPECT_THROW(VllmImageLimit(bad), InputError) << bad;
  }
  EXPECT_EQ(VllmImageLimit("video=1,image=2"), 2);
  EXPECT_EQ(VllmImageLimit(R"({"image": 0, "video": 1})"), 0);
  // A text-only model has no encoder budget.
  ModelSpec text;
  EXPECT_FALSE(VllmEncoderBudgetOf(text, VllmArgs{}, 8192, 1024).active);
}

// Gemma-3: 256 tokens per image, so 8,192 batched tokens encode 32 images
// whose outputs (5376 wide for the 27B) stay held.
TEST(VllmMultimodal, GemmaThreeProfilesManySmallImages) {
  ModelSpec g = LoadModel("google/gemma-3-27b-it");
  VllmEncoderBudget b = VllmEncoderBudgetOf(g, VllmArgs{}, 8192, 256);
  EXPECT_EQ(b.compute_budget, 8192);
  EXPECT_EQ(b.profile_items, 32);
  EXPECT_EQ(b.profile_output_bytes, 8192LL * 5376 * 2);
}

// --mm-encoder-tp-mode weights (the default) splits the tower over TP; data
// keeps a whole copy on every rank.
TEST(VllmMultimodal, EncoderTpModeShardsOrReplicatesTheTower) {
  ModelSpec m = MultimodalQwen25Vl3b();
  WeightEstimate w = EstimateWeights(m, Parallelism{.tp = 2});
  VllmArgs a;
  a.tp = 2;
  EXPECT_EQ(VllmEncoderWeightsOvercount(w, a), 668'684'288LL);  // half of 2 B x params
  a.mm_encoder_tp_mode = "data";
  EXPECT_EQ(VllmEncoderWeightsOvercount(w, a), 0);
  a.tp = 1;
  a.mm_encoder_tp_mode = "weights";
  EXPECT_EQ(VllmEncoderWeightsOvercount(EstimateWeights(m, {}), a), 0);
}

}  // namespace
}  // namespace kvplan
