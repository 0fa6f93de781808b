// Models and GPUs built by hand for the engine planners' unit tests, with the
// real figures of the Hugging Face config.json files in ../shared/models and
// the GPU totals the public logs print; so the tests do not depend on the
// model loader or the GPU catalog.
#pragma once

#include <string>

#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/model.h"

namespace kvplan::hand {

inline ModelSpec Gqa(const std::string& id, int layers, int heads, int kv_heads, int head_dim,
                     int hidden, int inter, int64_t vocab, int64_t max_pos) {
  ModelSpec m;
  m.id = id;
  m.torch_dtype = "bfloat16";
  m.dtype_bytes = 2;
  m.num_layers = layers;
  m.num_attention_heads = heads;
  m.num_kv_heads = kv_heads;
  m.head_dim = head_dim;
  m.v_head_dim = head_dim;
  m.hidden_size = hidden;
  m.intermediate_size = inter;
  m.vocab_size = vocab;
  m.max_position_embeddings = max_pos;
  m.layer_kinds.assign(layers, LayerKind::kFull);
  return m;
}

// meta-llama/Llama-3.1-8B-Instruct config.json.
inline ModelSpec Llama31_8B() {
  return Gqa("meta-llama/Llama-3.1-8B-Instruct", 32, 32, 8, 128, 4096, 14336, 128256, 131072);
}

// meta-llama/Meta-Llama-3.1-70B config.json.
inline ModelSpec Llama31_70B() {
  return Gqa("meta-llama/Meta-Llama-3.1-70B", 80, 64, 8, 128, 8192, 28672, 128256, 131072);
}

inline ModelSpec Moe(ModelSpec m, int experts, int topk, int moe_inter) {
  m.num_experts = experts;
  m.experts_per_token = topk;
  m.moe_intermediate_size = moe_inter;
  m.layer_is_moe.assign(m.num_layers, true);
  return m;
}

// Qwen/Qwen3-30B-A3B config.json.
inline ModelSpec Qwen3_30B_A3B() {
  return Moe(Gqa("Qwen/Qwen3-30B-A3B", 48, 32, 4, 128, 2048, 6144, 151936, 40960), 128, 8, 768);
}

// Qwen/Qwen3-235B-A22B-FP8 config.json.
inline ModelSpec Qwen3_235B_FP8() {
  ModelSpec m = Moe(Gqa("Qwen/Qwen3-235B-A22B-FP8", 94, 64, 4, 128, 4096, 12288, 151936, 40960),
                    128, 8, 1536);
  m.quant.method = "fp8";
  m.quant.weight_bits = 8;
  m.quant.block_n = m.quant.block_k = 128;
  return m;
}

// openai/gpt-oss-120b config.json: 36 layers alternating sliding/full (sliding first).
inline ModelSpec GptOss120B() {
  ModelSpec m =
      Moe(Gqa("openai/gpt-oss-120b", 36, 64, 8, 64, 2880, 2880, 201088, 131072), 128, 4, 2880);
  for (int i = 0; i < 36; ++i)
    m.layer_kinds[i] = i % 2 == 0 ? LayerKind::kSliding : LayerKind::kFull;
  m.sliding_window = 128;
  m.quant.method = "mxfp4";
  m.quant.weight_bits = 4;
  m.quant.experts_only = true;
  return m;
}

// google/gemma-3-27b-it text config: 62 layers, every 6th global, window 1024.
inline ModelSpec Gemma3_27B() {
  ModelSpec m = Gqa("google/gemma-3-27b-it", 62, 32, 16, 128, 5376, 21504, 262208, 131072);
  for (int i = 0; i < 62; ++i)
    m.layer_kinds[i] = (i + 1) % 6 == 0 ? LayerKind::kFull : LayerKind::kSliding;
  m.sliding_window = 1024;
  return m;
}

// MLA geometry of DeepSeek-V2-Lite (27 layers) / DeepSeek-V3 (61 layers).
inline ModelSpec DeepSeekMla(const std::string& id, int layers, int64_t max_pos) {
  ModelSpec m = Gqa(id, layers, 16, 16, 192, 2048, 10944, 102400, max_pos);
  m.attention = AttentionKind::kMla;
  m.kv_lora_rank = 512;
  m.qk_rope_head_dim = 64;
  m.qk_nope_head_dim = 128;
  m.v_head_dim = 128;
  return m;
}

inline GpuSpec Gpu(const std::string& id, double total_gib) {
  GpuSpec g;
  g.id = id;
  g.name = id;
  g.vendor = "nvidia";
  g.total_bytes = GiBToBytes(total_gib);
  g.capacity_mib = static_cast<int64_t>(total_gib * 1024) + 470;
  return g;
}

// Totals as the runtime reports them (perf-model.md GPU table; the public logs).
inline GpuSpec H100() { return Gpu("h100-sxm", 81090.0 / 1024); }
inline GpuSpec Rtx3090() { return Gpu("rtx-3090", 23.58); }
inline GpuSpec H20_141() { return Gpu("h20-141g", 139.8); }

}  // namespace kvplan::hand
