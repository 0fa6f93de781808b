// The first serving releases (catalog/engine_support.cc) as a plan meets them: a release
// that predates the model is refused naming both releases; the first one plans.
#include "catalog/engine_support.h"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <utility>

#include "catalog/architectures.h"
#include "kvplan/plan.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

std::string PlanErrorAt(const std::string& engine, const std::string& version,
                        const std::string& config = "configs/google--gemma-4-26B-A4B.json") {
  PlanRequest r;
  r.engine = engine;
  r.version = version;
  r.model = testing::RealData(config);
  r.gpu = "h100";
  return testing::InputErrorOf([&] { PlanLaunch(r); });
}

TEST(EngineSupport, Gemma4IsRefusedBeforeTheReleaseThatAddedIt) {
  // vLLM v0.19.0 release notes: "Gemma 4 support" (#38826). vLLM's registry refuses it
  // in its own words: a refused plan (engines/vllm/model_support.h), the fix the release.
  PlanRequest r;
  r.engine = "vllm";
  r.version = "0.18.0";
  r.model = testing::RealData("configs/google--gemma-4-26B-A4B.json");
  r.gpu = "h100";
  PlanResult old = PlanLaunch(r);
  EXPECT_FALSE(old.ok);
  EXPECT_EQ(old.error_message,
            "ValueError: Model architectures ['Gemma4ForConditionalGeneration'] are not supported "
            "for now. (kvplan: vLLM 0.18.0 does not serve it; it was added in 0.19.0, vLLM #38826 "
            "(gemma4.py))");
  EXPECT_EQ(PlanErrorAt("vllm", "0.19.0"), "");
  // SGLang #21952 (2026-04-02), after 0.5.9: its registry's refusal, the same words.
  r.engine = "sglang";
  r.version = "0.5.9";
  PlanResult sglang = PlanLaunch(r);
  EXPECT_FALSE(sglang.ok);
  EXPECT_EQ(sglang.error_message,
            "ValueError: Model architectures ['Gemma4ForConditionalGeneration'] are not supported "
            "for now. (kvplan: SGLang 0.5.9 does not serve it; it was added in 0.5.10, SGLang "
            "#21952)");
  EXPECT_EQ(PlanErrorAt("sglang", "0.5.14"), "");
}

TEST(EngineSupport, OnlyTheListedArchitecturesHaveABound) {
  EXPECT_FALSE(FirstServingRelease("LlamaForCausalLM", "vllm").has_value());
  ASSERT_TRUE(FirstServingRelease("Gemma3nForConditionalGeneration", "vllm").has_value());
  EXPECT_EQ(FirstServingRelease("Gemma3nForConditionalGeneration", "vllm")->text, "0.9.2");
}

// The refusal a plan at `version` gives (its error_message), "" when it plans.
std::string RefusalAt(const std::string& engine, const std::string& version,
                      const std::string& config) {
  PlanRequest r;
  r.engine = engine;
  r.version = version;
  r.model = testing::RealData(config);
  r.gpu = "h200";
  r.args = {engine == "vllm" ? "--tensor-parallel-size" : "--tp", "8"};
  const PlanResult p = PlanLaunch(r);
  return p.ok ? "" : p.error_message;
}

