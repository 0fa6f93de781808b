// kvplan's estimates of what vLLM measures at start-up (it profiles them; we
// cannot): the activation peak of the profiling run, non-torch memory, and the
// CUDA-graph memory estimate. A measured term from a log always replaces these.
#pragma once

#include <cstdint>
#include <optional>

#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/common/runtime_estimates.h"
#include "engines/vllm/release.h"

namespace kvplan {

// Torch peak increase of the profiling run: max(one forward over
// `batched_tokens`, the dummy sampler run over `sampler_rows` x vocab).
// The V1 sampler term before 0.17 (PyTorch-native top-k/top-p, 38 B per vocab entry and row) is
// fitted on one logged profile (vllm#21429); from 0.17 (the Triton top-k/top-p kernel) it is
// counted tensor by tensor from vLLM's source and checked on the 0.19.0 campaign. `gpu` gives
// the SM count (the Triton kernel's buffer) and the cuBLAS workspace.
// Calibrated on the public V0 cases (Llama-3.1-8B at 20000/29000 tokens:
// 2.07/2.99 GiB logged; Qwen3-30B-A3B at 2048 tokens: 0.12 GiB logged).
// `moe_tokens`: the rows of the fused-MoE workspace (from 0.17), batched_tokens unless 0.17's
// activation chunking caps them (VllmFusedMoeWorkspaceTokens).
int64_t EstimateVllmActivationPeak(const ModelSpec& model, int tp, int64_t batched_tokens,
                                   int64_t sampler_rows, VllmEra era, const VllmRelease& release,
                                   const GpuSpec& gpu, int64_t moe_tokens);

// The rows the fused-MoE workspace is allocated for in the profiling run at `batched_tokens`:
// vllm/model_executor/layers/fused_moe/modular_kernel.py _chunk_info @v0.17.0 takes
// min(M, VLLM_FUSED_MOE_CHUNK_SIZE) (envs.py @v0.17.0: 16 * 1024) when
// VLLM_ENABLE_FUSED_MOE_ACTIVATION_CHUNKING (default 1) is on and the experts support chunking
// (TritonExperts does); PR #34086 removed the chunking in 0.18.0. `chunk_size` and `chunking` are
// the variables as given (nullopt: envs.py's default).
int64_t VllmFusedMoeWorkspaceTokens(const VllmRelease& release, int64_t batched_tokens,
                                    std::optional<int64_t> chunk_size,
                                    std::optional<bool> chunking);

// Non-torch memory as each era counts it (CUDA context only in the eras that
// count it; NCCL buffers when the collective group has more than one GPU,
// and NCCL's NVLink-SHARP buffers on NVSwitch systems, which the profiling
// run's first large all-reduce allocates).
// `group`: VllmCollectiveGroupSize.
int64_t EstimateVllmNonTorch(VllmEra era, const VllmRelease& release, int group,
                             const GpuSpec& gpu);

// The ranks whose NCCL communicator the profiling run's forward pass uses on each GPU: the
// tensor-parallel group, or for a MoE model under --data-parallel-size the whole DP x TP
// expert group, which every MoE layer dispatches over (vllm/model_executor/layers/fused_moe/
// layer.py forward_impl @v0.10.1: dp_size > 1 takes get_ep_group().dispatch; device_communicators/
// all2all.py NaiveAll2AllManager.naive_multicast broadcasts over the DP group).
int VllmCollectiveGroupSize(const ModelSpec& model, int tp, int dp);

// V1 from 0.9.2: the non-torch increase of the profiling run on one rank of a `tp`-wide group
// (`nvlink_sharp`: an NVSwitch node whose NCCL allocates NVLS buffers).
int64_t VllmV1NonTorchIncrease(const VllmRelease& release, int tp, bool nvlink_sharp);

// vLLM's default CUDA-graph capture sizes for `max_num_seqs`
// (vllm/config/__init__.py @v0.10: [1,2,4] + range(8,256,8) + range(256,max+1,16),
// max = min(2 * max_num_seqs, 512)).
int VllmCudaGraphCount(int64_t max_num_seqs, int64_t* largest);

// Estimated CUDA-graph pool: the largest captured batch's activations plus a
// fixed cost per graph and layer (piecewise and full graphs).
int64_t EstimateVllmCudaGraph(const ModelSpec& model, int tp, int64_t max_num_seqs);

// vllm/engine/arg_utils.py get_batch_defaults @v0.10 (OPENAI_API_SERVER):
// GPUs with >= 70 GiB other than A100 get 8192 tokens / 1024 seqs, others 2048 / 256.
int64_t VllmDefaultMaxNumBatchedTokens(const GpuSpec& gpu);
int64_t VllmDefaultMaxNumSeqs(const GpuSpec& gpu, VllmEra era);

}  // namespace kvplan
