// SGLang's weight loading: --dtype and the --quantization values kvplan models.
#include "engines/sglang/weight_loading.h"

#include "base/checked_math.h"
#include "catalog/rope_cache.h"
#include "engines/sglang/era.h"

namespace kvplan {

WeightLoading SglangWeightLoading(const SglangArgs& a) {
  WeightLoading w;
  w.engine = "SGLang";
  w.dtype = a.dtype;
  w.quantization = a.quantization;
  // Online fp8 only: python/sglang/srt/layers/quantization/fp8.py @v0.5.3
  // Fp8LinearMethod quantizes a 16-bit checkpoint per output channel on NVIDIA.
  w.online_methods = {"fp8"};
  // python/sglang/srt/layers/quantization/__init__.py @v0.5.3 QUANTIZATION_METHODS,
  // the ones whose weight layout kvplan reads.
  w.accepted_methods = {"fp8",        "fbgemm_fp8",   "compressed-tensors", "mxfp4",  "awq",
                        "awq_marlin", "gptq",         "gptq_marlin",        "marlin", "moe_wna16",
                        "modelopt",   "modelopt_fp4", "bitsandbytes"};
  w.online_fp8_per_channel = true;
  return w;
}

int64_t SglangLoadedWeightBytes(const ModelSpec& m, const WeightEstimate& w, int64_t version_key) {
  // SGLang #12590 ("[CPU] Add frontend support for Gemma", opened 2025-11-04, in review on
  // 2026-03-12) made every Gemma3Attention call get_rope; 0.5.10 is the first release after
  // [inferred from the dates].
  constexpr int64_t kGemma3GetRopeSince = SglangVersionKey(0, 5, 10);
  const int64_t rope = SglangRopeCacheElements(m, version_key >= kGemma3GetRopeSince);
  // python/sglang/srt/model_executor/model_runner.py @v0.5.3 load_model: "mem usage" is the
  // device's free memory (get_available_gpu_memory) before the load minus after; the rotary
  // tables stay float32 on CUDA (layers/rotary_embedding.py RotaryEmbedding.__init__).
  return CheckedAdd(LoadedBytesPerRank(m, w, LoadMeasure::kDeviceFree, 0),
                    CheckedMul(rope, 4, "the rotary tables"), "the loaded weights");
}

}  // namespace kvplan
