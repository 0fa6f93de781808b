#include "perf/topology.h"

#include <algorithm>
#include <cctype>

#include "kvplan/error.h"
#include "perf/comm_calibration.h"

namespace kvplan {
namespace {

struct TopologyEntry {
  Topology topology;
  const char* name;
};
constexpr TopologyEntry kTopologies[] = {
    {Topology::kNvswitch, "nvswitch"},      {Topology::kNvlinkPairs, "nvlink-pairs"},
    {Topology::kPcieSwitch, "pcie-switch"}, {Topology::kPcieDualSocket, "pcie-dual-socket"},
    {Topology::kPcieNoP2p, "pcie-no-p2p"},
};

// NCCL src/graph/topo.h @5067397: per-NVLink bandwidth by generation (GB/s),
// against the nominal 25 (NVLink 3/4) or 50 (NVLink 5) GB/s per direction.
double NcclPerNvlinkBw(int generation) {
  if (generation >= 5) return 40.1e9;
  if (generation == 4) return 20.6e9;
  return 20.0e9;
}
double NominalPerNvlinkBw(int generation) { return generation >= 5 ? 50e9 : 25e9; }

// NCCL src/graph/topo.cc @5067397: PCIe bw = width * speed / 80 (GB/s):
// Gen3 x16 12, Gen4 24, Gen5 48, Gen6 96.
double NcclPcieBw(const GpuSpec& gpu) {
  if (gpu.pcie_generation >= 3) return 12e9 * static_cast<double>(1 << (gpu.pcie_generation - 3));
  if (gpu.pcie_bandwidth > 0) return gpu.pcie_bandwidth * 0.75;
  return 24e9;  // unknown: assume Gen4 x16
}

double NvlinkBusBw(const GpuSpec& gpu) {
  const double links = gpu.nvlink_bandwidth / NominalPerNvlinkBw(gpu.nvlink_generation);
  return links * NcclPerNvlinkBw(gpu.nvlink_generation);
}

}  // namespace

GpuArch ArchOf(const GpuSpec& gpu) {
  if (gpu.nvlink_generation >= 5 || gpu.fp4_flops > 0) return GpuArch::kBlackwell;
  if (gpu.nvlink_generation == 4) return GpuArch::kHopper;
  if (gpu.nvlink_generation == 3) return GpuArch::kAmpere;
  // PCIe Hopper cards (H100 PCIe) have FP8 like Ada; their ids start with "h".
  if (!gpu.id.empty() && gpu.id[0] == 'h' && gpu.fp8_flops > 0) return GpuArch::kHopper;
  if (gpu.fp8_flops > 0) return GpuArch::kAda;
  return GpuArch::kAmpere;
}

Topology ParseTopology(const std::string& name) {
  std::string lower = name;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) {
    return c == '_' ? '-' : static_cast<char>(std::tolower(c));
  });
  for (const auto& e : kTopologies) {
    if (lower == e.name) return e.topology;
  }
  std::string known;
  for (const auto& e : kTopologies) known += std::string(known.empty() ? "" : ", ") + e.name;
  throw InputError("unknown topology '" + name + "'; expected one of: " + known);
}

const char* TopologyName(Topology t) {
  for (const auto& e : kTopologies) {
    if (e.topology == t) return e.name;
  }
  return "?";
}

std::vector<std::string> TopologyNames() {
  std::vector<std::string> names;
  for (const auto& e : kTopologies) names.emplace_back(e.name);
  return names;
}

Topology DefaultTopology(const GpuSpec& gpu) {
  // NVSwitch boards, and AMD's fully connected Infinity Fabric (modelled with
  // RCCL = NCCL's constants at NVLink-3 per-link efficiency).
  if (gpu.link != LinkKind::kPcie && gpu.nvlink_bandwidth > 0) return Topology::kNvswitch;
  return gpu.p2p ? Topology::kPcieSwitch : Topology::kPcieNoP2p;
}

Fabric MakeFabric(const GpuSpec& gpu, Topology t, int n) {
  namespace cal = comm_calibration;
  if (n < 1) throw InputError("GPU count must be at least 1, got " + std::to_string(n));
  Fabric f;
  f.topology = t;
  f.arch = ArchOf(gpu);
  const double pcie = NcclPcieBw(gpu);
  switch (t) {
    case Topology::kNvswitch:
      if (gpu.nvlink_bandwidth <= 0) {
        throw InputError("topology nvswitch needs an NVLink GPU; " + gpu.id +
                         " has no NVLink (use pcie-switch, pcie-dual-socket or pcie-no-p2p)");
      }
      f.nvlink = true;
      f.fully_connected = true;
      f.nvls = (f.arch == GpuArch::kHopper || f.arch == GpuArch::kBlackwell) && n > 2;
      f.bus_bw = NvlinkBusBw(gpu);
      f.ll_bw_factor = 0.5;
      f.oneshot_link_bw = f.bus_bw;
      return f;
    case Topology::kNvlinkPairs:
      if (n <= 2) {
        f.nvlink = true;
        f.fully_connected = true;
        f.bus_bw = cal::kNvlinkBridgeLinks * NcclPerNvlinkBw(std::max(gpu.nvlink_generation, 4));
        f.ll_bw_factor = 0.5;
        f.oneshot_link_bw = f.bus_bw;
        return f;
      }
      // Beyond a pair the ring crosses PCIe: the PCIe links bound it.
      f.bus_bw = pcie * cal::kPcieSwitchEfficiency;
      f.ll_bw_factor = cal::kPcieLlBwFactor;
      f.oneshot_link_bw = pcie / (1 + cal::kPcieOneShotContention * (n - 1));
      return f;
    case Topology::kPcieSwitch:
      f.bus_bw = pcie * cal::kPcieSwitchEfficiency;
      f.ll_bw_factor = cal::kPcieLlBwFactor;
      f.oneshot_link_bw = pcie / (1 + cal::kPcieOneShotContention * (n - 1));
      return f;
    case Topology::kPcieDualSocket:
      f.bus_bw = pcie * cal::kPcieDualSocketEfficiency;
      f.hop_latency_scale = cal::kDualSocketHopLatencyScale;
      f.ll_bw_factor = cal::kPcieLlBwFactor;
      f.oneshot_link_bw = cal::kPcieCrossSocketOneShotBw;
      return f;
    case Topology::kPcieNoP2p:
      f.p2p = false;
      f.bus_bw = pcie * cal::kPcieNoP2pEfficiency;
      f.hop_latency_scale = cal::kNoP2pHopLatencyScale;
      f.ll_bw_factor = cal::kPcieLlBwFactor;
      f.oneshot_link_bw = cal::kPcieCrossSocketOneShotBw;
      return f;
  }
  return f;
}

}  // namespace kvplan
