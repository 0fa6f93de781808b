// ReadZamba2: the shared-block layout and the Mamba2 geometry of Zamba2.
#include "catalog/zamba2_config.h"

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::BoundedInt;
using config_json::Json;
using config_json::OptBool;
using config_json::OptBoundedInt;
using config_json::OptInt;
using config_json::OptString;
using config_json::RequireBoundedInt;
using config_json::StringList;

// transformers zamba2/configuration_zamba2.py Zamba2Config: layers_block_type defaults to
// ["mamba"] + (["mamba"] * 5 + ["hybrid"]) * 7 + ["mamba"] * 4 + ["hybrid"] + ["mamba"] * 3 +
// ["hybrid"] + ["mamba"] * 2, the 54 layers of its num_hidden_layers default.
std::vector<std::string> DefaultBlockTypes(int num_layers, const std::string& origin) {
  std::vector<std::string> t{"mamba"};
  for (int i = 0; i < 7; ++i) {
    t.insert(t.end(), 5, "mamba");
    t.emplace_back("hybrid");
  }
  t.insert(t.end(), 4, "mamba");
  t.emplace_back("hybrid");
  t.insert(t.end(), 3, "mamba");
  t.emplace_back("hybrid");
  t.insert(t.end(), 2, "mamba");
  if (static_cast<int>(t.size()) != num_layers) {
    throw InputError(origin +
                     ": a Zamba2 config without layers_block_type needs the 54 layers "
                     "of Zamba2Config's default pattern; num_hidden_layers is " +
                     std::to_string(num_layers));
  }
  return t;
}

// The shared attention (vLLM models/zamba2.py Zamba2Attention @v0.11.0): q, k and v of
// attention_hidden_size = 2 x hidden_size over the concatenated [hidden, embedding] input,
// num_attention_heads heads of attention_head_dim = 2 x hidden // heads (Zamba2Config), and
// K/V heads = query heads (QKVParallelLinear gets no KV head count, Attention none either).
void ReadAttention(const Json& cfg, const std::string& origin, ModelSpec& m) {
  const int64_t width = CheckedMul(2, m.hidden_size, "Zamba2 attention width");
  if (width % m.num_attention_heads != 0) {
    // Zamba2Attention.__init__ raises this ValueError.
    throw InputError(origin +
                     ": ValueError: attention_hidden_size must be divisible by "
                     "num_attention_heads (2 x hidden_size " +
                     std::to_string(width) + ", " + std::to_string(m.num_attention_heads) +
                     " heads)");
  }
  if (m.num_kv_heads != m.num_attention_heads) {
    throw InputError(origin + ": num_key_value_heads " + std::to_string(m.num_kv_heads) +
                     " differs from num_attention_heads " + std::to_string(m.num_attention_heads) +
                     "; vLLM's zamba2.py builds Zamba2's attention with as many K/V heads as "
                     "query heads (multi-head only)");
  }
  m.head_dim = m.v_head_dim =
      BoundedInt(width / m.num_attention_heads, "attention_head_dim", origin);
  // Zamba2MLP accepts GELU only (ValueError otherwise).
  const std::string act = OptString(cfg, "hidden_act", origin).value_or("gelu");
  if (act != "gelu") {
    throw InputError(
        origin + ": ValueError: Only GELU activation is supported (got `hidden_act`: " + act + ")");
  }
}

