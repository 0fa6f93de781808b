// The simulator's calibration factors: what the step-time model and the
// schedulers do not capture of a serving engine, each a named physical
// quantity. Their defaults are fitted on the visible measured runs (one
// table, src/simulate/calibration.cc; the fit and its held-out error are in
// docs/SIMULATOR_VALIDATION.md); a user can set each one (kvplan simulate's
// --calib-* flags) to recalibrate from their own measurement.
#pragma once

#include <optional>
#include <string>

namespace kvplan {

struct SimCalibration {
  // GPU time of a decode-only step against the performance model's forward
  // pass (1 = the model as is; 1.1 = steps take 10 % longer). Prefill and
  // mixed steps keep the model's time: the fit found no gain in scaling them.
  double decode_scale = 1.0;
  // Per-step time outside the forward pass that the engine does not hide
  // (sampling, result copies, scheduler bookkeeping), microseconds.
  double step_fixed_us = 0;
  // From the client sending a request to the scheduler seeing it (HTTP,
  // tokenizer, inter-process queue), microseconds; it adds to TTFT and E2E.
  double admission_us = 0;
  // Why the engine's defaults are identity for this launch although some were fitted
  // (a release or model size the fit never saw); "" otherwise.
  const char* outside_fit = "";
};

// A user's overrides of an engine's defaults (unset: the default).
struct SimCalibrationOverrides {
  std::optional<double> decode_scale, step_fixed_us, admission_us;
};

}  // namespace kvplan
