#include "perf/reference_hardware.h"

#include <nlohmann/json.hpp>

#include "catalog/quantization.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

GpuSpec Nvlink(std::string id, int cc, int sms, double hbm, double bf16, double fp8, double fp4,
               int gen, double nvlink_bw, int pcie_gen) {
  GpuSpec g;
  g.id = std::move(id);
  g.compute_capability = cc;
  g.sm_count = sms;
  g.hbm_bandwidth = hbm;
  g.bf16_flops = bf16;
  g.fp8_flops = fp8;
  g.fp4_flops = fp4;
  g.link = LinkKind::kNvlink;
  g.nvlink_generation = gen;
  g.nvlink_bandwidth = nvlink_bw;
  g.pcie_generation = pcie_gen;
  g.pcie_bandwidth = pcie_gen >= 5 ? 64e9 : 32e9;
  return g;
}

GpuSpec Pcie(std::string id, int cc, int sms, double hbm, double bf16, double fp8, double fp4,
             int pcie_gen, bool p2p) {
  GpuSpec g;
  g.id = std::move(id);
  g.compute_capability = cc;
  g.sm_count = sms;
  g.hbm_bandwidth = hbm;
  g.bf16_flops = bf16;
  g.fp8_flops = fp8;
  g.fp4_flops = fp4;
  g.link = LinkKind::kPcie;
  g.pcie_generation = pcie_gen;
  g.pcie_bandwidth = pcie_gen >= 5 ? 64e9 : 32e9;
  g.p2p = p2p;
  return g;
}

ModelSpec Dense(std::string id, std::string arch, int64_t vocab, int hidden, int layers, int heads,
                int kv_heads, int inter) {
  ModelSpec m;
  m.id = std::move(id);
  m.architecture = std::move(arch);
  m.vocab_size = vocab;
  m.hidden_size = hidden;
  m.num_layers = layers;
  m.num_attention_heads = heads;
  m.num_kv_heads = kv_heads;
  m.head_dim = hidden / heads;
  m.v_head_dim = m.head_dim;
  m.intermediate_size = inter;
  m.layer_kinds.assign(layers, LayerKind::kFull);
  return m;
}

ModelSpec DeepseekV3(std::string id) {
  // data/models/deepseek-ai--DeepSeek-V3.json.
  ModelSpec m;
  m.id = std::move(id);
  m.architecture = "DeepseekV3ForCausalLM";
  m.model_type = "deepseek_v3";
  m.vocab_size = 129280;
  m.hidden_size = 7168;
  m.num_layers = 61;
  m.num_attention_heads = 128;
  m.num_kv_heads = 128;
  m.head_dim = 192;
  m.v_head_dim = 128;
  m.intermediate_size = 18432;
  m.attention = AttentionKind::kMla;
  m.q_lora_rank = 1536;
  m.kv_lora_rank = 512;
  m.qk_nope_head_dim = 128;
  m.qk_rope_head_dim = 64;
  m.num_experts = 256;
  m.experts_per_token = 8;
  m.moe_intermediate_size = 2048;
  m.num_shared_experts = 1;
  m.first_k_dense_layers = 3;
  m.layer_is_moe.assign(61, true);
  for (int i = 0; i < 3; ++i) m.layer_is_moe[i] = false;
  m.layer_kinds.assign(61, LayerKind::kFull);
  m.num_nextn_predict_layers = 1;
  m.quant.method = "fp8";
  m.quant.weight_bits = 8;
  m.quant.block_n = m.quant.block_k = 128;
  m.quant.scale_bytes = 4;  // float32 block scales
  m.quant.attention_quantized = m.quant.dense_mlp_quantized = true;
  m.quant.experts_quantized = m.quant.shared_experts_quantized = true;
  return m;
}

}  // namespace

