#include "perf/reference_hardware.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <optional>
#include <utility>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/embedded_data.h"
#include "catalog/quantization.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using Json = nlohmann::json;

const Json& ReferenceDoc(const char* path, const char* array) {
  static std::map<std::string, Json> docs;  // filled once per file, before any thread reads it
  static std::once_flag once;
  std::call_once(once, [] {
    for (const char* p : {"reference/gpus.json", "reference/models.json"}) {
      std::optional<std::string_view> text = FindEmbeddedFile(p);
      if (!text) throw InputError(fmt::format("{} is not embedded in this kvplan build", p));
      docs[p] = Json::parse(*text);
    }
  });
  const Json& doc = docs.at(path);
  if (!doc.contains(array) || !doc[array].is_array()) {
    throw InputError(fmt::format("{}: expected an object with a '{}' array", path, array));
  }
  return doc[array];
}

const Json& ModelEntry(const std::string& id) {
  for (const Json& e : ReferenceDoc("reference/models.json", "models")) {
    if (e.at("id") == id) return e;
  }
  throw InputError("no reference model '" + id + "'");
}

// ModelSpec's integer fields as data/reference/models.json names them.
const std::pair<const char*, int ModelSpec::*> kIntFields[] = {
    // kvplan: data table
    {"hidden_size", &ModelSpec::hidden_size},
    {"num_layers", &ModelSpec::num_layers},
    {"num_attention_heads", &ModelSpec::num_attention_heads},
    {"num_kv_heads", &ModelSpec::num_kv_heads},
    {"head_dim", &ModelSpec::head_dim},
    {"v_head_dim", &ModelSpec::v_head_dim},
    {"intermediate_size", &ModelSpec::intermediate_size},
    {"q_lora_rank", &ModelSpec::q_lora_rank},
    {"kv_lora_rank", &ModelSpec::kv_lora_rank},
    {"qk_nope_head_dim", &ModelSpec::qk_nope_head_dim},
    {"qk_rope_head_dim", &ModelSpec::qk_rope_head_dim},
    {"num_experts", &ModelSpec::num_experts},
    {"experts_per_token", &ModelSpec::experts_per_token},
    {"moe_intermediate_size", &ModelSpec::moe_intermediate_size},
    {"num_shared_experts", &ModelSpec::num_shared_experts},
    {"first_k_dense_layers", &ModelSpec::first_k_dense_layers},
    {"num_nextn_predict_layers", &ModelSpec::num_nextn_predict_layers},
};

// A quantization stated field by field ("quantization"), for a checkpoint
// whose layout is given rather than read from a quantization_config.
Quantization StatedQuantization(const Json& q) {
  Quantization out;
  out.method = q.at("method").get<std::string>();
  out.weight_bits = q.at("weight_bits").get<int>();
  out.block_n = q.value("block_n", 0);
  out.block_k = q.value("block_k", 0);
  out.scale_bytes = q.value("scale_bytes", 0);
  if (q.value("all_linear_layers", false)) {
    out.attention_quantized = out.dense_mlp_quantized = true;
    out.experts_quantized = out.shared_experts_quantized = true;
  }
  return out;
}

ModelSpec GeometryModel(const Json& e) {
  ModelSpec m;
  m.architecture = e.at("architecture").get<std::string>();
  m.model_type = e.value("model_type", "");
  m.vocab_size = e.at("vocab_size").get<int64_t>();
  for (const auto& [key, field] : kIntFields) {
    if (e.contains(key)) m.*field = e[key].get<int>();
  }
  if (m.head_dim == 0) m.head_dim = m.hidden_size / m.num_attention_heads;
  if (m.v_head_dim == 0) m.v_head_dim = m.head_dim;
  m.tie_word_embeddings = e.value("tie_word_embeddings", false);
  if (e.value("attention", "gqa") == "mla") m.attention = AttentionKind::kMla;
  m.layer_kinds.assign(m.num_layers, LayerKind::kFull);
  if (m.num_experts > 0) {
    m.layer_is_moe.assign(m.num_layers, true);
    for (int i = 0; i < m.first_k_dense_layers; ++i) m.layer_is_moe[i] = false;
  }
  if (e.contains("quantization")) m.quant = StatedQuantization(e["quantization"]);
  return m;
}

}  // namespace

const std::vector<ReferenceGpuSetup>& ReferenceGpuSetups() {
  static const std::vector<ReferenceGpuSetup> setups = [] {
    std::vector<ReferenceGpuSetup> out;
    for (const Json& e : ReferenceDoc("reference/gpus.json", "gpus")) {
      out.push_back({e.at("id").get<std::string>(), e.at("hbm_tb_s").get<double>(),
                     e.at("bf16_tflops").get<double>(), e.at("fp8_tflops").get<double>(),
                     e.at("link_gb_s").get<double>(), e.at("source").get<std::string>()});
    }
    return out;
  }();
  return setups;
}

GpuSpec ReferenceGpu(const std::string& id) {
  const auto& setups = ReferenceGpuSetups();
  if (std::none_of(setups.begin(), setups.end(),
                   [&](const ReferenceGpuSetup& s) { return s.id == id; })) {
    throw InputError("no reference GPU '" + id + "'");
  }
  return FindGpu(id);
}

std::vector<std::string> ReferenceModelIds() {
  std::vector<std::string> ids;
  for (const Json& e : ReferenceDoc("reference/models.json", "models")) {
    ids.push_back(e.at("id").get<std::string>());
  }
  return ids;
}

ModelSpec ReferenceModel(const std::string& id) {
  const Json& e = ModelEntry(id);
  ModelSpec m = e.contains("catalog") ? LoadModel(e["catalog"].get<std::string>())
                : e.contains("base")  ? ReferenceModel(e["base"].get<std::string>())
                                      : GeometryModel(e);
  m.id = id;
  if (e.contains("quantization_config")) m.quant = ParseQuantization(e["quantization_config"], id);
  return m;
}

}  // namespace kvplan
