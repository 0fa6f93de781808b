#include "perf/efficiency_options.h"

#include <fmt/format.h>

#include "kvplan/error.h"

namespace kvplan {

Efficiency CheckedEfficiency(const Efficiency& e) {
  const auto share = [](const char* flag, double v) {
    if (!(v > 0 && v <= 1)) throw InputError(fmt::format("{} {} must be in (0, 1]", flag, v));
  };
  share("--memory-efficiency", e.memory);
  share("--gemm-efficiency", e.gemm);
  share("--attention-efficiency", e.attention);
  // NaN fails every comparison, so each bound is written as what must hold;
  // an hour per kernel or iteration is already past any real host.
  const auto time_us = [](double v) { return v >= 0 && v <= 3.6e9; };
  if (!time_us(e.kernel_graph_us) || !time_us(e.kernel_eager_us) ||
      !time_us(e.spec_iteration_overhead_us) || !time_us(e.sglang_spec_v1_serial_us)) {
    throw InputError(
        "--kernel-us, --spec-overhead-us and --spec-v1-serial-us must be between 0 and 3.6e9 us");
  }
  return e;
}

}  // namespace kvplan
