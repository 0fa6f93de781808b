#include "engines/vllm/estimates.h"

#include <algorithm>

#include "base/units.h"
#include "engines/common/runtime_estimates.h"

namespace kvplan {

int64_t EstimateVllmActivationPeak(const ModelSpec& m, int tp, int64_t batched_tokens,
                                   int64_t sampler_rows, VllmEra era) {
  const int64_t dt = m.dtype_bytes > 0 ? m.dtype_bytes : 2;
  int64_t forward = batched_tokens * DecoderActivationPerToken(m, tp);
  // V1 _dummy_sampler_run (gpu_model_runner.py @v0.10) exercises top-k/top-p
  // with the PyTorch-native sampler (FlashInfer's is opt-in,
  // VLLM_USE_FLASHINFER_SAMPLER): fp32 logits, sorted values (4 B), int64
  // indices (8 B), sorted probabilities (4 B) and the scattered result (4 B)
  // live together, ~24 B per vocab entry per row. V0 samples from fp32 logits
  // and probabilities, ~8 B (calibrated: issue 10517, 17327).
  int64_t per_entry = IsV0(era) ? 8 : 24;
  int64_t vocab_rank = m.vocab_size;  // logits are gathered to full vocab on every rank
  int64_t sampler = batched_tokens * m.hidden_size * dt + sampler_rows * vocab_rank * per_entry;
  return std::max(forward, sampler);
}

int64_t EstimateVllmNonTorch(VllmEra era, int gpus_per_replica, const GpuSpec& gpu) {
  // NCCL communicators allocate their buffers lazily, at the first collective
  // of the profiling run; custom all-reduce adds IPC buffers.
  int64_t comm = gpus_per_replica > 1 ? 400 * kMiB : 0;
  comm += EstimateNvlsBuffers(gpus_per_replica, gpu);
  switch (era) {
    case VllmEra::kV0Legacy:
      // worker.py @6ae52299: non_torch = all CUDA memory in use minus torch's,
      // so the CUDA context counts (0.35 GiB on the RTX 3090 case, issue 10517).
      return 360 * kMiB + comm;
    case VllmEra::kV1Early:
      // Counted against global (total - free): the CUDA context counts too.
      return EstimateCudaContext() + 100 * kMiB + comm;
    default:
      // Increase over the init snapshot only (0.06-0.16 GiB in the public V0 logs).
      return 128 * kMiB + comm;
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
