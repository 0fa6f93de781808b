#include "cli/efficiency_flags.h"

namespace kvplan::cli {

void AddEfficiencyOptions(Command* cmd, Efficiency* eff) {
  cmd->add_option("--memory-efficiency", eff->memory,
                  "Share of peak HBM bandwidth reached (default 0.8)");
  cmd->add_option("--gemm-efficiency", eff->gemm, "Share of peak FLOP/s in GEMMs (default 0.7)");
  cmd->add_option("--kernel-us", eff->kernel_graph_us,
                  "GPU time of one small kernel under CUDA graphs, us (default 1)");
  cmd->add_option("--attention-efficiency", eff->attention,
                  "Share of peak reached by the attention kernels (default 0.5)");
  cmd->add_option("--spec-overhead-us", eff->spec_iteration_overhead_us,
                  "Host cost of one speculative iteration, us (default 150)");
  cmd->add_option("--spec-v1-serial-us", eff->sglang_spec_v1_serial_us,
                  "Host time SGLang's spec v1 adds per iteration with the overlap scheduler off, "
                  "us (default 1000)");
}

// The simulator's calibration factors (kvplan/sim_calibration.h); unset, the
// engine's fitted defaults.
void AddCalibrationOptions(Command* cmd, SimCalibrationOverrides* c) {
  cmd->add_option("--calib-decode-scale", c->decode_scale,
                  "Decode step time against the performance model's (default: fitted per engine)");
  cmd->add_option("--calib-step-us", c->step_fixed_us,
                  "Host time per step the engine does not hide, us (default: fitted per engine)");
  cmd->add_option("--calib-admission-us", c->admission_us,
                  "Time from sending a request to the scheduler seeing it, us (default: fitted)");
}

}  // namespace kvplan::cli
