// vLLM's start-up refusals: the verdict is the engine's outcome, with its own
// message, and the fixes are re-planned layouts that pass the check.
#include <gtest/gtest.h>

#include "base/text.h"
#include "base/units.h"
#include "catalog/model_loader.h"
#include "engines/vllm/vllm.h"
#include "testing/test_data.h"
#include "testing/test_models.h"

namespace kvplan {
namespace {

PlanResult Plan(const std::string& version, const ModelSpec& m, const GpuSpec& gpu,
                const std::vector<std::string>& flags) {
  return PlanVllm(version, m, gpu, ParseVllmArgs(flags), {});
}

const Fix* FindFix(const PlanResult& r, const std::string& flag) {
  for (const Fix& f : r.fixes) {
    if (f.flag == flag) return &f;
  }
  return nullptr;
}

double GpusPerReplica(const PlanResult& r) {
  const Figure* f = r.FindFigure("gpus_per_replica");
  return f ? f->value : -1;
}

// EvolvingLMMs-Lab/LongVT#9 (2025-12-20): `vllm serve Qwen/Qwen2.5-72B-Instruct
// --max-model-len 131072 --tensor-parallel-size 8` stopped with this text (in
// pydantic's "Value error, ... [type=value_error ...]" wrapper). The message
// depends only on the asked and derived lengths; Qwen2.5-7B-Instruct's config
// has the same max_position_embeddings 32768 and no rope scaling.
// Qwen3 arrived in vLLM 0.8.4 (its release notes: "Support Qwen3 and Qwen3MoE (#15289)"):
// 0.8.3's model registry refuses the architecture before any memory is sized.
TEST(VllmStartupChecks, AnArchitectureOlderReleasesDoNotServeIsRefused) {
  PlanResult old = Plan("0.8.3", testing::Qwen3_32B(), testing::H200(), {});
  EXPECT_FALSE(old.ok);
  EXPECT_EQ(
      old.error_message.rfind(
          "ValueError: Model architectures ['Qwen3ForCausalLM'] are not supported for now", 0),
      0u)
      << old.error_message;
  EXPECT_NE(old.error_message.find("it was added in 0.8.4"), std::string::npos)
      << old.error_message;
  const Fix* f = FindFix(old, "--engine");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->value, "vllm@0.8.4");
  EXPECT_TRUE(Plan("0.8.4", testing::Qwen3_32B(), testing::H200(), {}).ok);
  // An architecture whose first release kvplan does not know is planned on every release.
  EXPECT_TRUE(Plan("0.6.0", testing::Llama31_8B(), testing::H100(), {}).ok);
}

TEST(VllmStartupChecks, MaxModelLenAboveTheModelIsRefused) {
  ModelSpec m = LoadModel("Qwen/Qwen2.5-7B-Instruct");
  ASSERT_EQ(m.max_position_embeddings, 32768);
  PlanResult r = Plan("0.13.0", m, testing::H100(),
                      {"--max-model-len", "131072", "--tensor-parallel-size", "4"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "User-specified max_model_len (131072) is greater than the derived max_model_len "
            "(max_position_embeddings=32768.0 or model_max_length=None in model's config.json). "
            "To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. "
            "VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution. If the model uses "
            "relative position encoding (RoPE), positions exceeding derived_max_model_len lead to "
            "nan. If the model uses absolute position encoding, positions exceeding "
            "derived_max_model_len will cause a CUDA array out-of-bounds error.");
  EXPECT_EQ(GpusPerReplica(r), 4);
  const Fix* shorter = FindFix(r, "--max-model-len");
  ASSERT_NE(shorter, nullptr);
  EXPECT_EQ(shorter->value, "32768");
  EXPECT_NE(FindFix(r, "VLLM_ALLOW_LONG_MAX_MODEL_LEN"), nullptr);
}

// Before 0.10.0 (PR #20904) the message carried the risk itself and the
// derived length was an int: vllm-project/vllm#8793 (2024-09-25, the 0.6
// image, Qwen2.5-72B-Instruct --max-model-len 131072) logged "ValueError:
// User-specified max_model_len (131072) is greater than the derived
// max_model_len (max_position_embeddings=32768 or model_max_length=None in
// model's config.json). This may lead to incorrect model outputs or CUDA
// errors. To allow overriding this maximum, set the env var VLLM_ALLOW_LONG_..."
TEST(VllmStartupChecks, MaxModelLenMessageBeforeTen) {
  PlanResult r = Plan("0.9.2", LoadModel("Qwen/Qwen2.5-7B-Instruct"), testing::H100(),
                      {"--max-model-len", "131072"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "User-specified max_model_len (131072) is greater than the derived max_model_len "
            "(max_position_embeddings=32768 or model_max_length=None in model's config.json). "
            "This may lead to incorrect model outputs or CUDA errors. To allow overriding this "
            "maximum, set the env var VLLM_ALLOW_LONG_MAX_MODEL_LEN=1");
}

// Llama-3.1-8B (131,072 positions) with --max-model-len 200000 plans as vLLM
// runs it: refused without the override, started with a warning under it.
TEST(VllmStartupChecks, LongMaxModelLenOverride) {
  ModelSpec m = testing::Llama31_8B();
  PlanResult refused = Plan("", m, testing::H100(), {"--max-model-len", "200000"});
  EXPECT_FALSE(refused.ok);
  EXPECT_EQ(refused.error_message.rfind("User-specified max_model_len (200000)", 0), 0u);
  for (const std::string& w : refused.warnings) {
    EXPECT_EQ(w.find("User-specified"), std::string::npos) << w;  // the verdict says it
  }
  PlanResult allowed = Plan("", m, testing::H100(),
                            {"VLLM_ALLOW_LONG_MAX_MODEL_LEN=1", "--max-model-len", "200000"});
  EXPECT_TRUE(allowed.ok) << allowed.error_message;
  EXPECT_EQ(allowed.context_length, 200000);
  bool warned = false;
  for (const std::string& w : allowed.warnings) {
    warned |= w.rfind("User-specified max_model_len (200000) is greater", 0) == 0 &&
              w.find("must be used with extreme caution") != std::string::npos;
  }
  EXPECT_TRUE(warned);
  // The fix re-plans exactly the override.
  const Fix* fix = FindFix(refused, "VLLM_ALLOW_LONG_MAX_MODEL_LEN");
  ASSERT_NE(fix, nullptr);
  EXPECT_NE(fix->effect.find(WithThousands(allowed.max_total_num_tokens) + " KV tokens"),
            std::string::npos)
      << fix->effect;
}

// Qwen2.5-7B (28 heads, 4 KV heads, vocabulary 152,064 = 64 x 2,376) at TP 7:
// the heads pass the config check (28 = 7 x 4), then the embedding's divide()
// fails; the nearest TP that loads is 4 (5 and 6 do not divide the heads) and
// none up to 16 does above.
TEST(VllmStartupChecks, VocabularyNotDivisibleIsRefusedWithNearestTp) {
  PlanResult r =
      Plan("", LoadModel("Qwen/Qwen2.5-7B"), testing::H100(), {"--tensor-parallel-size", "7"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message, "AssertionError: 152064 is not divisible by 7");
  EXPECT_EQ(GpusPerReplica(r), 7);
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].flag, "--tensor-parallel-size");
  EXPECT_EQ(r.fixes[0].value, "4");
}

// The heads check was an InputError before; now it is the engine's refusal
// (vllm-project/vllm#414: "Total number of attention heads (52) must be
// divisible by tensor parallel size (3).").
TEST(VllmStartupChecks, HeadsNotDivisibleIsARefusedPlan) {
  PlanResult r = Plan("0.10.1", testing::Llama31_8B(), testing::H100(), {"-tp", "3"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "Total number of attention heads (32) must be divisible by tensor parallel size (3).");
  ASSERT_EQ(r.fixes.size(), 2u);
  EXPECT_EQ(r.fixes[0].value, "2");
  EXPECT_EQ(r.fixes[1].value, "4");
}

// phi-4 has 10 KV heads: at TP 4 they neither split (10 % 4) nor replicate.
TEST(VllmStartupChecks, KvHeadsNotSplittable) {
  ModelSpec phi4 = LoadModel(testing::RealData("configs/microsoft--phi-4.json"));
  PlanResult r = Plan("", phi4, testing::H100(), {"--tensor-parallel-size", "4"});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message,
            "AssertionError at `assert self.total_num_kv_heads % tp_size == 0` (10 KV heads, TP "
            "size 4)");
  EXPECT_TRUE(Plan("", phi4, testing::H100(), {"--tensor-parallel-size", "2"}).ok);
}

// DeepSeek-V3 on one H100: ~627 GiB of fp8 weights against ~79 GiB. vLLM
// runs out of memory loading them, before any KV sizing; even TP 8 leaves
// ~79.3 GiB per rank (above the 78.7 GiB free), so the fix is PP 2 over TP 8,
// 16 GPUs (the published deployments use two 8-GPU H100 nodes).
TEST(VllmStartupChecks, WeightsLargerThanTheGpuGetTheSmallestLayout) {
  PlanResult r = Plan("", testing::DeepSeekV3(), testing::H100(), {});
  EXPECT_FALSE(r.ok);
  EXPECT_EQ(r.error_message.rfind("torch.OutOfMemoryError: CUDA out of memory while loading", 0),
            0u)
      << r.error_message;
  EXPECT_GT(r.weights_bytes_per_gpu, 600 * kGiB);
  EXPECT_TRUE(r.memory.empty());  // no bar of a GPU filled eight times over
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].flag, "--pipeline-parallel-size");
  EXPECT_EQ(r.fixes[0].value, "2");
  EXPECT_EQ(
      r.fixes[0].effect.rfind("with --tensor-parallel-size 8: 16 GPUs per replica; starts", 0), 0u);
  PlanResult tp8 =
      Plan("", testing::DeepSeekV3(), testing::H100(), {"--tensor-parallel-size", "8"});
  EXPECT_FALSE(tp8.ok);
  EXPECT_GT(tp8.weights_bytes_per_gpu, tp8.pre_load_free_bytes);
}

