// RopeCacheElements: the shape of each engine-built rotary table, following vLLM's get_rope
// (vllm/model_executor/layers/rotary_embedding/__init__.py @v0.10.1); SGLang's get_rope
// (python/sglang/srt/layers/rotary_embedding.py @v0.5.3) builds the same shapes where its model
// file calls it as vLLM's does (SglangRopeCacheElements: where it does not). For Gemma-4 SGLang
// takes vLLM's shapes here; the width of its own Gemma4RotaryEmbedding table was not checked.
#include "catalog/rope_cache.h"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// A positive finite number at `key` of `obj`, or `fallback` when absent or null.
double RopeNumber(const nlohmann::json& obj, const char* key, double fallback,
                  const std::string& origin) {
  auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) return fallback;
  if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() <= 0) {
    throw InputError(origin + ": config key \"" + key + "\" must be a positive number");
  }
  return it->get<double>();
}

// The string at `key` of `obj`; "" when absent or not a string (then the plain table applies).
std::string RopeString(const nlohmann::json& obj, const char* key) {
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A table's row count from a position count and a factor read from the config: bounded (a
// real table has at most a few million rows), so the cast below stays defined.
int64_t TableRowCount(double rows, const std::string& origin) {
  if (rows > static_cast<double>(kMaxInputCount) * 64) {
    throw InputError(origin + ": rope_scaling gives a rotary table of more than 6.4e9 rows");
  }
  return static_cast<int64_t>(std::ceil(rows));
}

// Rows of one table: RotaryEmbedding._compute_cos_sin_cache builds one row per position up to
// max_position_embeddings; the scaled kinds build more (rotary_embedding/*.py @v0.10.1).
int64_t TableRows(const nlohmann::json* scaling, int64_t max_pos, const std::string& origin) {
  if (scaling == nullptr || !scaling->is_object()) return max_pos;
  std::string type = RopeString(*scaling, "rope_type");
  if (type.empty()) type = RopeString(*scaling, "type");
  auto scaled = [&](double positions) {
    return TableRowCount(positions * RopeNumber(*scaling, "factor", 1.0, origin), origin);
  };
  // linear_scaling_rope.py, dynamic_ntk_scaling_rope.py: max_position x factor rows
  // (DynamicNTKAlpha, selected by an "alpha" key, keeps max_position).
  if (type == "linear" || (type == "dynamic" && !scaling->contains("alpha"))) {
    return scaled(static_cast<double>(max_pos));
  }
  // yarn_scaling_rope.py, deepseek_scaling_rope.py: original_max_position x factor rows.
  if (type == "yarn" || type == "deepseek_yarn") {
    double original = RopeNumber(*scaling, "original_max_position_embeddings",
                                 static_cast<double>(max_pos), origin);
    return scaled(original);
  }
  // phi3_long_rope_scaled_rope.py: the short table (original_max_position rows) and the long
  // one (max_position rows), concatenated.
  if (type == "longrope" || type == "su") {
    double original = RopeNumber(*scaling, "original_max_position_embeddings",
                                 static_cast<double>(max_pos), origin);
    return TableRowCount(original, origin) + max_pos;
  }
  return max_pos;  // default, llama3, mrope, dynamic with alpha: max_position rows
}

// Columns: rotary_dim (cos and sin halves), head_dim x partial_rotary_factor where the config
// rotates part of each head (rotary_dim / rotary_pct in GPT-J / GPT-NeoX configs).
int64_t TableColumns(const nlohmann::json& cfg, const ModelSpec& m, const std::string& origin) {
  if (m.attention == AttentionKind::kMla) return m.qk_rope_head_dim;
  if (auto it = cfg.find("rotary_dim"); it != cfg.end() && it->is_number_integer()) {
    return std::clamp<int64_t>(it->get<int64_t>(), 0, m.head_dim);
  }
  double part =
      RopeNumber(cfg, "partial_rotary_factor", RopeNumber(cfg, "rotary_pct", 1.0, origin), origin);
  return static_cast<int64_t>(static_cast<double>(m.head_dim) * std::min(part, 1.0));
}

// Gemma-4 (vllm/model_executor/models/gemma4.py @v0.19.0 Gemma4Attention): each layer calls
// get_rope with its own head size and rope_parameters[layer_type], so the sliding and the full
// layers build one table each (their keys differ in base, head size and rope type). The full
// layers' "proportional" rope is Gemma4RotaryEmbedding (rotary_embedding/gemma4_rope.py), which
// passes rotary_dim = head_size to the base class: its table is global_head_dim wide, the
// non-rotated columns padded with cos 1, sin 0.
int64_t Gemma4RopeElements(const nlohmann::json& cfg, const ModelSpec& m,
                           const std::string& origin) {
  const nlohmann::json empty = nlohmann::json::object();
  const nlohmann::json* sliding = &empty;
  const nlohmann::json* full = &empty;
  if (auto it = cfg.find("rope_parameters"); it != cfg.end() && it->is_object()) {
    if (auto s = it->find("sliding_attention"); s != it->end() && s->is_object()) sliding = &*s;
    if (auto f = it->find("full_attention"); f != it->end() && f->is_object()) full = &*f;
  }
  auto width = [&](const nlohmann::json& params, int64_t head_size) {
    if (RopeString(params, "rope_type") == "proportional") return head_size;
    const double part = std::min(RopeNumber(params, "partial_rotary_factor", 1.0, origin), 1.0);
    return static_cast<int64_t>(static_cast<double>(head_size) * part);
  };
  int64_t global_head = m.head_dim;
  if (auto it = cfg.find("global_head_dim"); it != cfg.end() && it->is_number_integer()) {
    global_head = std::clamp<int64_t>(it->get<int64_t>(), 0, kMaxInputCount);
  }
  const int64_t columns =
      CheckedAdd(width(*sliding, m.head_dim), width(*full, global_head), "Gemma-4 rotary tables");
  return CheckedMul(m.max_position_embeddings, columns, "the model's rotary tables");
}

}  // namespace

