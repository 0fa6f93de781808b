#include "perf/custom_allreduce.h"

#include <gtest/gtest.h>

#include "perf/reference_hardware.h"

namespace kvplan {
namespace {

Fabric Nv(int n) { return MakeFabric(ReferenceGpu("h100-sxm"), Topology::kNvswitch, n); }
Fabric Pcie(int n, Topology t = Topology::kPcieSwitch) {
  return MakeFabric(ReferenceGpu("rtx-pro-6000-server"), t, n);
}

// sglang custom_all_reduce.py @004e656 / vllm @00d618a conditions.
TEST(CustomAllreduce, EngineConditions) {
  EXPECT_EQ(ChooseCustomAllreduce(3, 4096, Nv(3), false).kernel, CustomArKernel::kNone);
  EXPECT_EQ(ChooseCustomAllreduce(8, 4096, Pcie(8), false).kernel, CustomArKernel::kNone);
  EXPECT_EQ(ChooseCustomAllreduce(2, 4096, Pcie(2), false).kernel, CustomArKernel::kOneShot);
  EXPECT_EQ(ChooseCustomAllreduce(8, 4096, Pcie(8), true).kernel, CustomArKernel::kOneShot);
  EXPECT_EQ(ChooseCustomAllreduce(8, 9 << 20, Nv(8), false).kernel, CustomArKernel::kNone);
  EXPECT_EQ(ChooseCustomAllreduce(8, 4100, Nv(8), false).kernel, CustomArKernel::kNone);
  const Fabric no_p2p = MakeFabric(ReferenceGpu("rtx-4090"), Topology::kPcieNoP2p, 2);
  EXPECT_EQ(ChooseCustomAllreduce(2, 4096, no_p2p, true).kernel, CustomArKernel::kNone);
  // 1-stage below 512 KB at ws <= 4 and below 256 KB at ws <= 8, else 2-stage.
  EXPECT_EQ(ChooseCustomAllreduce(4, 300 * 1024, Nv(4), false).kernel, CustomArKernel::kOneShot);
  EXPECT_EQ(ChooseCustomAllreduce(8, 300 * 1024, Nv(8), false).kernel, CustomArKernel::kTwoShot);
  EXPECT_EQ(ChooseCustomAllreduce(8, 200 * 1024, Nv(8), false).kernel, CustomArKernel::kOneShot);
}

// One-shot on PCIe: each rank reads n-1 peers' buffers over its own link, so
// the traffic is (n-1) S against a ring's 2(n-1)/n S (perf-model.md 3).
TEST(CustomAllreduce, OneShotCostGrowsWithPeers) {
  const int64_t s = 64 * 1024;
  const double t4 = CustomAllreduceUs(CustomArKernel::kOneShot, 4, s, Pcie(4));
  const double t8 = CustomAllreduceUs(CustomArKernel::kOneShot, 8, s, Pcie(8));
  EXPECT_GT(t8, 2 * (t4 - 7.0));
  // Hand arithmetic: 7 us + 7 x 65536 B / (48 GB/s / (1 + 0.15 x 7)).
  EXPECT_NEAR(t8, 7.0 + 7 * 65536.0 / (48e9 / 2.05) * 1e6, 1e-9);
}

TEST(CustomAllreduce, TwoShotMovesLessThanOneShotForLargeBuffers) {
  const int64_t s = 4 << 20;
  EXPECT_LT(CustomAllreduceUs(CustomArKernel::kTwoShot, 8, s, Nv(8)),
            CustomAllreduceUs(CustomArKernel::kOneShot, 8, s, Nv(8)));
}

}  // namespace
}  // namespace kvplan
