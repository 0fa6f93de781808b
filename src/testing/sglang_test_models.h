// Hand-built model geometries for the SGLang planner tests, with the values
// of the public Hugging Face config.json files (../shared/models), so that
// the planner's tests do not depend on the config parser.
#pragma once

#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "engines/sglang/sglang.h"
#include "testing/engine_test_models.h"

namespace kvplan::testing {

// The shared hand-built GQA geometry (testing/engine_test_models.h); the SGLang
// tests need neither the MLP width nor the vocabulary.
inline ModelSpec Gqa(const char* id, int layers, int heads, int kv_heads, int head_dim, int hidden,
                     int64_t max_pos) {
  ModelSpec m = hand::Gqa(id, layers, heads, kv_heads, head_dim, hidden, 0, 0, max_pos);
  m.architecture = "Qwen3ForCausalLM";
  return m;
}

// Qwen/Qwen3-32B: 64 layers, 64 heads, 8 KV heads, head_dim 128.
inline ModelSpec Qwen3_32B() { return Gqa("Qwen/Qwen3-32B", 64, 64, 8, 128, 5120, 40960); }
// Qwen/Qwen3-30B-A3B: 48 layers, 32 heads, 4 KV heads, head_dim 128 (MoE).
inline ModelSpec Qwen3_30B_A3B() {
  ModelSpec m = Gqa("Qwen/Qwen3-30B-A3B", 48, 32, 4, 128, 2048, 40960);
  m.num_experts = 128;
  m.experts_per_token = 8;
  return m;
}
// Qwen/Qwen3-0.6B: 28 layers, 16 heads, 8 KV heads, head_dim 128.
inline ModelSpec Qwen3_0_6B() { return Gqa("Qwen/Qwen3-0.6B", 28, 16, 8, 128, 1024, 40960); }
// Qwen/Qwen3-14B: 40 layers, 40 heads, 8 KV heads, head_dim 128.
inline ModelSpec Qwen3_14B() { return Gqa("Qwen/Qwen3-14B", 40, 40, 8, 128, 5120, 40960); }
// meta-llama/Llama-3.1-8B-Instruct: 32 layers, 32 heads, 8 KV heads.
inline ModelSpec Llama31_8B() {
  ModelSpec m = Gqa("meta-llama/Llama-3.1-8B-Instruct", 32, 32, 8, 128, 4096, 131072);
  m.architecture = "LlamaForCausalLM";
  return m;
}

// deepseek-ai/DeepSeek-V3: 61 layers, MLA kv_lora_rank 512 + rope 64, fp8 checkpoint.
inline ModelSpec DeepSeekV3() {
  ModelSpec m = Gqa("deepseek-ai/DeepSeek-V3", 61, 128, 128, 192, 7168, 163840);
  m.architecture = "DeepseekV3ForCausalLM";
  m.attention = AttentionKind::kMla;
  m.v_head_dim = 128;
  m.kv_lora_rank = 512;
  m.qk_rope_head_dim = 64;
  m.qk_nope_head_dim = 128;
  m.q_lora_rank = 1536;
  m.num_experts = 256;
  m.experts_per_token = 8;
  m.first_k_dense_layers = 3;
  m.num_nextn_predict_layers = 1;
  m.quant.method = "fp8";
  m.quant.weight_bits = 8;
  return m;
}

// DeepSeek-V3.2-Exp: DeepSeek-V3 plus the sparse-attention indexer (index_head_dim 128).
inline ModelSpec DeepSeekV32() {
  ModelSpec m = DeepSeekV3();
  m.id = "deepseek-ai/DeepSeek-V3.2-Exp";
  m.architecture = "DeepseekV32ForCausalLM";
  m.index_head_dim = 128;
  return m;
}

inline GpuSpec Gpu(const char* id, int64_t total_mib, int64_t capacity_mib, LinkKind link) {
  GpuSpec g;
  g.id = id;
  g.total_bytes = total_mib * kMiB;
  g.capacity_mib = capacity_mib;
  g.link = link;
  g.nvlink_generation = link == LinkKind::kNvlink ? 4 : 0;
  return g;
}

// Capacities: ../shared/reference/perf-model.md section 6 and sglang-memory.md section 2.
inline GpuSpec H100() { return Gpu("h100-sxm", 81090, 81559, LinkKind::kNvlink); }
inline GpuSpec H200() { return Gpu("h200", 143156, 143771, LinkKind::kNvlink); }
inline GpuSpec B200() { return Gpu("b200", 182642, 183359, LinkKind::kNvlink); }
inline GpuSpec L40S() { return Gpu("l40s", 45589, 46068, LinkKind::kPcie); }
inline GpuSpec RtxPro6000() { return Gpu("rtx-pro-6000", 97250, 97887, LinkKind::kPcie); }

// The two free-memory figures SGLang measures, as a log prints them (GiB).
inline SglangMeasured Measured(double pre_gib, double post_gib) {
  SglangMeasured m;
  m.pre_load_free_bytes = GiBToBytes(pre_gib);
  m.post_load_free_bytes = GiBToBytes(post_gib);
  return m;
}

}  // namespace kvplan::testing
