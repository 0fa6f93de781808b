// kvplan's estimates of memory every PyTorch-based engine holds besides its
// weights and KV cache, where no engine's own rule is mirrored: the CUDA
// context, NCCL's NVLink-SHARP buffers, and the activations of one decoder
// layer per batched token. vLLM and TensorRT-LLM both read them; a measured
// term from a log always replaces them.
#pragma once

#include <cstdint>

#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan {

// Activation bytes per batched token in one decoder layer on one rank: hidden
// and residual streams, q/k/v and attention output, and the MLP intermediates
// (fused-MoE caches for MoE layers); the largest layer type counts.
int64_t DecoderActivationPerToken(const ModelSpec& model, int tp);

// NCCL NVLS buffers per rank: nvlsTotalSize 2415919104 on 8x H200
// (perf-model.md; vllm#9699 lost ~23% of the blocks to them on 405B TP8).
// 0 when the GPUs have no NVLink 4+ (no NVSwitch multicast).
int64_t EstimateNvlsBuffers(int gpus_per_replica, const GpuSpec& gpu);

// The CUDA context and driver reservations present before the engine's first
// snapshot (what "free" lacks on an otherwise empty GPU).
int64_t EstimateCudaContext();

}  // namespace kvplan
