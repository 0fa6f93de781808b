#include "simulate/calibration.h"

#include <fmt/format.h>

#include "engines/sglang/era.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Fitted by scripts/fit-sim-calibration.py on the fit half of the visible
// measured runs (docs/SIMULATOR_VALIDATION.md "Calibration": values, meaning,
// the points that fitted them and the error on the held-out half).
// SGLang: every fitted point is a 0.5 release (0.5.1.post1 to 0.5.10.post1) of
// a 32B-or-larger model, so the 0.4 releases stay at identity. SGLang's README
// figure for 0.3.0 (Llama-3.1-8B, one A100, 4 req/s: TTFT p50 32 ms) shows the
// 160 ms is not every SGLang's (docs/SIMULATOR_VALIDATION.md, What is left).
// Rerun with the points expressed since, the search picks x1.0, 2 ms, 200 ms: better on the
// held-out half overall, worse on the bounded runs' held-out points (TPOT 10.9 -> 14.3 %), so
// these stay.
constexpr SimCalibration kSglang{1.1, 1500, 160000, ""};
constexpr int64_t kSglangFittedFrom = SglangVersionKey(0, 5, 0);
// The smallest model the SGLang fit saw is Qwen3-32B (32.8 B parameters); below it the 160 ms
// admission floor is not there to see (the README's 8B figure above), so smaller models keep
// the model as it is rather than borrow the large models' factors.
constexpr int64_t kSglangSmallestFittedParams = 30'000'000'000;
constexpr SimCalibration kIdentity{1.0, 0, 0, ""};
// vLLM: the search on its fit points (decode scale 0.9-1.1, step 0-1 ms,
// admission 0-30 ms) gained under 5 % of the objective: none is adopted. With the
// MoE points expressed since (docs/SIMULATOR_VALIDATION.md) it picks x0.9, 1 ms,
// 30 ms, the grid's corner, which leaves the held-out half level overall but
// triples the held-out TTFT error of the bounded runs (26 -> 82 %: the small
// sim-to-real models' TTFT is under 30 ms), so it is not adopted either.
constexpr SimCalibration kVllm{1.0, 0, 0, ""};

double Checked(const char* flag, std::optional<double> v, double fallback, double lo, double hi) {
  if (!v) return fallback;
  // Written as what must hold, so NaN fails too.
  if (!(*v >= lo && *v <= hi)) {
    throw InputError(fmt::format("{} {} must be between {} and {}", flag, *v, lo, hi));
  }
  return *v;
}

}  // namespace

SimCalibration SimCalibrationFor(const std::string& engine, const std::string& version,
                                 int64_t model_params, const SimCalibrationOverrides& o) {
  SimCalibration d = kVllm;
  if (engine == "sglang") {
    std::string canonical;
    int64_t key = 0;
    SglangEraFor(version, &canonical, &key);
    d = kIdentity;
    if (key < kSglangFittedFrom) {
      d.outside_fit = "SGLang's factors were fitted on 0.5 releases only";
    } else if (model_params < kSglangSmallestFittedParams) {
      d.outside_fit = "SGLang's factors were fitted on models of 32B parameters and more only";
    } else {
      d = kSglang;
    }
  }
  constexpr double kHourUs = 3.6e9;
  SimCalibration c;
  c.decode_scale = Checked("--calib-decode-scale", o.decode_scale, d.decode_scale, 0.1, 10);
  c.step_fixed_us = Checked("--calib-step-us", o.step_fixed_us, d.step_fixed_us, 0, kHourUs);
  c.admission_us = Checked("--calib-admission-us", o.admission_us, d.admission_us, 0, kHourUs);
  if (!o.decode_scale && !o.step_fixed_us && !o.admission_us) c.outside_fit = d.outside_fit;
  return c;
}

}  // namespace kvplan
