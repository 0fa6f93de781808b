#include "perf/nccl_model.h"

#include <gtest/gtest.h>

#include "kvplan/error.h"
#include "perf/reference_hardware.h"

namespace kvplan {
namespace {

Fabric H100(int n) { return MakeFabric(ReferenceGpu("h100-sxm"), Topology::kNvswitch, n); }
Fabric Pro6000(int n) {
  return MakeFabric(ReferenceGpu("rtx-pro-6000-server"), Topology::kPcieSwitch, n);
}

// perf-model.md 1.2 "[inferred] Model-predicted latency term for one-node
// allreduce": Ring LL NVLink n=2/4/8 = 7.8/10.2/15.0 us, PCIe 8.6/12.6/20.6;
// Tree LL NVLink 8.0/10.4/15.2, PCIe 8.8/12.8/20.8. Hand arithmetic:
// ring = 6.6 + 2(n-1) x 0.6 (NVLink) or x 1.0 (PCI); tree = 6.8 + 2(n-1) x hw.
TEST(NcclModel, ZeroByteLatencyMatchesNcclTables) {
  const auto t = [](const Fabric& f, int n, unsigned algos) {
    return NcclCollectiveTime(Collective::kAllReduce, 0, n, f, LaunchMode::kBackToBack, algos).us;
  };
  EXPECT_NEAR(t(H100(2), 2, kAlgoRing), 7.8, 1e-9);
  EXPECT_NEAR(t(H100(4), 4, kAlgoRing), 10.2, 1e-9);
  EXPECT_NEAR(t(H100(8), 8, kAlgoRing), 15.0, 1e-9);
  EXPECT_NEAR(t(Pro6000(2), 2, kAlgoRing), 8.6, 1e-9);
  EXPECT_NEAR(t(Pro6000(4), 4, kAlgoRing), 12.6, 1e-9);
  EXPECT_NEAR(t(Pro6000(8), 8, kAlgoRing), 20.6, 1e-9);
  EXPECT_NEAR(t(H100(8), 8, kAlgoTree), 15.2, 1e-9);
  EXPECT_NEAR(t(Pro6000(8), 8, kAlgoTree), 20.8, 1e-9);
  EXPECT_NEAR(t(H100(8), 8, kAlgoNvls), 25.0, 1e-9);  // NVLS: hwLat 25 us, one node
}

TEST(NcclModel, NvlinkBusBandwidthIsLinksTimesNcclPerLinkFigure) {
  // 450 GB/s / 25 GB/s per link = 18 NVLinks x 20.6 GB/s = 370.8 GB/s (topo.h SM90_NVLINK_BW).
  EXPECT_NEAR(H100(8).bus_bw, 370.8e9, 1e6);
  // PCIe Gen5 x16 = 48 GB/s in NCCL's model.
  EXPECT_NEAR(Pro6000(8).bus_bw, 48e9 * 0.9, 1e6);
}

TEST(NcclModel, PicksTheCheapestCandidate) {
  for (int n : {2, 4, 8}) {
    for (int64_t bytes : {int64_t{256}, int64_t{65536}, int64_t{1} << 24, int64_t{1} << 30}) {
      const Fabric f = H100(n);
      const CollectiveTime best =
          NcclCollectiveTime(Collective::kAllReduce, bytes, n, f, LaunchMode::kBackToBack);
      for (unsigned a : {kAlgoRing, kAlgoTree, kAlgoNvls}) {
        const double t =
            NcclCollectiveTime(Collective::kAllReduce, bytes, n, f, LaunchMode::kBackToBack, a).us;
        EXPECT_LE(best.us, t + 1e-9) << n << " " << bytes;
      }
    }
  }
}

TEST(NcclModel, SmallMessagesUseLlLargeUseBandwidthProtocols) {
  const CollectiveTime small =
      NcclCollectiveTime(Collective::kAllReduce, 1024, 8, H100(8), LaunchMode::kBackToBack);
  EXPECT_EQ(small.proto, NcclProto::kLL);
  const CollectiveTime large = NcclCollectiveTime(Collective::kAllReduce, int64_t{1} << 30, 8,
                                                  H100(8), LaunchMode::kBackToBack);
  EXPECT_EQ(large.algo, NcclAlgo::kNvls);
  EXPECT_EQ(large.proto, NcclProto::kSimple);
}

TEST(NcclModel, NoLl128OnPcie) {
  for (int64_t bytes = 64; bytes < (int64_t{1} << 31); bytes *= 4) {
    EXPECT_NE(
        NcclCollectiveTime(Collective::kAllReduce, bytes, 8, Pro6000(8), LaunchMode::kBackToBack)
            .proto,
        NcclProto::kLL128);
  }
}

TEST(NcclModel, TimeGrowsWithBytesAndIsFreeOnOneRank) {
  for (Collective c : {Collective::kAllReduce, Collective::kAllGather, Collective::kReduceScatter,
                       Collective::kAllToAll}) {
    double prev = 0;
    for (int64_t bytes = 16; bytes < (int64_t{1} << 30); bytes *= 2) {
      const double t = NcclCollectiveTime(c, bytes, 8, Pro6000(8), LaunchMode::kEager).us;
      EXPECT_GE(t, prev);
      prev = t;
    }
    EXPECT_EQ(NcclCollectiveTime(c, 1 << 20, 1, Pro6000(1), LaunchMode::kEager).us, 0);
  }
}

TEST(NcclModel, EagerCostsMoreThanGraphReplay) {
  const Fabric f = Pro6000(8);
  EXPECT_GT(NcclCollectiveTime(Collective::kAllReduce, 16384, 8, f, LaunchMode::kEager).us,
            NcclCollectiveTime(Collective::kAllReduce, 16384, 8, f, LaunchMode::kCudaGraph).us);
}

TEST(NcclModel, BusBandwidthDefinition) {
  // nccl-tests PERFORMANCE.md: allreduce busbw = algbw x 2(n-1)/n. 1 GB in 1 ms at n=8 -> 1750
  // GB/s.
  EXPECT_NEAR(BusBandwidth(Collective::kAllReduce, 1000000000, 8, 1000), 1.75e12, 1e3);
  EXPECT_NEAR(BusBandwidth(Collective::kAllGather, 1000000000, 8, 1000), 0.875e12, 1e3);
}

}  // namespace
}  // namespace kvplan

namespace kvplan {
namespace {

TEST(Topology, DefaultsAndNames) {
  EXPECT_EQ(DefaultTopology(ReferenceGpu("h200")), Topology::kNvswitch);
  EXPECT_EQ(DefaultTopology(ReferenceGpu("rtx-pro-6000-server")), Topology::kPcieSwitch);
  EXPECT_EQ(DefaultTopology(ReferenceGpu("rtx-4090")), Topology::kPcieNoP2p);
  for (const std::string& n : TopologyNames()) EXPECT_EQ(TopologyName(ParseTopology(n)), n);
  EXPECT_EQ(ParseTopology("PCIE_SWITCH"), Topology::kPcieSwitch);
  EXPECT_THROW(ParseTopology("ring"), InputError);
  EXPECT_THROW(MakeFabric(ReferenceGpu("rtx-pro-6000-server"), Topology::kNvswitch, 8), InputError);
  EXPECT_EQ(ArchOf(ReferenceGpu("h100-pcie")), GpuArch::kHopper);
  EXPECT_EQ(ArchOf(ReferenceGpu("b200")), GpuArch::kBlackwell);
  EXPECT_EQ(ArchOf(ReferenceGpu("rtx-4090")), GpuArch::kAda);
}

}  // namespace
}  // namespace kvplan
