#include "perf/custom_allreduce.h"

#include "perf/comm_calibration.h"

namespace kvplan {

namespace {
// vllm custom_all_reduce.py @00d618a / sglang @004e656: _MAX_CAR_SIZE = 8192 * 1024.
constexpr int64_t kMaxCustomArBytes = 8192 * 1024;
}  // namespace

CustomArDecision ChooseCustomAllreduce(int n, int64_t bytes, const Fabric& f, bool forced) {
  if (n != 2 && n != 4 && n != 6 && n != 8) {
    return {CustomArKernel::kNone, "world size " + std::to_string(n) + " not in {2,4,6,8}"};
  }
  if (!f.p2p) return {CustomArKernel::kNone, "no P2P between GPUs"};
  // custom_all_reduce.py: "not supported on more than two PCIe-only GPUs".
  if (n > 2 && !f.fully_connected && !forced) {
    return {CustomArKernel::kNone, "more than two PCIe-only GPUs"};
  }
  if (bytes > kMaxCustomArBytes) return {CustomArKernel::kNone, "message above 8 MiB"};
  if (bytes % 16 != 0) return {CustomArKernel::kNone, "size not a multiple of 16 bytes"};
  // custom_all_reduce.cuh @036bb68: world size 2 -> 1-stage; full NVLink ->
  // 1-stage if (ws<=4 and < 512 KB) or (ws<=8 and < 256 KB), else 2-stage;
  // PCIe -> the one-shot style kernel (every rank reads every peer).
  if (n == 2 || !f.nvlink) return {CustomArKernel::kOneShot, "one-shot"};
  if ((n <= 4 && bytes < 512 * 1024) || (n <= 8 && bytes < 256 * 1024)) {
    return {CustomArKernel::kOneShot, "one-shot"};
  }
  return {CustomArKernel::kTwoShot, "two-shot"};
}

double CustomAllreduceUs(CustomArKernel kernel, int n, int64_t bytes, const Fabric& f) {
  if (kernel == CustomArKernel::kNone || n <= 1) return 0;
  const double s = static_cast<double>(bytes);
  const double base = comm_calibration::kCustomArBaseUs;
  if (kernel == CustomArKernel::kOneShot) return base + (n - 1) * s / f.oneshot_link_bw * 1e6;
  // Two phases, each moving (n-1)/n of the buffer, each with its own barrier.
  return 2 * base + 2.0 * (n - 1) / n * s / f.oneshot_link_bw * 1e6;
}

}  // namespace kvplan
