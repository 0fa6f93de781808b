// vLLM's weight loading: --dtype and the --quantization values kvplan models.
#include "engines/vllm/weight_loading.h"

namespace kvplan {

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

}  // namespace kvplan
