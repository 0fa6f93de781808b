#include "engines/sglang/memory_settings.h"

namespace kvplan {

// kvplan: data table
const std::vector<std::string>& SglangMemorySettings() {
  // server_args.py @v0.5.5: the fraction first (it sizes the KV pool), then what
  // the weights and the cell size depend on, the layout, the pool's caps, the
  // CUDA graphs, speculative decoding and the hybrid pools' ratios.
  static const std::vector<std::string> keys = {"mem_fraction_static",
                                                "model_path",
                                                "quantization",
                                                "dtype",
                                                "kv_cache_dtype",
                                                "tp_size",
                                                "dp_size",
                                                "pp_size",
                                                "ep_size",
                                                "enable_dp_attention",
                                                "max_total_tokens",
                                                "page_size",
                                                "context_length",
                                                "max_running_requests",
                                                "chunked_prefill_size",
                                                "max_prefill_tokens",
                                                "cuda_graph_max_bs",
                                                "cuda_graph_bs",
                                                "disable_cuda_graph",
                                                "enable_piecewise_cuda_graph",
                                                "speculative_algorithm",
                                                "speculative_draft_model_path",
                                                "speculative_num_steps",
                                                "speculative_eagle_topk",
                                                "speculative_num_draft_tokens",
                                                "cpu_offload_gb",
                                                "attention_backend",
                                                "swa_full_tokens_ratio",
                                                "mamba_full_memory_ratio"};
  return keys;
}

}  // namespace kvplan
