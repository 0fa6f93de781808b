#include "catalog/per_layer_config.h"

#include <algorithm>
#include <cmath>
#include <optional>

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
using config_json::OptObject;
using config_json::RequireBoundedInt;

const Json& BlockPart(const Json& block, const char* part, const std::string& where) {
  const Json* p = OptObject(block, part, where);
  if (p == nullptr) throw InputError(where + ": missing \"" + part + "\"");
  return *p;
}

void RefuseLinearReplacement(const Json& part, const std::string& where) {
  if (OptBool(part, "replace_with_linear", where).value_or(false)) {
    // Neither engine builds it: vllm/model_executor/models/nemotron_nas.py and
    // python/sglang/srt/models/nemotron_nas.py construct full attention / MLP regardless.
    throw InputError(where +
                     ": \"replace_with_linear\": true, which neither vLLM's nor SGLang's "
                     "nemotron_nas.py builds; refused rather than planned without it");
  }
}

// The attention half of one block: no_op, or num_attention_heads // n_heads_in_group KV heads.
void ReadDeciLmAttention(const Json& attn, const std::string& where, const ModelSpec& m,
                         LayerGeometry& g) {
  RefuseLinearReplacement(attn, where);
  if (OptBool(attn, "no_op", where).value_or(false)) {
    g.kv = LayerKv::kNone;
    return;
  }
  const int64_t group = OptInt(attn, "n_heads_in_group", where).value_or(0);
  if (group <= 0 || m.num_attention_heads % group != 0) {
    throw InputError(where + ": \"n_heads_in_group\" must divide num_attention_heads " +
                     std::to_string(m.num_attention_heads));
  }
  g.kv_heads = static_cast<int>(m.num_attention_heads / group);
}

// The FFN half: no_op (no MLP, no norm), ffn_mult, or an explicit intermediate_size.
void ReadDeciLmFfn(const Json& ffn, const std::string& where, const ModelSpec& m,
                   LayerGeometry& g) {
  RefuseLinearReplacement(ffn, where);
  if (OptBool(ffn, "no_op", where).value_or(false)) {
    g.mlp_intermediate = 0;
    return;
  }
  // nemotron_nas.py DeciLMDecoderLayer: ffn_mult when present, else intermediate_size.
  auto mult = ffn.find("ffn_mult");
  if (mult != ffn.end() && mult->is_number()) {
    const double v = mult->get<double>();
    if (!(v > 0 && v < 1e4)) throw InputError(where + ": \"ffn_mult\" out of range");
    g.mlp_intermediate = DeciLmFfnWidth(v, m.hidden_size);
    return;
  }
  const std::optional<int64_t> width = OptInt(ffn, "intermediate_size", where);
  if (!width) throw InputError(where + ": needs \"ffn_mult\" or \"intermediate_size\"");
  g.mlp_intermediate = BoundedInt(*width, "intermediate_size", where, 1);
}

}  // namespace

int64_t DeciLmFfnWidth(double ffn_mult, int hidden) {
  // Python evaluates 2 * ffn_mult * n_embd / 3 left to right in doubles; int() truncates.
  const auto width = static_cast<int64_t>(2 * ffn_mult * hidden / 3);
  return width % 256 == 0 ? width : width + 256 - width % 256;
}

void ReadDeciLmBlocks(const Json& cfg, const std::string& origin, ModelSpec& m) {
  auto blocks = cfg.find("block_configs");
  if (blocks == cfg.end() || !blocks->is_array() ||
      static_cast<int64_t>(blocks->size()) != m.num_layers) {
    throw InputError(origin + ": \"block_configs\" must list one block per layer (" +
                     std::to_string(m.num_layers) + ")");
  }
  m.layer_geometry.assign(static_cast<size_t>(m.num_layers), LayerGeometry{});
  int first_kv = 0;
  int64_t widest = 0;
  for (int i = 0; i < m.num_layers; ++i) {
    const Json& block = (*blocks)[static_cast<size_t>(i)];
    const std::string where = origin + ": block_configs[" + std::to_string(i) + "]";
    if (!block.is_object()) throw InputError(where + " must be an object");
    LayerGeometry& g = m.layer_geometry[static_cast<size_t>(i)];
    ReadDeciLmAttention(BlockPart(block, "attention", where), where + ".attention", m, g);
    ReadDeciLmFfn(BlockPart(block, "ffn", where), where + ".ffn", m, g);
    if (first_kv == 0 && g.kv == LayerKv::kOwn) first_kv = g.kv_heads;
    widest = std::max(widest, g.mlp_intermediate);
  }
  if (first_kv == 0) throw InputError(origin + ": no block has attention (all no_op)");
  // vllm/config/model.py get_total_num_kv_heads: nemotron-nas takes the first
  // attention block's count.
  m.num_kv_heads = first_kv;
  // The widest FFN stands for the model's (decoder activations peak there).
  if (widest > (int64_t{1} << 30)) throw InputError(origin + ": an FFN width is implausible");
  m.intermediate_size = static_cast<int>(widest);
  // A layer without an FFN keeps at most the attention's input_layernorm.
  m.norms_without_mlp = 1;
}

MimoV2Layers ReadMimoV2Layers(const Json& cfg, const std::string& origin, ModelSpec& m) {
  const std::vector<int64_t> pattern = IntList(cfg, "hybrid_layer_pattern", origin);
  const std::vector<int64_t> moe = IntList(cfg, "moe_layer_freq", origin);
  if (static_cast<int64_t>(pattern.size()) != m.num_layers ||
      static_cast<int64_t>(moe.size()) != m.num_layers) {
    throw InputError(origin + ": \"hybrid_layer_pattern\" and \"moe_layer_freq\" must list " +
                     std::to_string(m.num_layers) + " layers");
  }
  m.v_head_dim = RequireBoundedInt(cfg, "v_head_dim", origin);
  const LayerGeometry full{LayerKv::kOwn, -1, m.num_attention_heads, m.num_kv_heads, m.head_dim,
                           m.v_head_dim,  -1};
  const LayerGeometry swa{LayerKv::kOwn,
                          -1,
                          RequireBoundedInt(cfg, "swa_num_attention_heads", origin),
                          RequireBoundedInt(cfg, "swa_num_key_value_heads", origin),
                          RequireBoundedInt(cfg, "swa_head_dim", origin),
                          RequireBoundedInt(cfg, "swa_v_head_dim", origin),
                          -1};
  MimoV2Layers out;
  for (int i = 0; i < m.num_layers; ++i) {
    // MiMoV2FlashDecoderLayer.is_compressed_softmax_layer: pattern 1 slides.
    const bool sliding = pattern[static_cast<size_t>(i)] == 1;
    m.layer_geometry.push_back(sliding ? swa : full);
    out.layer_types.emplace_back(sliding ? "sliding_attention" : "full_attention");
    out.moe_layers.push_back(moe[static_cast<size_t>(i)] != 0);
  }
  return out;
}

}  // namespace kvplan
