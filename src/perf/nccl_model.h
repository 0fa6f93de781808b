// NCCL's own cost model for one collective on one node (src/graph/tuning.cc
// @5067397, NCCL 2.30.7): for each algorithm (ring, tree, NVLS) and protocol
// (LL, LL128, Simple) time = latency + bytes / algorithm bandwidth, and NCCL
// runs the cheapest. Calibrated deviations are in perf/comm_calibration.h.
#pragma once

#include <cstdint>

#include "perf/topology.h"

namespace kvplan {

enum class Collective { kAllReduce, kAllGather, kReduceScatter, kAllToAll };
enum class NcclAlgo { kRing, kTree, kNvls, kP2p };
enum class NcclProto { kLL, kLL128, kSimple };

const char* NcclAlgoName(NcclAlgo a);
const char* NcclProtoName(NcclProto p);

// How the collective is launched: eagerly from the host (adds the launch
// overhead), or replayed inside a CUDA graph (no host launch, lower base
// latency), or back to back as nccl-tests times it (NCCL's latency as is).
enum class LaunchMode { kEager, kCudaGraph, kBackToBack };

struct CollectiveTime {
  double us = 0;  // predicted time
  NcclAlgo algo = NcclAlgo::kRing;
  NcclProto proto = NcclProto::kSimple;
};

// Time of one NCCL collective over `n` ranks; `bytes` is the full buffer (the
// allreduce input, the allgather output, the alltoall send buffer per rank).
// n == 1 costs nothing.
// `algos` restricts the algorithms considered (NCCL_ALGO); 0 = all.
inline constexpr unsigned kAlgoRing = 1, kAlgoTree = 2, kAlgoNvls = 4;
CollectiveTime NcclCollectiveTime(Collective c, int64_t bytes, int n, const Fabric& fabric,
                                  LaunchMode mode, unsigned algos = 0);

// nccl-tests bus bandwidth for a measured or predicted time (doc/PERFORMANCE.md).
double BusBandwidth(Collective c, int64_t bytes, int n, double us);

}  // namespace kvplan
