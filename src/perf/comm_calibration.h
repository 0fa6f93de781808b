// Named constants of the communication model that are not NCCL's own: each
// was fitted to a published measurement (docs/perf-validation.md lists every
// comparison) and can be recalibrated from a user's nccl-tests run.
#pragma once

namespace kvplan::comm_calibration {

// Host-side cost of launching one collective outside a CUDA graph (PyTorch
// dispatch + NCCL enqueue). Fitted to the serving-style benchmarks of
// vllm#24532/#24111 and the rtx6kpro engine benchmark (NCCL model + 4 us).
inline constexpr double kEagerLaunchUs = 4.0;
// Under a CUDA graph NCCL's base latency shrinks (no per-call launch):
// 2xH100 measured 5.6-6.0 us (nccl#1259) against NCCL's 7.8 us model.
inline constexpr double kGraphBaseLatencyScale = 0.7;

// PCIe: share of NCCL's link figure (x16: Gen4 24, Gen5 48 GB/s) a ring
// reaches. 8xRTX PRO 6000 behind switches: busbw 39.4-46.5 GB/s (rtx6kpro).
inline constexpr double kPcieSwitchEfficiency = 0.9;
// Dual socket: 22.2 (default NCCL) to 37.6 (tuned) GB/s on 8xRTX PRO 6000,
// 28 GB/s on 8xRTX 5090 (nccl#1639); kvplan takes the middle.
inline constexpr double kPcieDualSocketEfficiency = 0.65;
// No P2P: NCCL's SHM transport copies through host memory.
inline constexpr double kPcieNoP2pEfficiency = 0.25;
// SHM hops cost about twice NCCL's PCI per-hop latency: 8xRTX 4090 without
// P2P measured 40-42 us for an 8-byte allreduce (nccl#1530).
inline constexpr double kNoP2pHopLatencyScale = 2.0;
// Dual socket: a ring crosses the socket link twice; small allreduces on
// 8xRTX PRO 6000 dual-socket measured 57-58 us at 4-8 KB (rtx6kpro), i.e.
// NCCL's PCI per-hop latency x 3.3.
inline constexpr double kDualSocketHopLatencyScale = 3.3;
// NCCL halves LL bandwidth (8-byte lines carry 4 bytes of data). On PCIe the
// measured 256 KB - 4 MB ring times (rtx6kpro) fit LL at the full link rate.
inline constexpr double kPcieLlBwFactor = 1.0;
// NVLink bridge pairs: 2xH100 PCIe with bridges measured busbw 115-116 GB/s
// (nccl-tests#194), i.e. about 6 NVLinks at NCCL's 20.6 GB/s each.
inline constexpr int kNvlinkBridgeLinks = 6;
// NVLS: kvplan uses NCCL's NVLS efficiency x link bandwidth x (nCh-1)/nCh as
// the algorithm bandwidth; measured NVLS algbw stays ~275 GB/s for n=5..8 on
// 8xH100 (nccl#1455), which NCCL's own "x2 then x n/nsteps" form does not
// reproduce (it rises with n). 16 channels.
inline constexpr int kNvlsChannels = 16;

// Custom allreduce (vLLM/SGLang one-shot and two-shot kernels).
// Fixed cost: 1-stage times 10-14 us at 0.5-1 MB TP4 (vllm#24532), 7 us at
// 16 KB on B300 (vllm#37756), 7.5 us at 256 B on 8xRTX PRO 6000.
inline constexpr double kCustomArBaseUs = 7.0;
// One-shot reads all n-1 peers over one PCIe link; concurrent writers
// collapse switch arbitration: link rate / (1 + 0.15 (n-1)) fits the
// 4- and 8-GPU rtx6kpro tables.
inline constexpr double kPcieOneShotContention = 0.15;
// Dual-socket / direct-attach PCIe: one-shot traffic crosses the socket link
// or is staged through system memory; 8xRTX PRO 6000 dual-socket measured
// 64 KB in 504 us, about 1 GB/s per GPU (rtx6kpro).
inline constexpr double kPcieCrossSocketOneShotBw = 1.0e9;

}  // namespace kvplan::comm_calibration
