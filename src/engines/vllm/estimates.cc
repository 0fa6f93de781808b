#include "engines/vllm/estimates.h"

#include <algorithm>

#include "base/units.h"
#include "engines/common/runtime_estimates.h"

namespace kvplan {
namespace {

// vllm#21429 (tests/data/real/vllm/pr21429_v1_debug_profiling_rank2.log): "non-torch forward
// increase memory: 2.04GiB" at TP4 on H200.
constexpr int64_t kVllmV1NvlsNonTorch = 2190433320;  // 2.04 GiB

}  // namespace

int64_t EstimateVllmActivationPeak(const ModelSpec& m, int tp, int64_t batched_tokens,
                                   int64_t sampler_rows, VllmEra era, const VllmRelease& release) {
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  int64_t forward = batched_tokens * DecoderActivationPerToken(m, tp);
  // V1 _dummy_sampler_run (gpu_model_runner.py @v0.10) exercises top-k/top-p
  // with the PyTorch-native sampler (FlashInfer's is opt-in,
  // VLLM_USE_FLASHINFER_SAMPLER): the model-dtype and fp32 logits, sorted values
  // and int64 indices, the top-p softmax, cumsum and mask, the scattered result,
  // the probabilities and the exponential noise live together. Fitted at 38 B
  // per vocab entry and row on vllm#21429's "Before" profile (0.9.2-0.10 era,
  // Qwen3-235B-A22B-FP8 TP4, 1024 rows x 151,936: torch peak increase 5.62 GiB);
  // held out: the calibration table (calibration_test.cc). V0 samples from fp32
  // logits and probabilities, ~8 B (calibrated: issue 10517, 17327).
  // From 0.17 the same model's profiled peak falls from 5.64 to 2.23 GiB (issue 11, the 0.19
  // campaign); kvplan keeps its earlier 24 B there, not yet calibrated on a 0.17+ log.
  int64_t per_entry = IsV0(era) ? 8 : (release.AtLeast(0, 17, 0) ? 24 : 38);
  int64_t vocab_rank = m.vocab_size;  // logits are gathered to full vocab on every rank
  int64_t sampler = batched_tokens * m.hidden_size * dt + sampler_rows * vocab_rank * per_entry;
  return std::max(forward, sampler);
}

int64_t EstimateVllmNonTorch(VllmEra era, const VllmRelease& release, int tp, const GpuSpec& gpu) {
  // NCCL communicators allocate their buffers lazily, at the first collective
  // of the profiling run; custom all-reduce adds IPC buffers. Only the tensor-
  // parallel group all-reduces: pipeline stages pass activations point to
  // point, and PP-only launches log ~0.07 GiB of non-torch memory (issue 11).
  int64_t comm = tp > 1 ? 400 * kMiB : 0;
  int64_t nvls = EstimateNvlsBuffers(tp, gpu);
  switch (era) {
    case VllmEra::kV0Legacy:
      // worker.py @6ae52299: non_torch = all CUDA memory in use minus torch's,
      // so the CUDA context counts (0.35 GiB on the RTX 3090 case, issue 10517).
      return 360 * kMiB + comm + nvls;
    case VllmEra::kV1Early:
      // Counted against global (total - free): the CUDA context counts too.
      return EstimateCudaContext() + 100 * kMiB + comm + nvls;
    default:
      // Increase over the init snapshot only (0.06-0.16 GiB in the public V0 logs).
      // V1 (gpu_worker.py @v0.9.2 "non-torch forward increase memory") on an NVLink-SHARP
      // node: the communicators and NVLS buffers together are fitted on vllm#21429's TP4
      // H200 profile (2.04 GiB non-torch in all), not the NVLS estimate plus 400 MiB. Kept to
      // the releases before 0.17 like the sampler fit of the same profile: at 0.19 kvplan
      // already over-counts KV on 4xH100 (issue 11), so a smaller term there is not supported.
      if (!IsV0(era) && nvls > 0 && !release.AtLeast(0, 17, 0)) return kVllmV1NvlsNonTorch;
      return 128 * kMiB + comm + nvls;
  }
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
