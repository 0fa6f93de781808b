// vLLM's weight loading: --dtype and the --quantization values kvplan models.
#include "engines/vllm/weight_loading.h"

#include <algorithm>

#include "base/units.h"

namespace kvplan {
namespace {

int64_t RoundUpTo(int64_t x, int64_t to) { return CeilDiv(x, to) * to; }

// The MoE layers of `m` (DeepSeek-style first dense layers and per-layer patterns excluded).
int64_t MoeLayerCount(const ModelSpec& m) {
  const bool listed = m.layer_is_moe.size() == static_cast<size_t>(m.num_layers);
  int64_t n = 0;
  for (int i = 0; i < m.num_layers; ++i)
    n += listed ? m.layer_is_moe[i] : i >= m.first_k_dense_layers;
  return n;
}

const WeightPart* ExpertsPart(const WeightEstimate& w) {
  for (const WeightPart& p : w.parts)
    if (p.name == "experts") return &p;
  return nullptr;
}

// vllm/model_executor/layers/quantization/mxfp4.py @v0.10.1 Mxfp4MoEMethod.create_weights (and
// oracle/mxfp4.py mxfp4_round_up_hidden_size_and_intermediate_size @v0.19.0): for Marlin, whose
// kernel needs n % 256 and k % 128, the expert weights are created with hidden_size rounded up to
// 256 and intermediate_size_per_partition to 128, and prepare_moe_fp4_layer_for_marlin repacks
// them at that size. gpt-oss-120b on H100: 2880 x 2880 experts stored as 3072 x 2944 ("Model
// loading took 65.9651 GiB" at 0.10.1, vllm#23278; the checkpoint is 60.8 GiB).
int64_t MarlinExtraBytes(const WeightPart& experts, int64_t h, int64_t inter) {
  int64_t padded =
      experts.bytes_per_rank / (h * inter) * (RoundUpTo(h, 256) * RoundUpTo(inter, 128));
  return std::max<int64_t>(0, padded - experts.bytes_per_rank);
}

// One expert of one layer on a rank under the Triton backend, in bytes:
// - mxfp4.py create_weights @v0.14.1 (oracle/mxfp4.py @v0.19.0): intermediate_size_per_partition
//   rounded up to 64, hidden_size kept; w13 (2 * inter, hidden / 2) and w2 (hidden, inter / 2)
//   uint8, their e8m0 scales one byte per 32;
// - process_weights_after_loading: _swizzle_mxfp4 (quantization/utils/mxfp4_utils.py) hands each
//   weight, transposed to (bytes along the reduction, outputs), to triton_kernels'
//   HopperMXValueLayout. The triton_kernels v3.5.0 that vLLM 0.12 to 0.16 build
//   (cmake/external_projects/triton_kernels.cmake) pads only to its 16 x 32 tile, which these
//   shapes fill; the v3.6.0 of 0.17 and later first pads both dimensions to multiples of 64
//   (swizzle_data's pre-pad; the tag's text is inferred from the band419/triton copy at
//   ae9a07ab, between the two; the 0.19 gpt-oss-20b logs agree, 0.2 % and 0.0 %);
// - the new scale tensor is in HopperMXScaleLayout, its non-mx dimension padded to
//   2 * num_warps * 2 * 8 = 256 and the mx one to 2, while layer.w13_weight_scale and
//   w2_weight_scale stay registered (only the weights are deleted): the scales are held twice;
// - the biases become float32 (w13_bias.to(torch.float32)); w2's bias is not sharded.
int64_t TritonExpertBytes(int64_t h, int64_t inter, bool prepad64) {
  const int64_t ip = RoundUpTo(inter, 64);
  const int64_t pad = prepad64 ? 64 : 1;
  const int64_t values =
      RoundUpTo(h / 2, pad) * RoundUpTo(2 * ip, pad) + RoundUpTo(ip / 2, pad) * RoundUpTo(h, pad);
  const int64_t scales = 2 * ip * (h / 32) + h * (ip / 32);
  const int64_t swizzled =
      RoundUpTo(2 * ip, 256) * RoundUpTo(h / 32, 2) + RoundUpTo(h, 256) * RoundUpTo(ip / 32, 2);
  const int64_t biases = (2 * ip + h) * 4;
  return values + scales + swizzled + biases;
}

}  // namespace

WeightLoading VllmWeightLoading(const VllmArgs& a) {
  WeightLoading w;
  w.engine = "vLLM";
  w.dtype = a.dtype;
  w.quantization = a.quantization;
  // Online: fp8 (vllm/model_executor/layers/quantization/fp8.py @v0.10.1, per-tensor
  // scales) and in-flight bitsandbytes (model_loader/bitsandbytes_loader.py @v0.10.1).
  w.online_methods = {"fp8", "bitsandbytes"};
  // vllm/model_executor/layers/quantization/__init__.py @v0.10.1 QUANTIZATION_METHODS,
  // the ones whose weight layout kvplan reads.
  w.accepted_methods = {"fp8",        "fbgemm_fp8",   "compressed-tensors", "mxfp4",  "awq",
                        "awq_marlin", "gptq",         "gptq_marlin",        "marlin", "moe_wna16",
                        "modelopt",   "modelopt_fp4", "bitsandbytes"};
  w.online_fp8_per_channel = false;
  return w;
}

int64_t VllmLoadedWeightBytes(const ModelSpec& m, const WeightEstimate& w) {
  // vllm/v1/worker/gpu_model_runner.py @v0.10.1 load_model (V0: worker/model_runner.py):
  // DeviceMemoryProfiler's consumed_memory, torch.cuda.memory_allocated() after the load minus
  // before (CudaPlatform.get_current_memory_usage); the rotary tables are cast to the model
  // dtype (model_executor/layers/rotary_embedding/base.py RotaryEmbedding.__init__).
  return LoadedBytesPerRank(m, w, LoadMeasure::kAllocated, m.dtype_bytes);
}

// vllm/model_executor/layers/quantization/mxfp4.py: _should_use_marlin @v0.10.1 takes Marlin
// before compute capability 9.0 ("marlin kernel has better performance on ampere"), without the
// optional triton_kernels package or with torch < 2.8.0 (0.10.1 pins torch 2.7.1,
// requirements/cuda.txt); 0.10.2 to 0.11.x pin torch 2.8.0 but do not install triton_kernels
// (has_triton_kernels, vllm/utils/__init__.py @v0.11.0, is only true when the user added it),
// so Marlin stays the default; from 0.12.0 vLLM builds triton_kernels into
// vllm/third_party (cmake/external_projects/triton_kernels.cmake), and get_mxfp4_backend @v0.14.1
// and select_mxfp4_moe_backend @v0.19.0 (fused_moe/oracle/mxfp4.py, TRITON before
// FLASHINFER_CUTLASS_MXFP4_BF16 on SM90) pick Triton on 9.0 <= capability < 11.0. From 10.0
// FlashInfer's TRT-LLM and CUTLASS layouts come first; they are not modelled.
VllmMxfp4Backend VllmMxfp4BackendFor(const VllmRelease& release, const GpuSpec& gpu) {
  if (gpu.compute_capability >= 100) return VllmMxfp4Backend::kNotModelled;
  if (gpu.compute_capability >= 90 && release.AtLeast(0, 12, 0)) return VllmMxfp4Backend::kTriton;
  return VllmMxfp4Backend::kMarlin;
}

int64_t VllmMxfp4ExpertExtraBytes(const ModelSpec& m, const WeightEstimate& w, const VllmArgs& a,
                                  const GpuSpec& gpu, const VllmRelease& release) {
  if (m.quant.method != "mxfp4" || m.hidden_size <= 0) return 0;
  const WeightPart* experts = ExpertsPart(w);
  const int64_t h = m.hidden_size;
  const int64_t inter = a.enable_expert_parallel ? m.moe_intermediate_size
                                                 : m.moe_intermediate_size / std::max(1, a.tp);
  if (experts == nullptr || inter <= 0) return 0;
  switch (VllmMxfp4BackendFor(release, gpu)) {
    case VllmMxfp4Backend::kMarlin:
      return MarlinExtraBytes(*experts, h, inter);
    case VllmMxfp4Backend::kTriton: {
      const int64_t on_rank =
          a.enable_expert_parallel ? CeilDiv(m.num_experts, int64_t{a.tp} * a.dp) : m.num_experts;
      const bool prepad64 = release.AtLeast(0, 17, 0);
      int64_t bytes = MoeLayerCount(m) * on_rank * TritonExpertBytes(h, inter, prepad64);
      return std::max<int64_t>(0, bytes - experts->bytes_per_rank);
    }
    case VllmMxfp4Backend::kNotModelled:
      break;
  }
  return 0;
}

}  // namespace kvplan
