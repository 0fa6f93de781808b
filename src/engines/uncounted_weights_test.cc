// A plan of a checkpoint whose encoder kvplan does not size (ModelSpec::uncounted_weights) says
// so under every engine, unless the user gave the logged figure that measures the weights: the
// real GLM-4.5V config (tests/data/real/configs/SOURCES.md), whose vision tower is not counted,
// and the real Qwen3-14B config, which counts everything.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "engines/engine.h"
#include "testing/test_data.h"

namespace kvplan {
namespace {

bool WarnsOfUncountedWeights(const PlanResult& r) {
  for (const std::string& w : r.warnings) {
    if (w.find("the weights leave out the checkpoint's vision tower") != std::string::npos) {
      return true;
    }
  }
  return false;
}

PlanResult PlanOn(const std::string& engine, const std::string& config,
                  std::vector<std::string> args = {}) {
  PlanRequest req;
  req.engine = engine;
  req.model = testing::RealData(config);
  req.gpu = "h200";
  req.args = std::move(args);
  return PlanLaunch(req);
}

TEST(UncountedWeights, EveryEngineWarnsWhenATowerIsLeftOut) {
  const std::string glm = "configs/zai-org--GLM-4.5V.json";
  EXPECT_TRUE(WarnsOfUncountedWeights(PlanOn("vllm", glm, {"--tensor-parallel-size", "4"})));
  EXPECT_TRUE(WarnsOfUncountedWeights(PlanOn("sglang", glm, {"--tp", "4"})));
  // A counted model carries no such warning.
  EXPECT_FALSE(WarnsOfUncountedWeights(PlanOn("vllm", "configs/Qwen--Qwen3-14B.json")));
}

TEST(UncountedWeights, ALoggedWeightFigureSilencesIt) {
  PlanRequest req;
  req.engine = "vllm";
  req.model = testing::RealData("configs/zai-org--GLM-4.5V.json");
  req.gpu = "h200";
  req.args = {"--tensor-parallel-size", "4"};
  req.measured_gib["weights"] = 52.0;  // a figure as vLLM logs it ("Model loading took")
  EXPECT_FALSE(WarnsOfUncountedWeights(PlanLaunch(req)));
}

}  // namespace
}  // namespace kvplan