// Llama-3.1-70B in bf16 (~131 GiB) on one H100: TP 2 loads (~66 GiB per rank)
// but leaves no room for one 131,072-token request, TP 3 does not divide the
// 64 heads, so the smallest TP that starts is 4.
TEST(VllmStartupChecks, SmallestTpThatStarts) {
  PlanResult r = Plan("", testing::Llama31_70B(), testing::H100(), {});
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.fixes.size(), 1u);
  EXPECT_EQ(r.fixes[0].flag, "--tensor-parallel-size");
  EXPECT_EQ(r.fixes[0].value, "4");
  EXPECT_FALSE(Plan("", testing::Llama31_70B(), testing::H100(), {"-tp", "2"}).ok);
}

// A logged KV budget means the launch loaded: no load refusal from estimates.
TEST(VllmStartupChecks, MeasuredLaunchesLoaded) {
  VllmMeasured m = VllmMeasuredFromGiB({{"kv_cache", 6.74}});
  PlanResult r = PlanVllm("0.7.0", testing::Llama31_70B(), testing::H100(),
                          ParseVllmArgs({"--max-model-len", "2048"}), m);
  EXPECT_EQ(r.error_message.find("while loading"), std::string::npos) << r.error_message;
}

}  // namespace
}  // namespace kvplan
