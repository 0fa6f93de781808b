// The models and GPUs of the engine tests. A model that is in the bundled
// catalog (data/models/*.json, the Hugging Face config.json files) and a GPU
// that is in the GPU catalog (data/gpus.json) are loaded from there, so a test
// never carries a second, hand-copied geometry that could drift from the real
// one. Only what the catalogs lack is built here, each with the source of its
// figures.
#pragma once

#include <cstdint>
#include <string>

#include "base/units.h"
#include "catalog/gpu.h"
#include "catalog/model.h"
#include "testing/input_error.h"
#include "testing/test_data.h"

namespace kvplan::testing {

// A real config.json kept under tests/data/real/configs/ (sources in its SOURCES.md).
inline ModelSpec RealConfig(const std::string& file) {
  return LoadModel(RealData("configs/" + file));
}

// What ParseModelConfig refuses `text` with, naming it `origin`; "" when it parses.
inline std::string ModelConfigError(const std::string& text,
                                    const std::string& origin = "synthetic.json") {
  return InputErrorOf([&] { ParseModelConfig(text, origin); });
}

// ---- Models of the bundled catalog ----------------------------------------

inline ModelSpec Llama31_8B() { return LoadModel("meta-llama/Llama-3.1-8B-Instruct"); }
inline ModelSpec Llama31_70B() { return LoadModel("meta-llama/Meta-Llama-3.1-70B"); }
inline ModelSpec Qwen3_32B() { return LoadModel("Qwen/Qwen3-32B"); }
inline ModelSpec Qwen3_30B_A3B() { return LoadModel("Qwen/Qwen3-30B-A3B"); }
inline ModelSpec Qwen3_235B_FP8() { return LoadModel("Qwen/Qwen3-235B-A22B-FP8"); }
inline ModelSpec GptOss120B() { return LoadModel("openai/gpt-oss-120b"); }
inline ModelSpec Gemma3_27B() { return LoadModel("google/gemma-3-27b-it"); }
inline ModelSpec DeepSeekV3() { return LoadModel("deepseek-ai/DeepSeek-V3"); }

// ---- Geometries the catalog does not hold ----------------------------------

// A dense bf16 GQA model with every layer full attention, for a model the
// catalog lacks. `inter` and `vocab` may be 0 where a test needs neither the
// MLP width nor the vocabulary.
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
  m.layer_kinds.assign(static_cast<size_t>(layers), LayerKind::kFull);
  return m;
}

// `m` with every layer a routed-expert MoE layer.
inline ModelSpec Moe(ModelSpec m, int experts, int topk, int moe_inter) {
  m.num_experts = experts;
  m.experts_per_token = topk;
  m.moe_intermediate_size = moe_inter;
  m.layer_is_moe.assign(static_cast<size_t>(m.num_layers), true);
  return m;
}

// Qwen/Qwen3-0.6B config.json: 28 layers, 16 heads, 8 KV heads, head_dim 128.
inline ModelSpec Qwen3_0_6B() {
  ModelSpec m = Gqa("Qwen/Qwen3-0.6B", 28, 16, 8, 128, 1024, 0, 0, 40960);
  m.architecture = "Qwen3ForCausalLM";
  return m;
}
// Qwen/Qwen3-14B config.json: 40 layers, 40 heads, 8 KV heads, head_dim 128.
inline ModelSpec Qwen3_14B() {
  ModelSpec m = Gqa("Qwen/Qwen3-14B", 40, 40, 8, 128, 5120, 0, 0, 40960);
  m.architecture = "Qwen3ForCausalLM";
  return m;
}

// MLA geometry of deepseek-ai/DeepSeek-V2-Lite config.json (27 layers), or
// the same attention with another layer count and context.
inline ModelSpec DeepSeekMla(const std::string& id, int layers, int64_t max_pos) {
  ModelSpec m = Gqa(id, layers, 16, 16, 192, 2048, 10944, 102400, max_pos);
  m.attention = AttentionKind::kMla;
  m.kv_lora_rank = 512;
  m.qk_rope_head_dim = 64;
  m.qk_nope_head_dim = 128;
  m.v_head_dim = 128;
  return m;
}

// deepseek-ai/DeepSeek-V3.2-Exp config.json: DeepSeek-V3 plus the sparse
// attention indexer (index_head_dim 128).
inline ModelSpec DeepSeekV32() {
  ModelSpec m = DeepSeekV3();
  m.id = "deepseek-ai/DeepSeek-V3.2-Exp";
  m.architecture = "DeepseekV32ForCausalLM";
  m.index_head_dim = 128;
  return m;
}

// ---- GPUs ------------------------------------------------------------------

inline GpuSpec H100() { return FindGpu("h100-sxm"); }
inline GpuSpec H200() { return FindGpu("h200"); }
inline GpuSpec B200() { return FindGpu("b200"); }
inline GpuSpec L40S() { return FindGpu("l40s"); }
inline GpuSpec RtxPro6000() { return FindGpu("rtx-pro-6000-server"); }

// A GPU the catalog lacks, with the total memory a public log reports.
inline GpuSpec Gpu(const std::string& id, double total_gib) {
  GpuSpec g;
  g.id = id;
  g.name = id;
  g.vendor = "nvidia";
  g.total_bytes = GiBToBytes(total_gib);
  g.capacity_mib = static_cast<int64_t>(total_gib * 1024) + 470;
  return g;
}

// A catalog GPU with the total memory a public log reports for it, for the
// engines that size from the runtime's total (vLLM's total_gpu_memory).
inline GpuSpec WithLoggedTotal(const std::string& id, double total_gib) {
  GpuSpec g = FindGpu(id);
  g.total_bytes = GiBToBytes(total_gib);
  return g;
}

// vLLM issue #10517: "total_gpu_memory=23.58GiB" on an RTX 3090.
inline GpuSpec Rtx3090() { return WithLoggedTotal("rtx-3090", 23.58); }
// The 141 GB H20 of vllm-project/recipes PR #12 (the catalog has the 96 GB card).
inline GpuSpec H20_141() { return Gpu("h20-141g", 139.8); }

}  // namespace kvplan::testing
