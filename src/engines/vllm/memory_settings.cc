#include "engines/vllm/memory_settings.h"

namespace kvplan {

// kvplan: data table
const std::vector<std::string>& VllmMemorySettings() {
  // vllm/engine/arg_utils.py @v0.10.1: the utilization first (it sizes the KV
  // budget), then what the weights and the cell size depend on, the layout,
  // the lengths and batch caps, and the graphs and offload.
  static const std::vector<std::string> keys = {"gpu_memory_utilization",
                                                "kv_cache_memory",
                                                "model",
                                                "quantization",
                                                "dtype",
                                                "kv_cache_dtype",
                                                "tensor_parallel_size",
                                                "data_parallel_size",
                                                "pipeline_parallel_size",
                                                "enable_expert_parallel",
                                                "block_size",
                                                "max_model_len",
                                                "max_num_seqs",
                                                "max_num_batched_tokens",
                                                "enforce_eager",
                                                "cpu_offload_gb"};
  return keys;
}

}  // namespace kvplan
