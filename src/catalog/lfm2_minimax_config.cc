// ReadLfm2 and ReadMiniMaxLayers: the layer types and state geometry of LFM2 and
// MiniMax-Text-01 / M1.
#include "catalog/lfm2_minimax_config.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::BoundedInt;
using config_json::IntList;
using config_json::Json;
using config_json::OptBool;
using config_json::OptInt;
using config_json::StringList;

// Lfm2Config defaults (transformers lfm2/configuration_lfm2.py, 4.54): intermediate_size
// 12288, conv_L_cache 3, conv_bias False, block_multiple_of 256, block_ffn_dim_multiplier
// 1.0, block_auto_adjust_ff_dim True.
constexpr int64_t kLfm2Intermediate = 12288;
constexpr int64_t kLfm2ConvLCache = 3;
constexpr int64_t kLfm2MultipleOf = 256;

// The width of LFM2's SwiGLU MLP: vLLM models/lfm2.py Lfm2MLP @v0.10.2 (the same in
// SGLang models/lfm2.py): with block_auto_adjust_ff_dim, int(2 x ff_dim / 3), times
// block_ffn_dim_multiplier when it is not null, rounded up to block_multiple_of. ff_dim is
// Lfm2Config's intermediate_size, which block_ff_dim replaces when present
// (kwargs.get("block_ff_dim", intermediate_size)).
int64_t Lfm2MlpWidth(const Json& cfg, const std::string& origin) {
  const char* ff_key = OptInt(cfg, "block_ff_dim", origin) ? "block_ff_dim" : "intermediate_size";
  int64_t ff =
      BoundedInt(OptInt(cfg, ff_key, origin).value_or(kLfm2Intermediate), ff_key, origin, 1);
  if (!OptBool(cfg, "block_auto_adjust_ff_dim", origin).value_or(true)) return ff;
  ff = 2 * ff / 3;  // int(2 * ff_dim / 3) of a positive value
  auto mult = cfg.find("block_ffn_dim_multiplier");
  if (mult == cfg.end()) {
    // Lfm2Config's default 1.0 leaves the width as it is.
  } else if (mult->is_number() && mult->get<double>() > 0 && mult->get<double>() < 64) {
    ff = static_cast<int64_t>(mult->get<double>() * static_cast<double>(ff));
  } else if (!mult->is_null()) {
    throw InputError(origin + ": block_ffn_dim_multiplier must be a positive number or null");
  }
  const int64_t of = BoundedInt(OptInt(cfg, "block_multiple_of", origin).value_or(kLfm2MultipleOf),
                                "block_multiple_of", origin, 1);
  return of * ((ff + of - 1) / of);
}

// Lfm2Config: layer_types as given ("conv" and SGLang's "short_conv" are the conv layers,
// configs/lfm2.py linear_layer_ids), else "full_attention" at full_attn_idxs and "conv"
// elsewhere, every layer full when both are absent.
std::vector<std::string> Lfm2LayerTypes(const Json& cfg, const std::string& origin,
                                        int num_layers) {
  std::vector<std::string> types = StringList(cfg, "layer_types", origin);
  if (types.empty()) {
    const bool listed = cfg.contains("full_attn_idxs") && !cfg["full_attn_idxs"].is_null();
    const std::vector<int64_t> full = IntList(cfg, "full_attn_idxs", origin);
    for (int i = 0; i < num_layers; ++i) {
      const bool attn = !listed || std::find(full.begin(), full.end(), i) != full.end();
      types.push_back(attn ? "full_attention" : "conv");
    }
  }
  for (std::string& t : types) {
    if (t == "conv" || t == "short_conv") {
      t = "linear_attention";
    } else if (t != "full_attention") {
      throw InputError(origin + ": unknown LFM2 layer_types entry \"" + t +
                       "\" (expected conv or full_attention)");
    }
  }
  return types;
}

}  // namespace

std::vector<std::string> ReadLfm2(const Json& cfg, const std::string& origin, ModelSpec& m) {
  m.state_kind = StateKind::kShortConv;
  // At least 2: the conv window keeps conv_L_cache - 1 tokens.
  m.mamba_conv_kernel = BoundedInt(OptInt(cfg, "conv_L_cache", origin).value_or(kLfm2ConvLCache),
                                   "conv_L_cache", origin, 2);
  m.mamba_conv_bias = OptBool(cfg, "conv_bias", origin).value_or(false);
  // vLLM sizes the conv state from hf_config.conv_dim (lfm2.py @v0.10.2), SGLang from
  // hidden_size (configs/lfm2.py mamba2_cache_params): the released configs state both
  // equal, and a config where they differ would be planned two ways.
  const int64_t conv_dim = OptInt(cfg, "conv_dim", origin).value_or(m.hidden_size);
  if (conv_dim != m.hidden_size) {
    throw InputError(origin + ": conv_dim " + std::to_string(conv_dim) +
                     " differs from hidden_size " + std::to_string(m.hidden_size) +
                     " (vLLM sizes the conv state by one, SGLang by the other)");
  }
  m.mamba_intermediate_size = m.hidden_size;
  m.intermediate_size = static_cast<int>(Lfm2MlpWidth(cfg, origin));
  // Lfm2Config: tie_word_embeddings = kwargs.get("tie_embedding", tie_word_embeddings).
  if (std::optional<bool> tie = OptBool(cfg, "tie_embedding", origin)) m.tie_word_embeddings = *tie;
  return Lfm2LayerTypes(cfg, origin, m.num_layers);
}

std::vector<std::string> ReadMiniMaxLayers(const Json& cfg, const std::string& origin,
                                           ModelSpec& m) {
  m.state_kind = StateKind::kLightning;
  // linear_attention_state_shape(num_attention_heads, tp, head_dim) @v0.10.2: a
  // (heads / tp, head_dim, head_dim) state per lightning layer.
  m.linear_num_key_heads = m.linear_num_value_heads = m.num_attention_heads;
  m.linear_key_head_dim = m.linear_value_head_dim = m.head_dim;
  if (OptInt(cfg, "shared_intermediate_size", origin).value_or(0) > 0) {
    throw InputError(origin +
                     ": shared_intermediate_size > 0 (a shared expert beside the routed ones) "
                     "is not modelled for MiniMax-Text-01");
  }
  std::vector<int64_t> kinds = IntList(cfg, "attn_type_list", origin);
  if (kinds.empty()) kinds = IntList(cfg, "decoder_attention_types", origin);
  std::vector<std::string> types;
  if (kinds.empty()) {
    // The HF format's layer_types, else every layer softmax attention.
    types = StringList(cfg, "layer_types", origin);
    if (types.empty()) types.assign(m.num_layers, "full_attention");
    return types;
  }
  for (int64_t k : kinds) {
    if (k != 0 && k != 1) {
      throw InputError(origin + ": attn_type_list entries must be 0 (lightning) or 1 (softmax)");
    }
    types.push_back(k == 0 ? "linear_attention" : "full_attention");
  }
  return types;
}

}  // namespace kvplan
