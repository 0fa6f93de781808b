// ReadGemmaFamily / FinishGemmaLayers: Gemma-4 and Gemma-3n text configs to a ModelSpec.
#include "catalog/gemma_config.h"

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::Json;
using config_json::OptBool;
using config_json::OptBoundedInt;
using config_json::OptObject;

// The layer types the config class builds when the config gives none: Gemma-4 five
// sliding then one full, the last layer always full (transformers Gemma4TextConfig
// __post_init__); Gemma-3n four sliding then one full (Gemma3nTextConfig).
std::vector<std::string> DefaultLayerTypes(int layers, bool gemma3n) {
  const int period = gemma3n ? 5 : 6;
  std::vector<std::string> types;
  for (int i = 0; i < layers; ++i) {
    types.push_back((i + 1) % period == 0 ? "full_attention" : "sliding_attention");
  }
  if (!gemma3n && !types.empty()) types.back() = "full_attention";
  return types;
}

// Gemma-4's MoE block (vLLM gemma4.py Gemma4DecoderLayer, enable_moe_block): routed
// experts of moe_intermediate_size beside the layer's dense MLP, which runs on every
// token as an ungated shared expert would (kvplan prices it as one), a router with a
// per-dimension scale, a per_expert_scale vector, and three more norms.
void ReadGemma4Experts(const Json& cfg, const std::string& origin, ModelSpec& m) {
  m.num_experts = OptBoundedInt(cfg, "num_experts", origin, 0);
  m.experts_per_token = OptBoundedInt(cfg, "top_k_experts", origin, 0);
  m.moe_intermediate_size =
      OptBoundedInt(cfg, "moe_intermediate_size", origin,
                    OptBoundedInt(cfg, "expert_intermediate_size", origin, 0));
  if (m.num_experts <= 0 || m.experts_per_token <= 0 || m.moe_intermediate_size <= 0) {
    throw InputError(origin +
                     ": enable_moe_block is set but num_experts, top_k_experts or "
                     "moe_intermediate_size is missing");
  }
  m.shared_expert_intermediate_size = m.intermediate_size;
  m.shared_expert_gate = false;
  m.expert_scales = true;
  m.norms_per_layer += 4;  // pre_feedforward_layernorm_2, post_feedforward_layernorm_1/2, scale
}

}  // namespace

std::vector<std::string> ReadGemmaFamily(const Json& cfg, const std::string& origin, bool gemma3n,
                                         ModelSpec& m) {
  // input, post-attention, pre- and post-feedforward norms (modeling_gemma4.py, gemma3n).
  m.norms_per_layer = 4;
  m.qk_norm = true;  // q_norm and k_norm of head_dim; v_norm has no weight
  m.per_layer_input_size = OptBoundedInt(cfg, "hidden_size_per_layer_input", origin, 0);
  if (m.per_layer_input_size > 0) {
    m.per_layer_vocab_size = OptBoundedInt(cfg, "vocab_size_per_layer_input", origin, 0);
    if (m.per_layer_vocab_size == 0) m.per_layer_vocab_size = m.vocab_size;
    m.norms_per_layer += 1;  // post_per_layer_input_norm
  }
  if (gemma3n) {
    m.altup_num_inputs = OptBoundedInt(cfg, "altup_num_inputs", origin, 4);
    m.laurel_rank = OptBoundedInt(cfg, "laurel_rank", origin, 64);
    // AltUp's router_norm and correct_output_scale, LAuReL's post_laurel_norm.
    m.norms_per_layer += 3;
  } else if (OptBool(cfg, "enable_moe_block", origin).value_or(false)) {
    ReadGemma4Experts(cfg, origin, m);
  }
  std::vector<std::string> types = config_json::StringList(cfg, "layer_types", origin);
  return types.empty() ? DefaultLayerTypes(m.num_layers, gemma3n) : types;
}

namespace {

// The layer whose KV a KV-sharing layer reads: the last layer of its kind before the
// sharing ones (vLLM gemma4.py Gemma4Attention kv_sharing_target_layer_name; SGLang
// gemma4_causal.py kv_shared_layer_index; vLLM gemma3n.py: first_kv_shared - 2 for
// sliding, - 1 for full, the same layers).
int KvSource(const ModelSpec& m, int layer, int first_shared, const std::string& origin) {
  for (int j = first_shared - 1; j >= 0; --j) {
    if (m.layer_kinds[j] == m.layer_kinds[layer]) return j;
  }
  throw InputError(origin + ": layer " + std::to_string(layer) +
                   " shares KV but no earlier layer is of its kind (num_kv_shared_layers)");
}

}  // namespace

void FinishGemmaLayers(const Json& root, const Json& cfg, const std::string& origin, ModelSpec& m) {
  const bool gemma4 = m.family == "gemma4";
  const int shared = OptBoundedInt(cfg, "num_kv_shared_layers", origin, 0);
  if (shared >= m.num_layers) {
    throw InputError(origin + ": num_kv_shared_layers " + std::to_string(shared) +
                     " leaves no layer with KV of its own (" + std::to_string(m.num_layers) +
                     " layers)");
  }
  const int first_shared = m.num_layers - shared;
  // vLLM gemma4.py: global_head_dim on full layers; num_global_key_value_heads there only
  // with attention_k_eq_v (SGLang hf_transformers_utils.py maps the same fields).
  const int global_dim = gemma4 ? OptBoundedInt(cfg, "global_head_dim", origin, m.head_dim) : 0;
  const bool k_eq_v = gemma4 && OptBool(cfg, "attention_k_eq_v", origin).value_or(false);
  const int global_kv = k_eq_v ? OptBoundedInt(cfg, "num_global_key_value_heads", origin, 0) : 0;
  const bool double_wide = gemma4 && OptBool(cfg, "use_double_wide_mlp", origin).value_or(false);
  m.layer_geometry.assign(m.num_layers, LayerGeometry{});
  for (int i = 0; i < m.num_layers; ++i) {
    LayerGeometry& g = m.layer_geometry[i];
    if (gemma4 && m.layer_kinds[i] == LayerKind::kFull) {
      g.head_dim = g.v_head_dim = global_dim;
      if (global_kv > 0) g.kv_heads = global_kv;
    }
    if (i >= first_shared) {
      g.kv = LayerKv::kShared;
      g.kv_source = KvSource(m, i, first_shared, origin);
      // vLLM gemma4.py Gemma4DecoderLayer: use_double_wide_mlp doubles the KV-sharing layers' MLP.
      if (double_wide) g.mlp_intermediate = 2 * int64_t{m.intermediate_size};
    }
  }
  if (OptObject(root, "audio_config", origin) != nullptr && m.uncounted_weights == "vision tower") {
    m.uncounted_weights = "vision tower, audio encoder";
  }
}

}  // namespace kvplan
