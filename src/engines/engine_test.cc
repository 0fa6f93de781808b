#include "engines/engine.h"

#include <gtest/gtest.h>

#include <string>

#include "kvplan/plan.h"

namespace kvplan {
namespace {

PlanRequest Qwen3On(const std::string& engine, const std::string& version) {
  PlanRequest req;
  req.engine = engine;
  req.version = version;
  req.model = "Qwen/Qwen3-8B";
  req.gpu = "h100";
  return req;
}

// A release kvplan chose itself is the first warning, naming the release and the flag.
TEST(PlanLaunch, SaysWhenItChoseTheRelease) {
  const PlanResult r = PlanLaunch(Qwen3On("vllm", ""));
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_EQ(r.warnings[0],
            "no engine release given: planned with vllm " + r.engine_version +
                ", the newest rules kvplan has; pass --engine vllm@VERSION for the one you run");
  const PlanResult given = PlanLaunch(Qwen3On("vllm", "0.11.0"));
  for (const std::string& w : given.warnings) EXPECT_EQ(w.find("release"), std::string::npos) << w;
}

// The release of a pasted command's image plans that release; --engine's own wins, noted.
TEST(PlanLaunch, PastedReleaseIsPlannedAndAnotherOneIsNoted) {
  PlanRequest req = Qwen3On("sglang", "");
  req.pasted_release = "0.5.6";
  req.pasted_release_source = "the docker image lmsysorg/sglang:v0.5.6";
  PlanResult r = PlanLaunch(req);
  EXPECT_EQ(r.engine_version, "0.5.6");
  ASSERT_FALSE(r.warnings.empty());
  EXPECT_EQ(r.warnings[0], "release 0.5.6 read from the docker image lmsysorg/sglang:v0.5.6");
  req.version = "0.5.3";
  r = PlanLaunch(req);
  EXPECT_EQ(r.engine_version, "0.5.3");
  EXPECT_EQ(
      r.warnings[0],
      "--engine sglang@0.5.3 plans 0.5.3; the docker image lmsysorg/sglang:v0.5.6 runs 0.5.6");
  // An image whose tag names no release: the newest rules, and why.
  req.version = "";
  req.pasted_release = "";
  req.pasted_release_source = "the docker image lmsysorg/sglang:latest";
  r = PlanLaunch(req);
  EXPECT_EQ(r.warnings[0].rfind("the docker image lmsysorg/sglang:latest names no release: "
                                "planned with sglang ",
                                0),
            0u)
      << r.warnings[0];
}

// A release after the newest kvplan models is planned with the newest rules, and said so
// (vLLM refused it before; TensorRT-LLM used 1.2's rules without a word).
TEST(PlanLaunch, ANewerReleaseIsPlannedWithTheNewestRulesAndSaysSo) {
  const auto said = [](const std::string& engine, const std::string& version,
                       const std::string& words) {
    const PlanResult r = PlanLaunch(Qwen3On(engine, version));
    EXPECT_EQ(r.engine_version, version);
    bool found = false;
    for (const std::string& w : r.warnings) found |= w.rfind(words, 0) == 0;
    return found;
  };
  EXPECT_TRUE(
      said("vllm", "0.30.1", "vLLM 0.30.1 is newer than the newest modelled release (0.28)"));
  EXPECT_TRUE(said("trtllm", "1.3.0",
                   "TensorRT-LLM 1.3.0 is newer than the newest modelled release (1.2)"));
  EXPECT_TRUE(said("sglang", "0.5.25", "SGLang 0.5.25 is newer than the newest modelled release"));
  EXPECT_FALSE(said("vllm", "0.28.0", "vLLM 0.28.0 is newer"));
  EXPECT_FALSE(said("trtllm", "1.2.0", "TensorRT-LLM 1.2.0 is newer"));
}

}  // namespace
}  // namespace kvplan
