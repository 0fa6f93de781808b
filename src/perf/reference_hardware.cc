#include "perf/reference_hardware.h"

#include "util/error.h"

namespace kvplan {
namespace {

GpuSpec Nvlink(std::string id, double hbm, double bf16, double fp8, double fp4, int gen,
               double nvlink_bw, int pcie_gen) {
  GpuSpec g;
  g.id = std::move(id);
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

GpuSpec Pcie(std::string id, double hbm, double bf16, double fp8, double fp4, int pcie_gen,
             bool p2p) {
  GpuSpec g;
  g.id = std::move(id);
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

}  // namespace

GpuSpec ReferenceGpu(const std::string& id) {
  // perf-model.md section 6 (aiconfigurator system files, vendor sheets).
  if (id == "h100-sxm") return Nvlink(id, 3.35e12, 989e12, 1978e12, 0, 4, 450e9, 5);
  if (id == "h200") return Nvlink(id, 4.8e12, 989e12, 1978e12, 0, 4, 450e9, 5);
  // H800: the 400 GB/s (bidirectional) NVLink part, 8 links.
  if (id == "h800") return Nvlink(id, 3.35e12, 989e12, 1978e12, 0, 4, 200e9, 5);
  if (id == "b200") return Nvlink(id, 7.7e12, 2250e12, 4500e12, 9000e12, 5, 900e9, 6);
  if (id == "b300") return Nvlink(id, 7.7e12, 2250e12, 4500e12, 13500e12, 5, 900e9, 6);
  if (id == "h100-pcie") {
    GpuSpec g = Pcie(id, 2.0e12, 756.5e12, 1513e12, 0, 5, true);
    g.nvlink_generation = 4;  // NVLink bridge pairs
    return g;
  }
  if (id == "rtx-pro-6000") return Pcie(id, 1.792e12, 467.8e12, 935.6e12, 1871.2e12, 5, true);
  if (id == "rtx-4090") return Pcie(id, 1.008e12, 165.2e12, 330e12, 0, 4, false);
  if (id == "rtx-5090") return Pcie(id, 1.792e12, 209.5e12, 419e12, 838e12, 5, false);
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
  if (id == "deepseek-v3") {
    // data/models/deepseek-ai--DeepSeek-V3.json.
    ModelSpec m;
    m.id = id;
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
    return m;
  }
  throw InputError("no reference model '" + id + "'");
}

}  // namespace kvplan
