// The first serving releases (catalog/engine_support.cc) as a plan meets them: a release
// that predates the model is refused naming both releases; the first one plans.
#include "catalog/engine_support.h"

#include <gtest/gtest.h>

#include <string>

#include "kvplan/error.h"
#include "kvplan/plan.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

std::string PlanErrorAt(const std::string& engine, const std::string& version) {
  PlanRequest r;
  r.engine = engine;
  r.version = version;
  r.model = testing::RealData("configs/google--gemma-4-26B-A4B.json");
  r.gpu = "h100";
  try {
    PlanLaunch(r);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
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

}  // namespace
}  // namespace kvplan
