#include "perf/nccl_model.h"

#include <algorithm>
#include <limits>

#include "perf/comm_calibration.h"

namespace kvplan {
namespace {

constexpr int kLL = 0, kLL128 = 1, kSimple = 2;

// tuning.cc baseLatencies [algo][proto] (us).
constexpr double kBaseRing[3] = {6.6, 14.0, 8.4};
constexpr double kBaseTree[3] = {6.8, 14.0, 8.4};
// tuning.cc hwLatencies [NVLINK|PCI][algo][proto] (us per hop/step).
constexpr double kHwRingNvlink[3] = {0.6, 1.9, 3.4};
constexpr double kHwRingPci[3] = {1.0, 2.5, 5.7};
constexpr double kHwTreeNvlink[3] = {0.6, 1.25, 4.0};
constexpr double kHwTreePci[3] = {1.0, 1.9, 4.0};
constexpr double kNvlsLatencyUs = 25.0;  // hwLat[NVLINK][NVLS][Simple], one node

// tuning.cc llMaxBws [arch][1 node] (GB/s).
double LlMaxBw(GpuArch arch) {
  switch (arch) {
    case GpuArch::kBlackwell:
      return 282e9;
    case GpuArch::kHopper:
      return 141e9;
    case GpuArch::kAmpere:
    case GpuArch::kAda:
      return 87.7e9;
  }
  return 87.7e9;
}

// tuning.cc nvlsEfficiency: Hopper 0.85, Blackwell 0.74.
double NvlsEfficiency(GpuArch arch) { return arch == GpuArch::kBlackwell ? 0.74 : 0.85; }

double BaseLatency(double base, LaunchMode mode) {
  return mode == LaunchMode::kCudaGraph ? base * comm_calibration::kGraphBaseLatencyScale : base;
}

struct Candidate {
  double lat_us;
  double alg_bw;  // bytes/s
  NcclAlgo algo;
  NcclProto proto;
};

double TimeUs(const Candidate& c, int64_t bytes) {
  return c.lat_us + static_cast<double>(bytes) / c.alg_bw * 1e6;
}

// Ring bus bandwidth per protocol (ncclTopoTuneModel): LL min(llMax, bw/2),
// LL128 0.92 bw (NVLink only), Simple bw.
double RingBusBw(const Fabric& f, int p) {
  if (p == kLL) return std::min(LlMaxBw(f.arch), f.bus_bw * f.ll_bw_factor);
  if (p == kLL128) return f.bus_bw * 0.92;
  return f.bus_bw;
}

// Tree/AllReduce: 0.92 bw; LL /3.8; LL128 x 7/9 on one node.
double TreeBusBw(const Fabric& f, int p) {
  const double bw = f.bus_bw * 0.92;
  if (p == kLL) return std::min(bw / 3.8, LlMaxBw(f.arch));
  if (p == kLL128) return bw * 7.0 / 9.0;
  return bw;
}

NcclProto Proto(int p) {
  return p == kLL ? NcclProto::kLL : (p == kLL128 ? NcclProto::kLL128 : NcclProto::kSimple);
}

}  // namespace

const char* NcclAlgoName(NcclAlgo a) {
  switch (a) {
    case NcclAlgo::kRing:
      return "ring";
    case NcclAlgo::kTree:
      return "tree";
    case NcclAlgo::kNvls:
      return "nvls";
    case NcclAlgo::kP2p:
      return "p2p";
  }
  return "?";
}

const char* NcclProtoName(NcclProto p) {
  switch (p) {
    case NcclProto::kLL:
      return "LL";
    case NcclProto::kLL128:
      return "LL128";
    case NcclProto::kSimple:
      return "Simple";
  }
  return "?";
}

CollectiveTime NcclCollectiveTime(Collective c, int64_t bytes, int n, const Fabric& f,
                                  LaunchMode mode, unsigned algos) {
  if (algos == 0) algos = kAlgoRing | kAlgoTree | kAlgoNvls;
  if (n <= 1) return {};
  const double eager = mode == LaunchMode::kEager ? comm_calibration::kEagerLaunchUs : 0.0;
  const double* hw_ring = f.nvlink ? kHwRingNvlink : kHwRingPci;
  const double* hw_tree = f.nvlink ? kHwTreeNvlink : kHwTreePci;
  const double hs = f.hop_latency_scale;

  if (c == Collective::kAllToAll) {
    // Not in NCCL's tuner: grouped send/recv, one Simple step, each rank sends
    // (n-1)/n of its buffer over its own link.
    const double lat = BaseLatency(kBaseRing[kSimple], mode) + hw_ring[kSimple] * hs + eager;
    const double t = lat + static_cast<double>(bytes) * (n - 1) / n / f.bus_bw * 1e6;
    return {t, NcclAlgo::kP2p, NcclProto::kSimple};
  }

  const bool allreduce = c == Collective::kAllReduce;
  const int nsteps = allreduce ? 2 * (n - 1) : (n - 1);
  Candidate cands[8];
  int count = 0;
  for (int p = 0; p < 3; ++p) {
    // LL128 is enabled only on NVLink paths (typeIntra <= PATH_NVB).
    if (p == kLL128 && !f.nvlink) continue;
    const double ring_lat = BaseLatency(kBaseRing[p], mode) + nsteps * hw_ring[p] * hs;
    if (algos & kAlgoRing) {
      cands[count++] = {ring_lat, RingBusBw(f, p) * n / nsteps, NcclAlgo::kRing, Proto(p)};
    }
    if (allreduce && (algos & kAlgoTree)) {
      const double tree_lat = BaseLatency(kBaseTree[p], mode) + 2.0 * (n - 1) * hw_tree[p] * hs;
      cands[count++] = {tree_lat, TreeBusBw(f, p) * 0.5, NcclAlgo::kTree, Proto(p)};
    }
  }
  if (f.nvls && c != Collective::kReduceScatter && (algos & kAlgoNvls)) {
    // NVLS is Simple only; its latency replaces the base latency.
    const double bw = f.bus_bw * NvlsEfficiency(f.arch) * (comm_calibration::kNvlsChannels - 1) /
                      comm_calibration::kNvlsChannels;
    cands[count++] = {kNvlsLatencyUs, bw, NcclAlgo::kNvls, NcclProto::kSimple};
  }
  if (count == 0) return NcclCollectiveTime(c, bytes, n, f, mode, 0);
  CollectiveTime best{std::numeric_limits<double>::infinity(), NcclAlgo::kRing, NcclProto::kSimple};
  for (int i = 0; i < count; ++i) {
    const double t = TimeUs(cands[i], bytes);
    if (t < best.us) best = {t, cands[i].algo, cands[i].proto};
  }
  best.us += eager;
  return best;
}

double BusBandwidth(Collective c, int64_t bytes, int n, double us) {
  const double algbw = static_cast<double>(bytes) / (us * 1e-6);
  if (c == Collective::kAllReduce) return algbw * 2.0 * (n - 1) / n;
  return algbw * (n - 1) / n;
}

}  // namespace kvplan
