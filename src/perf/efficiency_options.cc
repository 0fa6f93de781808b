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
  if (e.kernel_graph_us < 0 || e.kernel_eager_us < 0 || e.spec_iteration_overhead_us < 0 ||
      e.sglang_spec_v1_serial_us < 0) {
    throw InputError("--kernel-us, --spec-overhead-us and --spec-v1-serial-us must be >= 0");
  }
  return e;
}

}  // namespace kvplan
