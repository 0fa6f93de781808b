// The scale-up fabric between the GPUs of one node, as the performance model
// sees it: which link class NCCL assumes, the bus bandwidth a ring reaches,
// whether GPUs can read each other's memory (P2P), and how one-shot custom
// allreduce kernels fare on it. Bandwidths are bytes/s.
#pragma once

#include <string>
#include <vector>

#include "catalog/gpu.h"

namespace kvplan {

enum class Topology {
  kNvswitch,        // every GPU on an NVSwitch (HGX/DGX)
  kNvlinkPairs,     // NVLink bridges between pairs, PCIe between pairs
  kPcieSwitch,      // PCIe switches, P2P through the switch
  kPcieDualSocket,  // GPUs split over two CPU sockets, P2P across the socket link
  kPcieNoP2p,       // no peer-to-peer (consumer cards): NCCL stages through host memory
};

// GPU generation, for NCCL's per-architecture constants.
enum class GpuArch { kAmpere, kAda, kHopper, kBlackwell };

// Inferred from the catalog entry: NVLink generation first, then the number
// formats the card supports (FP4 = Blackwell, FP8 without NVLink 4 = Ada).
GpuArch ArchOf(const GpuSpec& gpu);

// "nvswitch", "nvlink-pairs", ... Throws InputError listing the accepted names.
Topology ParseTopology(const std::string& name);
const char* TopologyName(Topology t);
std::vector<std::string> TopologyNames();

// The topology a catalog GPU usually sits in: NVSwitch for NVLink cards, a
// PCIe switch with P2P for PCIe cards that have P2P, no P2P otherwise.
Topology DefaultTopology(const GpuSpec& gpu);

// What the collective models need to know about a fabric of `n` GPUs.
struct Fabric {
  Topology topology = Topology::kNvswitch;
  GpuArch arch = GpuArch::kHopper;
  bool nvlink = false;           // NCCL hardware class NVLINK (else PCI)
  bool p2p = true;               // CUDA peer access between all GPUs
  bool fully_connected = false;  // every pair on NVLink (what custom allreduce requires above 2)
  bool nvls = false;             // NVLink SHARP multicast available (NVSwitch, Hopper+)
  double bus_bw = 0;             // ring Simple bus bandwidth, bytes/s
  double hop_latency_scale = 1;  // multiplies NCCL's per-hop latency (host staging)
  double ll_bw_factor = 0.5;     // LL protocol share of bus bandwidth
  double oneshot_link_bw = 0;    // per-GPU read bandwidth of a one-shot custom allreduce, bytes/s
};

// Builds the fabric for `n` GPUs of `gpu` in topology `t`. Throws InputError
// when the combination cannot exist (NVSwitch topology on a PCIe-only card).
Fabric MakeFabric(const GpuSpec& gpu, Topology t, int n);

}  // namespace kvplan
