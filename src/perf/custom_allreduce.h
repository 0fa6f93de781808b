// The custom allreduce kernels of vLLM and SGLang (one-shot and two-shot over
// CUDA IPC buffers): when the engines use them, and what they cost, on NVLink
// and when forced onto PCIe.
#pragma once

#include <cstdint>
#include <string>

#include "perf/topology.h"

namespace kvplan {

enum class CustomArKernel { kNone, kOneShot, kTwoShot };

struct CustomArDecision {
  CustomArKernel kernel = CustomArKernel::kNone;
  std::string reason;  // why it is (not) used, for people
};

// The engines' rule (sglang custom_all_reduce.py @004e656, adapted from vllm
// @00d618a): world size 2/4/6/8, P2P required, more than two GPUs only when
// fully NVLink-connected, at most 8 MiB, a multiple of 16 bytes. `forced`
// skips the "more than two PCIe-only GPUs" rule, as a patched engine does.
CustomArDecision ChooseCustomAllreduce(int n, int64_t bytes, const Fabric& fabric, bool forced);

// Time of the chosen kernel (us). One-shot: every rank reads the n-1 peer
// buffers over its own link; two-shot: reduce-scatter then all-gather.
double CustomAllreduceUs(CustomArKernel kernel, int n, int64_t bytes, const Fabric& fabric);

}  // namespace kvplan