int64_t RopeCacheElements(const nlohmann::json& cfg, const ModelSpec& m,
                          const std::string& origin) {
  // Absolute position tables (GPT-2), ALiBi (Bloom) and NoPE hybrids build no rotary table.
  if (m.learned_position_rows > 0 || m.family == "bloom" || m.max_position_embeddings <= 0) {
    return 0;
  }
  if (RopeString(cfg, "position_embedding_type") == "nope") return 0;
  // Kimi-Linear's NoPE MLA (vLLM models/kimi_linear.py @v0.11.1: rotary_emb=None).
  if (auto it = cfg.find("mla_use_nope"); it != cfg.end() && it->is_boolean() && it->get<bool>()) {
    return 0;
  }
  if (m.family == "gemma4") return Gemma4RopeElements(cfg, m, origin);
  // vLLM models/zamba2.py Zamba2Attention @v0.11.0: a rotary table only with use_mem_rope.
  if (m.family == "zamba2") {
    auto it = cfg.find("use_mem_rope");
    if (it == cfg.end() || !it->is_boolean() || !it->get<bool>()) return 0;
  }
  // vLLM models/plamo2.py Plamo2AttentionMixer @v0.10.2 sizes its table by min(
  // max_position_embeddings, --max-model-len), which the catalog does not know; PLaMo-2's
  // remote config raises max_position_embeddings to at least 10 Mi tokens, a table of GiB that
  // vLLM never builds. Not counted: at a 32K context the table is 32768 x 128 elements (8 MiB).
  if (m.family == "plamo2") return 0;
  const nlohmann::json* scaling = nullptr;
  for (const char* key : {"rope_scaling", "rope_parameters"}) {
    auto it = cfg.find(key);
    if (it != cfg.end() && it->is_object()) scaling = &*it;
  }
  const int64_t columns = TableColumns(cfg, m, origin);
  int64_t rows = TableRows(scaling, m.max_position_embeddings, origin);
  // Gemma-3 (vllm/model_executor/models/gemma3.py @v0.10.1): sliding layers use a second
  // table of rope_local_base_freq without scaling.
  if (m.family == "gemma3" || cfg.contains("rope_local_base_freq")) {
    rows = CheckedAdd(rows, m.max_position_embeddings, "the model's rotary tables");
  }
  // DeepSeek-V4 (vllm/model_executor/models/deepseek_v4.py @023da1f DeepseekV4Attention):
  // compressed layers rotate with compress_rope_theta, the others with rope_theta: two tables
  // when the model has both kinds of layer.
  const auto& r = m.compress_ratios;
  if (std::count(r.begin(), r.end(), 0) > 0 && std::count(r.begin(), r.end(), 0) < std::ssize(r)) {
    rows = CheckedAdd(rows, rows, "the model's rotary tables");
  }
  return CheckedMul(rows, columns, "the model's rotary tables");
}

}  // namespace kvplan

namespace kvplan {

int64_t SglangRopeCacheElements(const ModelSpec& m, bool gemma3_layers_call_get_rope) {
  if (m.family != "gemma3") return m.rope_cache_elements;
  // python/sglang/srt/models/gemma3_causal.py: the model's two Gemma3RotaryEmbedding modules
  // keep only inv_freq and compute cos/sin each step, so a release whose Gemma3Attention does
  // not call get_rope builds no table (weights.tsv, pr4826: 8.01 GiB against 8.13 logged).
  if (!gemma3_layers_call_get_rope) return 0;
  // Later every Gemma3Attention calls get_rope with rope_scaling {"rope_type": "default"},
  // the global layers included, and base rope_local_base_freq (sliding) or rope_theta (full):
  // get_rope's cache, keyed by base among others, holds two unscaled tables of
  // max_position x rotary_dim (the whole head).
  return CheckedMul(CheckedMul(2, m.max_position_embeddings, "the model's rotary tables"),
                    m.head_dim, "the model's rotary tables");
}

}  // namespace kvplan
