// The simulator's calibration factors act as their names say: at
// concurrency 1 (an idle engine for every request) the admission latency adds
// exactly to TTFT and E2E, and each decode step takes decode_scale times the
// model's time plus the fixed step time; out-of-range values are input errors.
#include "simulate/calibration.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "kvplan/error.h"
#include "kvplan/simulate.h"
#include "simulate/scheduler_test_util.h"

namespace kvplan {
namespace {

constexpr int64_t kLarge = 235'093'634'560;  // Qwen3-235B-A22B

SimulateResult AtConcurrencyOne(const SimCalibrationOverrides& c) {
  SimulateQuery q;
  q.launch.engine = "sglang";
  q.launch.model = "meta-llama/Llama-3.1-8B-Instruct";
  q.launch.gpu = "h100";
  q.workload = testing::ClosedLoop(1, 4, 1024, 65);
  q.calib = c;
  return Simulate(q);
}

TEST(SimCalibrationTest, AdmissionLatencyAddsToTtftAndE2eOnAnIdleEngine) {
  const SimulateResult base = AtConcurrencyOne({1.0, 0.0, 0.0});
  const SimulateResult late = AtConcurrencyOne({1.0, 0.0, 5000.0});
  EXPECT_NEAR(late.ttft_ms.mean, base.ttft_ms.mean + 5.0, 1e-6);
  EXPECT_NEAR(late.e2e_ms.mean, base.e2e_ms.mean + 5.0, 1e-6);
  EXPECT_NEAR(late.tpot_ms.mean, base.tpot_ms.mean, 1e-9);
}

TEST(SimCalibrationTest, DecodeStepsScaleAndEveryStepPaysTheFixedTime) {
  const SimulateResult base = AtConcurrencyOne({1.0, 0.0, 0.0});
  const SimulateResult slow = AtConcurrencyOne({1.2, 300.0, 0.0});
  // One decode step per later token: 1.2 x the model's, plus 0.3 ms.
  EXPECT_NEAR(slow.tpot_ms.mean, 1.2 * base.tpot_ms.mean + 0.3, 1e-6);
  // The prefill step is not scaled; it pays the fixed time once.
  EXPECT_NEAR(slow.ttft_ms.mean, base.ttft_ms.mean + 0.3, 1e-6);
}

TEST(SimCalibrationTest, UnsetFactorsKeepTheEnginesDefaultsAndSetOnesWin) {
  const SimCalibration d = SimCalibrationFor("sglang", "0.5.9", kLarge, {});
  const SimCalibration o =
      SimCalibrationFor("sglang", "0.5.9", kLarge, {std::nullopt, 700.0, std::nullopt});
  EXPECT_EQ(o.decode_scale, d.decode_scale);
  EXPECT_EQ(o.admission_us, d.admission_us);
  EXPECT_EQ(o.step_fixed_us, 700.0);
}

// The fit saw only 0.5 releases: a 0.4 release keeps the model as it is.
TEST(SimCalibrationTest, ReleasesTheFitDidNotSeeStayAtIdentity) {
  const SimCalibration old = SimCalibrationFor("sglang", "0.4.6", kLarge, {});
  EXPECT_EQ(old.decode_scale, 1.0);
  EXPECT_EQ(old.step_fixed_us, 0.0);
  EXPECT_EQ(old.admission_us, 0.0);
  EXPECT_GT(SimCalibrationFor("sglang", "0.5.1.post1", kLarge, {}).admission_us, 0.0);
}

// The fit saw only 32B-and-larger models: an 8B model keeps the model as it is, said so.
TEST(SimCalibrationTest, ModelsSmallerThanTheFitsStayAtIdentity) {
  const SimCalibration small = SimCalibrationFor("sglang", "0.5.9", 8'030'261'248, {});
  EXPECT_EQ(small.admission_us, 0.0);
  EXPECT_EQ(small.decode_scale, 1.0);
  EXPECT_STREQ(small.outside_fit,
               "SGLang's factors were fitted on models of 32B parameters and more only");
  EXPECT_GT(SimCalibrationFor("sglang", "0.5.9", 32'762'123'264, {}).admission_us, 0.0);
  // A factor the user sets is theirs: no "not calibrated" note.
  EXPECT_STREQ(
      SimCalibrationFor("sglang", "0.5.9", 8'030'261'248, {1.2, std::nullopt, std::nullopt})
          .outside_fit,
      "");
}

TEST(SimCalibrationTest, OutOfRangeValuesAreInputErrors) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(SimCalibrationFor("vllm", "0.12.0", kLarge, {0.0, std::nullopt, std::nullopt}),
               InputError);
  EXPECT_THROW(SimCalibrationFor("vllm", "0.12.0", kLarge, {nan, std::nullopt, std::nullopt}),
               InputError);
  EXPECT_THROW(SimCalibrationFor("vllm", "0.12.0", kLarge, {std::nullopt, -1.0, std::nullopt}),
               InputError);
  EXPECT_THROW(SimCalibrationFor("sglang", "0.5.9", kLarge, {std::nullopt, std::nullopt, 4e9}),
               InputError);
}

}  // namespace
}  // namespace kvplan