TEST(EngineSupport, DeciLmAndMimoAreRefusedBeforeTheReleasesThatAddedThem) {
  const std::string nas = "configs/nvidia--Llama-3_3-Nemotron-Super-49B-v1.json";
  // vLLM #15008 (nemotron_nas.py, 2025-03-18): 0.8.0 predates it, 0.8.2 serves it.
  EXPECT_EQ(RefusalAt("vllm", "0.8.0", nas),
            "ValueError: Model architectures ['DeciLMForCausalLM'] are not supported for now. "
            "(kvplan: vLLM 0.8.0 does not serve it; it was added in 0.8.2, vLLM #15008 "
            "(nemotron_nas.py))");
  EXPECT_EQ(RefusalAt("vllm", "0.8.2", nas), "");
  // SGLang #9067 (2025-08-11): sgl-project/sglang#4689 saw 0.4.x refuse it in these words.
  EXPECT_EQ(RefusalAt("sglang", "0.4.9", nas),
            "ValueError: Model architectures ['DeciLMForCausalLM'] are not supported for now. "
            "(kvplan: SGLang 0.4.9 does not serve it; it was added in 0.5.1, SGLang #9067 "
            "(nemotron_nas.py))");
  EXPECT_EQ(RefusalAt("sglang", "0.5.2", nas), "");
  const std::string mimo = "configs/XiaomiMiMo--MiMo-V2-Flash.json";
  // vLLM #30836 landed after the v0.13.0 branch; SGLang #15207 after 0.5.6.post2.
  EXPECT_EQ(RefusalAt("vllm", "0.13.0", mimo),
            "ValueError: Model architectures ['MiMoV2FlashForCausalLM'] are not supported for "
            "now. (kvplan: vLLM 0.13.0 does not serve it; it was added in 0.14.0, vLLM #30836 "
            "(mimo_v2_flash.py))");
  EXPECT_EQ(RefusalAt("vllm", "0.14.0", mimo), "");
  EXPECT_EQ(RefusalAt("sglang", "0.5.6.post2", mimo),
            "ValueError: Model architectures ['MiMoV2FlashForCausalLM'] are not supported for "
            "now. (kvplan: SGLang 0.5.6.post2 does not serve it; it was added in 0.5.7, SGLang "
            "#15207 (mimo_v2_flash.py))");
  EXPECT_EQ(RefusalAt("sglang", "0.5.9", mimo), "");
}

// An architecture added to the catalog (catalog/architectures.cc) must say, for each engine
// that gates by release, from which release the engine serves it, that every modelled release
// does, or why kvplan does not gate it: otherwise a plan of an older release describes a
// launch that stops in the model registry.
TEST(EngineSupport, EveryAcceptedArchitectureHasABoundUnderEachEngine) {
  int accepted = 0;
  for (const ArchitectureRow& a : ArchitectureRows()) {
    if (!a.accepted) continue;
    ++accepted;
    for (const char* engine : {"vllm", "sglang"}) {
      EXPECT_TRUE(ServingBoundOf(a.architecture, engine).has_value())
          << a.architecture << " has no row under " << engine
          << " in catalog/engine_support.cc (a first serving release, served by every "
             "modelled release, or not gated)";
    }
  }
  EXPECT_GE(accepted, 80);
}

TEST(EngineSupport, EachBoundNamesAnAcceptedArchitectureOnce) {
  std::map<std::pair<std::string, std::string>, int> seen;
  for (const ServingBoundRow& r : ServingBoundRows()) {
    EXPECT_NE(FindArchitecture(r.architecture), nullptr)
        << r.architecture << " (" << r.engine << ") is not an architecture kvplan reads";
    EXPECT_TRUE(r.engine == "vllm" || r.engine == "sglang") << r.engine;
    ++seen[{std::string(r.architecture), std::string(r.engine)}];
  }
  for (const auto& [key, count] : seen) {
    EXPECT_EQ(count, 1) << key.first << " under " << key.second << " is in " << count << " rows";
  }
}

TEST(EngineSupport, AnArchitectureServedByEveryModelledReleaseHasNoFirstRelease) {
  ASSERT_TRUE(ServingBoundOf("LlamaForCausalLM", "vllm").has_value());
  EXPECT_EQ(ServingBoundOf("LlamaForCausalLM", "vllm")->kind,
            ServingBound::Kind::kEveryModelledRelease);
  EXPECT_FALSE(FirstServingRelease("LlamaForCausalLM", "vllm").has_value());
  EXPECT_EQ(ServingBoundOf("BloomForCausalLM", "sglang")->kind, ServingBound::Kind::kNotGated);
  EXPECT_FALSE(FirstServingRelease("BloomForCausalLM", "sglang").has_value());
}

}  // namespace
}  // namespace kvplan