GpuSpec ReferenceGpu(const std::string& id) {
  // perf-model.md section 6 (aiconfigurator system files, vendor sheets); SM
  // counts from the datasheets (B300 taken as B200: only sm_count-sensitive
  // kernels, which kvplan models for SM120/SM8x, would read it).
  if (id == "h100-sxm") return Nvlink(id, 90, 132, 3.35e12, 989e12, 1978e12, 0, 4, 450e9, 5);
  if (id == "h200") return Nvlink(id, 90, 132, 4.8e12, 989e12, 1978e12, 0, 4, 450e9, 5);
  // H800: the 400 GB/s (bidirectional) NVLink part, 8 links.
  if (id == "h800") return Nvlink(id, 90, 132, 3.35e12, 989e12, 1978e12, 0, 4, 200e9, 5);
  if (id == "b200") return Nvlink(id, 100, 148, 7.7e12, 2250e12, 4500e12, 9000e12, 5, 900e9, 6);
  if (id == "b300") return Nvlink(id, 103, 148, 7.7e12, 2250e12, 4500e12, 13500e12, 5, 900e9, 6);
  if (id == "h100-pcie") {
    GpuSpec g = Pcie(id, 90, 114, 2.0e12, 756.5e12, 1513e12, 0, 5, true);
    g.nvlink_generation = 4;  // NVLink bridge pairs
    return g;
  }
  if (id == "a100-80gb") return Nvlink(id, 80, 108, 2.039e12, 312e12, 0, 0, 3, 300e9, 4);
  if (id == "rtx-pro-6000")
    return Pcie(id, 120, 188, 1.792e12, 467.8e12, 935.6e12, 1871.2e12, 5, true);
  if (id == "rtx-4090") return Pcie(id, 89, 128, 1.008e12, 165.2e12, 330e12, 0, 4, false);
  if (id == "rtx-5090") return Pcie(id, 120, 170, 1.792e12, 209.5e12, 419e12, 838e12, 5, false);
  throw InputError("no reference GPU '" + id + "'");
}

ModelSpec ReferenceModel(const std::string& id) {
  if (id == "llama-3.1-8b") {
    return Dense(id, "LlamaForCausalLM", 128256, 4096, 32, 32, 8, 14336);
  }
  if (id == "llama-3.1-70b") {
    return Dense(id, "LlamaForCausalLM", 128256, 8192, 80, 64, 8, 28672);
  }
  if (id == "qwen2.5-7b") return Dense(id, "Qwen2ForCausalLM", 152064, 3584, 28, 28, 4, 18944);
  if (id == "eagle3-llama-8b") {
    return Dense(id, "LlamaForCausalLMEagle3", 128256, 4096, 1, 32, 8, 14336);
  }
  if (id == "eagle3-deepseek") {
    return Dense(id, "LlamaForCausalLMEagle3", 129280, 7168, 1, 56, 8, 18432);
  }
  if (id == "deepseek-v3") return DeepseekV3(id);
  if (id == "llama-3.3-70b-fp8") {
    // Llama-3.3-70B-Instruct has Llama-3.1-70B's geometry; NIM's FP8 profile
    // stores every decoder linear layer in FP8 with per-tensor scales.
    ModelSpec m = ReferenceModel("llama-3.1-70b");
    m.id = id;
    m.quant = ParseQuantization(
        nlohmann::json::parse(R"({"quant_method": "fp8", "activation_scheme": "static"})"), id);
    return m;
  }
  if (id == "qwen3-30b-a3b") return LoadModel("Qwen/Qwen3-30B-A3B");
  if (id == "qwen3-1.7b") {
    // Qwen3-1.7B model card: 28 layers, hidden 2048, 16 heads / 8 KV heads of
    // 128, MLP 6144, tied 151936-token embedding.
    ModelSpec m = Dense(id, "Qwen3ForCausalLM", 151936, 2048, 28, 16, 8, 6144);
    m.head_dim = m.v_head_dim = 128;
    m.tie_word_embeddings = true;
    return m;
  }
  if (id == "kimi-k2.6") {
    // Kimi-K2's geometry (data/models/moonshotai--Kimi-K2-Instruct.json: 61
    // layers, MLA, 384 experts top-8) in Moonshot's native INT4 layout: routed
    // experts int4, group 32, bf16 scales; attention, shared experts, the dense
    // layer and lm_head in bf16 (the quantization_config Kimi-K2-Thinking ships).
    ModelSpec m = LoadModel("moonshotai/Kimi-K2-Instruct");
    m.id = id;
    m.quant = ParseQuantization(nlohmann::json::parse(R"({
      "quant_method": "compressed-tensors", "format": "pack-quantized",
      "config_groups": {"group_0": {"targets": ["Linear"], "weights": {"num_bits": 4,
        "group_size": 32, "strategy": "group", "symmetric": true, "type": "int"}}},
      "ignore": ["lm_head", "re:.*self_attn.*", "re:.*shared_experts.*",
                 "re:.*mlp\\.(gate|up|gate_up|down)_proj.*"]})"),
                                id);
    return m;
  }
  throw InputError("no reference model '" + id + "'");
}

}  // namespace kvplan
