#include "engines/vllm/estimates.h"

#include <algorithm>

#include "base/units.h"
#include "engines/common/runtime_estimates.h"

namespace kvplan {
namespace {

// PyTorch's cuBLAS workspace, taken from the caching allocator at the profiling run's first GEMM
// (aten/src/ATen/cuda/CublasHandlePool.cpp getChosenWorkspaceSize: ":4096:8" = 32 MiB from sm90,
// ":4096:2:16:8" = 8.125 MiB before), so it counts in the torch peak increase. It is the ~0.04
// GiB every 0.19.0 campaign log has beyond the sampler's own tensors.
int64_t CublasWorkspace(const GpuSpec& gpu) {
  return gpu.compute_capability >= 90 ? 32 * kMiB : 8 * kMiB + 128 * kKiB;
}

int64_t NextPowerOfTwo(int64_t x) {
  int64_t p = 1;
  while (p < x) p *= 2;
  return p;
}

// The persistent fused-MoE workspace of one MoE layer at `tokens` batched tokens
// (vllm/v1/worker/workspace.py WorkspaceManager and fused_moe.py TritonExperts.workspace_shapes
// @v0.19.0: workspace1 (M, topk, max(I, K)) beside workspace2 (M, topk, max(2I, K)), I the
// intermediate size per rank). It outlives the forward, so the dummy sampler run adds to it. The
// mxfp4 kernels (gpt-oss) do not use it.
int64_t MoeWorkspace(const ModelSpec& m, int tp, int64_t tokens) {
  if (!m.IsMoe() || m.quant.method == "mxfp4") return 0;
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  const int64_t inter = m.moe_intermediate_size / std::max(1, tp);
  const int64_t k = m.hidden_size;
  return tokens * m.experts_per_token * (std::max(inter, k) + std::max(2 * inter, k)) * dt;
}

// The dummy sampler run from 0.17, where top-k/top-p became a Triton kernel that works in place
// (vllm/v1/sample/ops/topk_topp_sampler.py apply_top_k_top_p @v0.17.0, PR #33538). Live at its
// peak (gpu_model_runner.py _dummy_sampler_run, sampler.py Sampler.forward @v0.19.0): the logits in
// the model dtype from compute_logits, their float32 copy (none when the model is float32), the
// softmax probabilities and the exponential noise of random_sample, each rows x full vocabulary
// (logits are gathered to the whole vocabulary on every rank); the kernel's cached buffer of
// min(next_pow2(min(SMs, rows)), SMs) float32 rows (topk_topp_triton.py, used from 8 rows); the
// dummy run's hidden states, the gathered last hidden states and their random copy; cuBLAS's
// workspace. Checked on the llm-d-planner 0.19.0 campaign (calibration.tsv): Llama-3.1-8B 1.89,
// Qwen2.5-7B 2.21, gemma-2-9b 3.65, phi-4 1.52, Qwen2.5-72B (TP2) 2.29 GiB logged, each within
// 0.04 GiB.
int64_t TritonSamplerPeak(const ModelSpec& m, int64_t batched_tokens, int64_t rows,
                          const GpuSpec& gpu) {
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  const int64_t per_entry = dt + (dt == 4 ? 0 : 4) + 4 + 4;
  const int64_t sms = gpu.sm_count > 0 ? gpu.sm_count : 128;
  const int64_t buffer_rows = rows >= 8 ? std::min(NextPowerOfTwo(std::min(sms, rows)), sms) : 0;
  const int64_t vocab = m.vocab_size;
  return rows * vocab * per_entry + buffer_rows * vocab * 4 +
         (batched_tokens + 2 * rows) * m.hidden_size * dt + CublasWorkspace(gpu);
}

}  // namespace

int64_t VllmFusedMoeWorkspaceTokens(const VllmRelease& release, int64_t batched_tokens,
                                    std::optional<int64_t> chunk_size,
                                    std::optional<bool> chunking) {
  if (!release.AtLeast(0, 17, 0) || release.AtLeast(0, 18, 0) || !chunking.value_or(true)) {
    return batched_tokens;
  }
  return std::min(batched_tokens, std::max<int64_t>(1, chunk_size.value_or(16 * 1024)));
}

int64_t EstimateVllmActivationPeak(const ModelSpec& m, int tp, int64_t batched_tokens,
                                   int64_t sampler_rows, VllmEra era, const VllmRelease& release,
                                   const GpuSpec& gpu, int64_t moe_tokens) {
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  int64_t forward = batched_tokens * DecoderActivationPerToken(m, tp);
  if (!IsV0(era) && release.AtLeast(0, 17, 0)) {
    return std::max(forward, TritonSamplerPeak(m, batched_tokens, sampler_rows, gpu) +
                                 MoeWorkspace(m, tp, moe_tokens));
  }
  // V1 _dummy_sampler_run (gpu_model_runner.py @v0.10) exercises top-k/top-p
  // with the PyTorch-native sampler (FlashInfer's is opt-in,
  // VLLM_USE_FLASHINFER_SAMPLER): the model-dtype and fp32 logits, sorted values
  // and int64 indices, the top-p softmax, cumsum and mask, the scattered result,
  // the probabilities and the exponential noise live together. Fitted at 38 B
  // per vocab entry and row on vllm#21429's "Before" profile (0.9.2-0.10 era,
  // Qwen3-235B-A22B-FP8 TP4, 1024 rows x 151,936: torch peak increase 5.62 GiB);
  // held out: the calibration table (calibration_test.cc). V0 samples from fp32
  // logits and probabilities, ~8 B (calibrated: issue 10517, 17327).
  int64_t per_entry = IsV0(era) ? 8 : 38;
  int64_t vocab_rank = m.vocab_size;  // logits are gathered to full vocab on every rank
  int64_t sampler = batched_tokens * m.hidden_size * dt + sampler_rows * vocab_rank * per_entry;
  return std::max(forward, sampler);
}

int VllmCollectiveGroupSize(const ModelSpec& model, int tp, int dp) {
  return model.IsMoe() && dp > 1 ? tp * dp : tp;
}

int64_t EstimateVllmNonTorch(VllmEra era, const VllmRelease& release, int group,
                             const GpuSpec& gpu) {
  // NCCL communicators allocate their buffers lazily, at the first collective
  // of the profiling run; custom all-reduce adds IPC buffers. Only the tensor-
  // parallel (or MoE expert) group communicates in the forward pass: pipeline stages pass
  // activations point to point, and PP-only launches log ~0.07 GiB of non-torch memory (issue 11).
  int64_t comm = group > 1 ? 400 * kMiB : 0;
  int64_t nvls = EstimateNvlsBuffers(group, gpu);
  switch (era) {
    case VllmEra::kV0Legacy:
      // worker.py @6ae52299: non_torch = all CUDA memory in use minus torch's,
      // so the CUDA context counts (0.35 GiB on the RTX 3090 case, issue 10517).
      return 360 * kMiB + comm + nvls;
    case VllmEra::kV1Early:
      // Counted against global (total - free): the CUDA context counts too.
      return EstimateCudaContext() + 100 * kMiB + comm + nvls;
    default:
      return VllmV1NonTorchIncrease(release, group, nvls > 0);
  }
}

int64_t VllmV1NonTorchIncrease(const VllmRelease& release, int tp, bool nvlink_sharp) {
  // V1 (gpu_worker.py @v0.9.2 "non-torch forward increase memory"): the increase over the init
  // snapshot only. On the rank that samples it is 0.24-0.27 GiB at 0.19.0 (20 single-GPU runs of
  // the llm-d-planner campaign on H100, calibration.tsv; a pipeline stage that does not sample
  // logs 0.07 GiB), against 0.06-0.16 GiB before. The same planner's version sweep (Qwen3-14B on
  // one H100, tests/data/real/calibration/llmd-planner-version-sweep/) logs 0.13 GiB at 0.15.0,
  // 0.16.0 and 0.17.0 and 0.25 GiB at 0.18.0, so the step is at 0.18, not at 0.17's Triton
  // sampler (whose activation drop the sweep shows at 0.17.0); its cause in vLLM's source is not
  // identified.
  int64_t base = release.AtLeast(0, 18, 0) ? 256 * kMiB : 128 * kMiB;
  if (tp < 2) return base;
  if (!nvlink_sharp) return base + 400 * kMiB;
  // NCCL's communicators with NVLink-SHARP buffers and the custom all-reduce buffers, which the
  // profiling run's first all-reduce allocates: fitted on the campaign's TP2 and TP4 H100 runs
  // (2.06-2.11 and 2.13-2.21 GiB logged in all, 0.19.0) as 1.74 GiB + 0.045 GiB per rank, and
  // checked on 0.9.2's TP4 H200 profile (vllm#21429: 2.04 GiB logged, 2.05 here).
  return base + 1868310528 + 48318382LL * tp;
}
int VllmCudaGraphCount(int64_t max_num_seqs, int64_t* largest) {
  int64_t max_size = std::min<int64_t>(2 * max_num_seqs, 512);
  int n = 0;
  int64_t last = 0;
  for (int64_t s : {1, 2, 4}) {
    if (s <= max_size) ++n, last = s;
  }
  for (int64_t s = 8; s < 256 && s <= max_size; s += 8) ++n, last = s;
  for (int64_t s = 256; s <= max_size; s += 16) ++n, last = s;
  if (largest) *largest = last;
  return n;
}

int64_t EstimateVllmCudaGraph(const ModelSpec& m, int tp, int64_t max_num_seqs) {
  int64_t largest = 0;
  int n = VllmCudaGraphCount(max_num_seqs, &largest);
  // Piecewise and full graphs per size (FULL_AND_PIECEWISE, the default since
  // 0.11); each keeps per-layer launch state of the order of 64 KiB [estimate].
  int64_t per_graph = static_cast<int64_t>(m.num_layers) * 64 * kKiB;
  return largest * DecoderActivationPerToken(m, tp) + 2 * n * per_graph;
}

int64_t VllmDefaultMaxNumBatchedTokens(const GpuSpec& gpu) {
  bool big = gpu.total_bytes >= 70 * kGiB && gpu.id.find("a100") == std::string::npos;
  return big ? 8192 : 2048;
}

int64_t VllmDefaultMaxNumSeqs(const GpuSpec& gpu, VllmEra era) {
  if (IsV0(era)) return 256;  // vllm/config.py SchedulerConfig V0 default
  bool big = gpu.total_bytes >= 70 * kGiB && gpu.id.find("a100") == std::string::npos;
  return big ? 1024 : 256;
}

}  // namespace kvplan