// The Mamba2 mixer (zamba2.py Zamba2MambaDecoderLayer): intermediate mamba_expand x hidden,
// n_mamba_heads heads of intermediate // heads, mamba_ngroups groups, conv bias use_conv_bias,
// in/out projection biases add_bias_linear. Zamba2Config derives mamba_headdim from the heads
// (default 8); the fork's configs give mamba_headdim and no head count, which fixes the heads
// at intermediate / mamba_headdim (transformers_zamba2 mamba2_layer.py).
void ReadMixer(const Json& cfg, const std::string& origin, ModelSpec& m) {
  m.state_kind = StateKind::kMamba2;
  m.mamba_state_size = RequireBoundedInt(cfg, "mamba_d_state", origin);
  m.mamba_conv_kernel = RequireBoundedInt(cfg, "mamba_d_conv", origin);
  m.mamba_n_groups = RequireBoundedInt(cfg, "mamba_ngroups", origin);
  m.mamba_intermediate_size =
      BoundedInt(CheckedMul(RequireBoundedInt(cfg, "mamba_expand", origin), m.hidden_size,
                            "Zamba2 mamba intermediate size"),
                 "mamba_expand", origin);
  const std::optional<int64_t> heads = OptInt(cfg, "n_mamba_heads", origin);
  const std::optional<int64_t> head_dim = OptInt(cfg, "mamba_headdim", origin);
  if (heads) {
    m.mamba_num_heads = BoundedInt(*heads, "n_mamba_heads", origin);
  } else if (head_dim && *head_dim > 0) {
    m.mamba_num_heads = BoundedInt(m.mamba_intermediate_size / *head_dim, "mamba_headdim", origin);
  } else {
    m.mamba_num_heads = 8;  // Zamba2Config's n_mamba_heads default
  }
  if (m.mamba_num_heads <= 0 || m.mamba_intermediate_size % m.mamba_num_heads != 0 ||
      m.mamba_num_heads % m.mamba_n_groups != 0) {
    throw InputError(origin + ": the Mamba2 heads (" + std::to_string(m.mamba_num_heads) +
                     ") must divide mamba_expand x hidden_size (" +
                     std::to_string(m.mamba_intermediate_size) +
                     ") and be a multiple of "
                     "mamba_ngroups (" +
                     std::to_string(m.mamba_n_groups) + ")");
  }
  m.mamba_head_dim = m.mamba_intermediate_size / m.mamba_num_heads;
  m.mamba_conv_bias = OptBool(cfg, "use_conv_bias", origin).value_or(true);
  m.mamba_proj_bias = OptBool(cfg, "add_bias_linear", origin).value_or(false);
  m.mamba_gated_norm = true;  // MambaMixer2's gated RMSNorm
}

}  // namespace

Zamba2Layers ReadZamba2(const Json& cfg, const std::string& origin, ModelSpec& m) {
  ReadAttention(cfg, origin, m);
  ReadMixer(cfg, origin, m);
  m.shared_blocks = RequireBoundedInt(cfg, "num_mem_blocks", origin);
  m.adapter_rank = RequireBoundedInt(cfg, "adapter_rank", origin);
  m.shared_attention_adapter = OptBool(cfg, "use_shared_attention_adapter", origin).value_or(false);
  // Zamba2MLP's biases follow add_bias_linear; its gate/up adapter is always built.
  m.mlp_bias = OptBool(cfg, "add_bias_linear", origin).value_or(false);
  // Zamba2Config: use_long_context sets max_position_embeddings to 16384.
  if (OptBool(cfg, "use_long_context", origin).value_or(false)) m.max_position_embeddings = 16384;
  std::vector<std::string> blocks = StringList(cfg, "layers_block_type", origin);
  if (blocks.empty()) blocks = DefaultBlockTypes(m.num_layers, origin);
  if (static_cast<int>(blocks.size()) != m.num_layers) {
    throw InputError(origin + ": layers_block_type has " + std::to_string(blocks.size()) +
                     " entries but num_hidden_layers is " + std::to_string(m.num_layers));
  }
  Zamba2Layers out;
  for (const std::string& b : blocks) {
    if (b == "hybrid") {
      out.layer_types.emplace_back("attention");
    } else if (b != "mamba") {
      throw InputError(origin + ": layers_block_type holds \"" + b +
                       "\" (expected mamba or hybrid)");
    }
    out.layer_types.emplace_back("mamba");
  }
  out.has_mlp.assign(out.layer_types.size(), false);
  m.num_layers = static_cast<int>(out.layer_types.size());
  m.norms_without_mlp = 1;  // a Mamba2 layer's input_layernorm
  return out;
}

}  // namespace kvplan
