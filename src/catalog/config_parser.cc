// ParseModelConfig: a Hugging Face config.json to a ModelSpec, by family.
#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "catalog/architectures.h"
#include "catalog/config_json_text.h"
#include "catalog/gemma_config.h"
#include "catalog/json_fields.h"
#include "catalog/lfm2_minimax_config.h"
#include "catalog/model.h"
#include "catalog/per_layer_config.h"
#include "catalog/plamo2_config.h"
#include "catalog/quantization.h"
#include "catalog/rope_cache.h"
#include "catalog/vision_towers.h"
#include "catalog/zamba2_config.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::BoundedInt;
using config_json::IntList;
using config_json::Json;
using config_json::OptBool;
using config_json::OptBoundedInt;
using config_json::OptInt;
using config_json::OptObject;
using config_json::OptString;
using config_json::RequireBoundedInt;
using config_json::RequirePositive;
using config_json::StringList;

// Layout hints read from the config and used only to fill the per-layer tables.
struct LayerPlan {
  std::vector<std::string> layer_types;  // "full_attention", "sliding_attention", ...
  int sliding_pattern = 0;               // Gemma-3: every Nth layer is full
  std::vector<int64_t> no_rope_layers;   // Llama-4: 1 = RoPE + chunked, 0 = NoPE + full
  bool llama4 = false;
  int full_attention_interval = 0;       // Qwen3-Next: every Nth layer is full
  int decoder_sparse_step = 1;           // Qwen MoE: every Nth layer is MoE
  std::vector<int64_t> mlp_only_layers;  // Qwen MoE: dense layers
  // Per-layer MLP tables a hybrid's layout gives outright (Nemotron-H); empty: the rules above.
  std::vector<bool> moe_layers, mlp_layers;
  int last_moe_layer = -1;  // ERNIE moe_layer_end_index (-1: the last layer)
};

// transformers GptOss and Gemma2 without layer_types (a config's list wins): layer i slides when
// i is even, the sliding pattern of every second layer full.
constexpr int kEvenLayersSlide = 2;

Json ParseRoot(std::string_view text, const std::string& origin) {
  if (text.find_first_not_of(" \t\r\n") == std::string_view::npos) {
    throw InputError(origin + ": the file is empty; expected a Hugging Face config.json object");
  }
  Json root = ParseConfigJsonText(text, origin);
  if (!root.is_object()) {
    throw InputError(origin + ": expected a JSON object (a Hugging Face config.json), got " +
                     std::string(root.type_name()));
  }
  return root;
}

std::string Join(const std::vector<std::string>& v) {
  std::string out;
  for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

const ArchitectureInfo& FindFamily(const Json& root, const std::string& origin, std::string& arch) {
  std::vector<std::string> archs = StringList(root, "architectures", origin);
  std::string model_type = OptString(root, "model_type", origin).value_or("");
  if (!archs.empty()) {
    arch = archs[0];
    const ArchitectureInfo* info = FindArchitecture(arch);
    // The EAGLE-3 training configs (SafeAILab) say LlamaForCausalLM but carry
    // a draft vocabulary: they are EAGLE-3 drafts.
    if (info != nullptr && info->family == ModelFamily::kDense &&
        root.contains("draft_vocab_size")) {
      info = FindArchitecture("LlamaForCausalLMEagle3");
    }
    if (const std::string_view why = UnservedArchitectureReason(arch);
        info == nullptr && !why.empty()) {
      throw InputError(origin + ": \"" + arch + "\" (" +
                       std::string(UnmodelledStateArchitecture(arch)) +
                       ") is served by no engine release kvplan models: " + std::string(why));
    }
    if (const std::string_view layers = UnmodelledStateArchitecture(arch);
        info == nullptr && !layers.empty()) {
      throw InputError(origin + ": \"" + arch + "\" has " + std::string(layers) +
                       " layers, whose per-request state memory kvplan does not model yet; "
                       "refused rather than planned as all-attention");
    }
    if (info == nullptr) {
      throw InputError(origin + ": unsupported architecture \"" + arch +
                       "\" (supported: " + Join(SupportedArchitectures()) + ")");
    }
    return *info;
  }
  const ArchitectureInfo* info = FindArchitectureByModelType(model_type);
  if (info == nullptr) {
    if (model_type.empty()) {
      throw InputError(origin +
                       ": config.json has neither \"architectures\" nor \"model_type\"; cannot "
                       "tell which model this is");
    }
    throw InputError(origin + ": unsupported model_type \"" + model_type +
                     "\" and no \"architectures\" (supported: " + Join(SupportedArchitectures()) +
                     ")");
  }
  arch = info->architecture;
  return *info;
}

// Bytes per unquantized parameter as the engines load it. A float32 (or
// missing, which transformers reads as float32) torch_dtype is cast to 16 bits
// by --dtype auto: vllm/config.py @v0.10.0 _get_and_verify_dtype (SGLang's
// model_config.py has the same rule).
void ReadDtype(const Json& root, const Json& cfg, const std::string& origin, ModelSpec& m) {
  std::optional<std::string> dtype = OptString(cfg, "torch_dtype", origin);
  if (!dtype) dtype = OptString(cfg, "dtype", origin);
  if (!dtype && &cfg != &root) dtype = OptString(root, "torch_dtype", origin);
  if (!dtype && &cfg != &root) dtype = OptString(root, "dtype", origin);
  m.torch_dtype = dtype.value_or("");
  if (!m.torch_dtype.empty() && m.torch_dtype != "bfloat16" && m.torch_dtype != "float16" &&
      m.torch_dtype != "float32") {
    throw InputError(origin + ": unsupported torch_dtype \"" + m.torch_dtype +
                     "\" (expected bfloat16, float16 or float32)");
  }
  m.dtype_bytes = 2;
}

// The layer shapes the architecture table gives (MLP kind, norms, biases,
// absolute positions): they change the weights, not the KV cache.
void ReadLayerShape(const ArchitectureInfo& arch, ModelSpec& m) {
  m.gated_mlp = arch.mlp == MlpKind::kGated;
  m.norm_bias = arch.norm == NormKind::kLayerNorm;
  m.norms_per_layer = arch.norms_per_layer;
  m.o_proj_bias = arch.o_bias;
  m.mlp_bias = arch.mlp_bias;
  m.lm_head_bias = arch.lm_head_bias;
  m.learned_position_rows =
      arch.learned_positions ? m.max_position_embeddings + arch.learned_position_offset : 0;
  m.embedding_norm = arch.embedding_norm;
}

void ReadCommon(const Json& root, const Json& cfg, const std::string& origin,
                const ArchitectureInfo& arch, ModelSpec& m) {
  m.vocab_size = RequireBoundedInt(cfg, "vocab_size", origin);
  m.hidden_size = RequireBoundedInt(cfg, "hidden_size", origin);
  m.num_layers = RequireBoundedInt(cfg, "num_hidden_layers", origin);
  m.num_attention_heads = RequireBoundedInt(cfg, "num_attention_heads", origin);
  // transformers: num_key_value_heads defaults to num_attention_heads (MHA);
  // GPTBigCode / Falcon say "multi_query": true for one KV head.
  const bool multi_query =
      arch.multi_query_key && OptBool(cfg, "multi_query", origin).value_or(false);
  m.num_kv_heads =
      OptBoundedInt(cfg, "num_key_value_heads", origin, multi_query ? 1 : m.num_attention_heads);
  if (m.num_kv_heads <= 0) {
    throw InputError(origin + ": config key \"num_key_value_heads\" must be > 0");
  }
  std::optional<int64_t> head_dim = OptInt(cfg, "head_dim", origin);
  if (head_dim) {
    m.head_dim = BoundedInt(*head_dim, "head_dim", origin);
    if (m.head_dim <= 0) throw InputError(origin + ": config key \"head_dim\" must be > 0");
  } else {
    if (m.hidden_size % m.num_attention_heads != 0) {
      throw InputError(origin + ": no \"head_dim\" and hidden_size " +
                       std::to_string(m.hidden_size) + " is not divisible by num_attention_heads " +
                       std::to_string(m.num_attention_heads));
    }
    m.head_dim = m.hidden_size / m.num_attention_heads;
  }
  m.v_head_dim = m.head_dim;
  // GPT-2 / GPT-J: n_inner null means 4 x hidden (the config classes' default).
  m.intermediate_size =
      OptBoundedInt(cfg, "intermediate_size", origin, arch.intermediate_ratio * m.hidden_size);
  // A default from the architecture table (Gemma ties) was merged into cfg
  // only when neither cfg nor root states it.
  m.tie_word_embeddings =
      OptBool(cfg, "tie_word_embeddings", origin)
          .value_or(OptBool(root, "tie_word_embeddings", origin).value_or(false));
  m.attention_bias = OptBool(cfg, "attention_bias", origin).value_or(false) || arch.qkv_bias;
  m.qk_norm = arch.qk_norm;
  m.max_position_embeddings = OptBoundedInt(cfg, "max_position_embeddings", origin, 0);
  m.sliding_window = OptBoundedInt(cfg, "sliding_window", origin, 0);
  ReadLayerShape(arch, m);
  m.model_type = OptString(root, "model_type", origin).value_or("");
  ReadDtype(root, cfg, origin, m);
}

void ReadMoe(const Json& cfg, const std::string& origin, ModelSpec& m, LayerPlan& plan) {
  std::optional<int64_t> experts = OptInt(cfg, "num_experts", origin);
  if (!experts) experts = OptInt(cfg, "num_local_experts", origin);
  if (!experts) experts = OptInt(cfg, "n_routed_experts", origin);
  if (!experts || *experts <= 0) {
    throw InputError(origin + ": MoE config is missing the expert count (\"num_experts\", " +
                     "\"num_local_experts\" or \"n_routed_experts\")");
  }
  m.num_experts = BoundedInt(*experts, "num_experts", origin);
  std::optional<int64_t> topk = OptInt(cfg, "num_experts_per_tok", origin);
  if (!topk) topk = OptInt(cfg, "experts_per_token", origin);
  if (!topk || *topk <= 0) {
    throw InputError(origin + ": MoE config is missing the required key \"num_experts_per_tok\"");
  }
  m.experts_per_token = BoundedInt(*topk, "num_experts_per_tok", origin);
  // Mixtral and gpt-oss size their experts with intermediate_size.
  m.moe_intermediate_size =
      OptBoundedInt(cfg, "moe_intermediate_size", origin, m.intermediate_size);
  if (m.moe_intermediate_size <= 0) {
    throw InputError(origin + ": MoE config is missing the required key \"moe_intermediate_size\"");
  }
  m.shared_expert_intermediate_size =
      OptBoundedInt(cfg, "shared_expert_intermediate_size", origin, 0);
  m.shared_expert_gate = m.shared_expert_intermediate_size > 0;
  m.num_shared_experts = OptBoundedInt(cfg, "n_shared_experts", origin, 0);
  m.first_k_dense_layers = OptBoundedInt(cfg, "first_k_dense_replace", origin, 0);
  m.moe_layer_freq = std::max(1, OptBoundedInt(cfg, "moe_layer_freq", origin, 1));
  plan.decoder_sparse_step = std::max(1, OptBoundedInt(cfg, "decoder_sparse_step", origin, 1));
  plan.mlp_only_layers = IntList(cfg, "mlp_only_layers", origin);
  // noaux_tc routing keeps a float32 e_score_correction_bias per expert.
  m.routing_bias = OptString(cfg, "topk_method", origin).value_or("") == "noaux_tc";
  m.num_nextn_predict_layers = OptBoundedInt(cfg, "num_nextn_predict_layers", origin, 0);
}

void ReadMla(const Json& cfg, const std::string& origin, ModelSpec& m) {
  m.attention = AttentionKind::kMla;
  m.kv_lora_rank = RequireBoundedInt(cfg, "kv_lora_rank", origin);
  m.qk_rope_head_dim = RequireBoundedInt(cfg, "qk_rope_head_dim", origin);
  m.qk_nope_head_dim = RequireBoundedInt(cfg, "qk_nope_head_dim", origin);
  m.v_head_dim = RequireBoundedInt(cfg, "v_head_dim", origin);
  m.q_lora_rank = OptBoundedInt(cfg, "q_lora_rank", origin, 0);  // null in DeepSeek-V2-Lite
  m.head_dim = m.qk_nope_head_dim + m.qk_rope_head_dim;
  m.index_head_dim = OptBoundedInt(cfg, "index_head_dim", origin, 0);
  m.index_n_heads = OptBoundedInt(cfg, "index_n_heads", origin, m.index_head_dim > 0 ? 64 : 0);
}

// DeepSeek-V4's attention: one 512-wide latent (num_key_value_heads 1) that is K and V,
// kept over a sliding window in every layer and compressed where compress_ratios says.
// vLLM's DeepseekV4Config (transformers_utils/configs/deepseek_v4.py) gives no defaults
// but max_position_embeddings and the rope fields: the rest is required, as here.
void ReadDeepseekV4Attention(const Json& cfg, const std::string& origin, ModelSpec& m) {
  auto need = [&](const char* key) { return RequireBoundedInt(cfg, key, origin); };
  m.attention = AttentionKind::kMla;
  m.q_lora_rank = need("q_lora_rank");
  m.o_lora_rank = need("o_lora_rank");
  m.o_groups = need("o_groups");
  m.qk_rope_head_dim = need("qk_rope_head_dim");
  m.hc_mult = need("hc_mult");
  m.sliding_window = need("sliding_window");
  // vLLM deepseek_v4.py DeepseekV4Attention: nope = head_dim - rope; the cached latent and
  // the value are head_dim wide (kvplan's MLA convention: kv_lora_rank + rope = the latent).
  if (m.qk_rope_head_dim >= m.head_dim || m.num_attention_heads % m.o_groups != 0) {
    throw InputError(origin +
                     ": DeepSeek-V4 needs qk_rope_head_dim < head_dim and o_groups "
                     "dividing num_attention_heads");
  }
  m.qk_nope_head_dim = m.head_dim - m.qk_rope_head_dim;
  m.kv_lora_rank = m.qk_nope_head_dim;
  m.v_head_dim = m.head_dim;
  m.num_hash_layers = OptBoundedInt(cfg, "num_hash_layers", origin, 0);
  // vLLM deepseek_v4.py DeepseekV4FP8Config.expert_dtype: "fp4" when absent.
  m.expert_dtype = OptString(cfg, "expert_dtype", origin).value_or("fp4");
  if (m.expert_dtype != "fp4" && m.expert_dtype != "fp8") {
    throw InputError(origin + ": DeepSeek-V4 expert_dtype \"" + m.expert_dtype +
                     "\" is not fp4 or fp8");
  }
}

// compress_ratios: one entry per layer and then one per MTP layer (the real configs end
// with the MTP layer's 0); 0 is the sliding window alone, 4 adds compressed KV with an
// indexer, 128 compressed KV without (vLLM deepseek_v4_attention.py accepts 1, 4, 128).
void ReadCompressRatios(const Json& cfg, const std::string& origin, ModelSpec& m) {
  const std::vector<int64_t> ratios = IntList(cfg, "compress_ratios", origin);
  const size_t layers = static_cast<size_t>(m.num_layers);
  if (ratios.size() != layers && ratios.size() != layers + m.num_nextn_predict_layers) {
    throw InputError(origin + ": compress_ratios has " + std::to_string(ratios.size()) +
                     " entries but num_hidden_layers is " + std::to_string(m.num_layers));
  }
  for (size_t i = 0; i < layers; ++i) {
    const int64_t r = ratios[i];
    if (r != 0 && r != 1 && r != 4 && r != 128) {
      throw InputError(origin + ": compress_ratios entry " + std::to_string(r) +
                       " is not 0, 4 or 128 (the ratios DeepSeek-V4's kernels take)");
    }
    m.compress_ratios.push_back(r == 1 ? 0 : static_cast<int>(r));
  }
  const bool indexer =
      std::find(m.compress_ratios.begin(), m.compress_ratios.end(), 4) != m.compress_ratios.end();
  if (indexer) {
    m.index_head_dim = RequireBoundedInt(cfg, "index_head_dim", origin);
    m.index_n_heads = RequireBoundedInt(cfg, "index_n_heads", origin);
  }
}

// DeepSeek-V2/V3/V3.2 (MLA) and DeepSeek-V4 (compressed attention): the same MoE fields.
void ReadDeepseekFamily(ModelFamily family, const Json& cfg, const std::string& origin,
                        ModelSpec& m, LayerPlan& plan) {
  ReadMoe(cfg, origin, m, plan);
  if (family == ModelFamily::kDeepseek) return ReadMla(cfg, origin, m);
  ReadDeepseekV4Attention(cfg, origin, m);
  ReadCompressRatios(cfg, origin, m);
  // vLLM deepseek_v4.py: a ratio-0 layer sees the window only; the others the whole
  // context, compressed (engines/*: DeepSeek-V4's own pools, never these kinds alone).
  for (int r : m.compress_ratios) {
    plan.layer_types.push_back(r == 0 ? "sliding_attention" : "full_attention");
  }
}

void ReadVision(const Json& root, const std::string& origin, ModelSpec& m) {
  const Json* vision = OptObject(root, "vision_config", origin);
  if (vision == nullptr) return;
  m.multimodal = true;
  m.vision_layers = BoundedInt(RequirePositive(*vision, "num_hidden_layers", origin),
                               "vision_config.num_hidden_layers", origin);
  m.vision_hidden_size = BoundedInt(RequirePositive(*vision, "hidden_size", origin),
                                    "vision_config.hidden_size", origin);
  m.vision_intermediate_size = BoundedInt(RequirePositive(*vision, "intermediate_size", origin),
                                          "vision_config.intermediate_size", origin);
  m.vision_image_size = BoundedInt(RequirePositive(*vision, "image_size", origin),
                                   "vision_config.image_size", origin);
  m.vision_patch_size = BoundedInt(RequirePositive(*vision, "patch_size", origin),
                                   "vision_config.patch_size", origin);
  m.vision_num_channels = OptBoundedInt(*vision, "num_channels", origin, 3);
  m.vision_kind = m.family == "llama4" ? "llama4" : "siglip";
  if (m.vision_kind == "llama4") {
    auto need = [&](const char* key) { return RequireBoundedInt(*vision, key, origin); };
    m.vision_output_dim = need("vision_output_dim");
    m.vision_projector_input_dim = need("projector_input_dim");
    m.vision_projector_output_dim = need("projector_output_dim");
  }
}

void ReadLinearAttention(const Json& cfg, const std::string& origin, ModelSpec& m) {
  auto need = [&](const char* key) { return RequireBoundedInt(cfg, key, origin); };
  m.linear_num_key_heads = need("linear_num_key_heads");
  m.linear_num_value_heads = need("linear_num_value_heads");
  m.linear_key_head_dim = need("linear_key_head_dim");
  m.linear_value_head_dim = need("linear_value_head_dim");
  m.linear_conv_kernel_dim = need("linear_conv_kernel_dim");
  // Qwen3.5's text config names the SSM state dtype (vLLM models/config.py
  // Qwen3_5ForConditionalGenerationConfig reads it from hf_text_config).
  m.config_ssm_dtype = OptString(cfg, "mamba_ssm_dtype", origin).value_or("");
}

// A Mamba2 mixer's geometry under the architecture's key names
// (architectures.cc MambaKeys). The intermediate width is expand x hidden
// (transformers GraniteMoeHybridMambaLayer: int(mamba_expand * hidden_size)).
void ReadMamba2(const Json& cfg, const std::string& origin, const MambaKeys& k, ModelSpec& m) {
  auto need = [&](const char* key) { return RequireBoundedInt(cfg, key, origin); };
  m.state_kind = StateKind::kMamba2;
  m.mamba_num_heads = need(k.heads);
  m.mamba_head_dim = need(k.head_dim);
  m.mamba_state_size = need(k.state_size);
  m.mamba_n_groups = need(k.groups);
  m.mamba_conv_kernel = need(k.conv_kernel);
  std::optional<int64_t> width =
      *k.intermediate ? OptInt(cfg, k.intermediate, origin) : std::nullopt;
  if (width) {
    m.mamba_intermediate_size = BoundedInt(*width, k.intermediate, origin);
  } else if (*k.expand) {
    m.mamba_intermediate_size = BoundedInt(
        CheckedMul(need(k.expand), m.hidden_size, "mamba intermediate size"), k.expand, origin);
  } else {
    m.mamba_intermediate_size =
        BoundedInt(CheckedMul(m.mamba_num_heads, m.mamba_head_dim, "mamba intermediate size"),
                   k.head_dim, origin);
  }
  if (*k.gated_norm) m.mamba_gated_norm = OptBool(cfg, k.gated_norm, origin).value_or(false);
  m.mamba_conv_bias = OptBool(cfg, k.conv_bias, origin).value_or(true);
  m.mamba_proj_bias = OptBool(cfg, k.proj_bias, origin).value_or(false);
  if (*k.ssm_dtype) m.config_ssm_dtype = OptString(cfg, k.ssm_dtype, origin).value_or("");
  if (m.mamba_num_heads % m.mamba_n_groups != 0) {
    throw InputError(origin + ": " + k.heads + " " + std::to_string(m.mamba_num_heads) +
                     " is not a multiple of " + k.groups + " " + std::to_string(m.mamba_n_groups));
  }
}

// Granite-4.0-H: every layer has a shared MLP (shared_intermediate_size); with
// num_local_experts > 0 routed experts beside it (no gate on the shared one),
// else the shared MLP is the layer's dense MLP.
void ReadGraniteHybridMlp(const Json& cfg, const std::string& origin, ModelSpec& m,
                          LayerPlan& plan) {
  const int shared = OptBoundedInt(cfg, "shared_intermediate_size", origin, 0);
  if (OptInt(cfg, "num_local_experts", origin).value_or(0) > 0) {
    ReadMoe(cfg, origin, m, plan);
    m.shared_expert_intermediate_size = shared;
    m.shared_expert_gate = false;
  } else if (shared > 0) {
    m.intermediate_size = shared;
  }
}

// Nemotron-H's routed experts: relu2 up/down experts of moe_intermediate_size, one shared
// expert of moe_shared_expert_intermediate_size (x n_shared_experts, vLLM nemotron_h.py
// NemotronHMoE), no gate on it, and a float32 e_score_correction_bias in the router.
void ReadNemotronMoe(const Json& cfg, const std::string& origin, ModelSpec& m, LayerPlan& plan) {
  ReadMoe(cfg, origin, m, plan);
  const int shared = OptBoundedInt(cfg, "moe_shared_expert_intermediate_size", origin, 0);
  m.shared_expert_intermediate_size = shared * std::max(1, m.num_shared_experts);
  m.num_shared_experts = 0;
  m.shared_expert_gate = false;
  m.routing_bias = true;
  if (OptInt(cfg, "moe_latent_size", origin).value_or(0) > 0) {
    throw InputError(origin +
                     ": a Nemotron-H config with moe_latent_size (latent MoE "
                     "projections) is not described by kvplan's architecture table");
  }
}

// hybrid_override_pattern (SGLang configs/nemotron_h.py _pattern_to_list): M a Mamba2 block,
// * attention, - an MLP, E routed experts, each with its own norm. The engines size their
// KV and state pools from the M and * blocks alone (mamba_layer_ids,
// full_attention_layer_ids), so each MLP block is folded into the mixer block before it:
// one kvplan layer is a mixer and, when the pattern has one after it, its MLP.
void ReadOverridePattern(const Json& cfg, const std::string& origin, ModelSpec& m,
                         LayerPlan& plan) {
  std::string pattern = OptString(cfg, "hybrid_override_pattern", origin).value_or("");
  // Newer configs give the canonical layers_block_type list instead.
  for (const std::string& t : pattern.empty() ? StringList(cfg, "layers_block_type", origin)
                                              : std::vector<std::string>{}) {
    pattern += t == "mamba"       ? 'M'
               : t == "attention" ? '*'
               : t == "mlp"       ? '-'
               : t == "moe"       ? 'E'
                                  : '?';
  }
  if (static_cast<int>(pattern.size()) != m.num_layers) {
    throw InputError(origin + ": hybrid_override_pattern has " + std::to_string(pattern.size()) +
                     " blocks but num_hidden_layers is " + std::to_string(m.num_layers));
  }
  if (pattern.find('E') != std::string::npos) ReadNemotronMoe(cfg, origin, m, plan);
  for (char c : pattern) {
    if (c == 'M' || c == '*') {
      plan.layer_types.push_back(c == 'M' ? "mamba" : "attention");
      plan.mlp_layers.push_back(false);
      plan.moe_layers.push_back(false);
    } else if (c == '-' || c == 'E') {
      if (plan.mlp_layers.empty() || plan.mlp_layers.back()) {
        throw InputError(origin + ": hybrid_override_pattern \"" + pattern +
                         "\" has an MLP block with no mixer block before it, which kvplan "
                         "cannot fold into a layer");
      }
      plan.mlp_layers.back() = true;
      plan.moe_layers.back() = c == 'E';
    } else {
      throw InputError(origin + ": hybrid_override_pattern holds '" + std::string(1, c) +
                       "' (expected M, *, - or E)");
    }
  }
  m.num_layers = static_cast<int>(plan.layer_types.size());
}

// Bamba (transformers BambaConfig.layers_block_type): the attn_layer_indices layers attend,
// every other layer is a Mamba2 mixer.
void ReadAttentionIndices(const Json& cfg, const std::string& origin, ModelSpec& m,
                          LayerPlan& plan) {
  plan.layer_types.assign(m.num_layers, "mamba");
  for (int64_t i : IntList(cfg, "attn_layer_indices", origin)) {
    if (i < 0 || i >= m.num_layers) {
      throw InputError(origin + ": attn_layer_indices names layer " + std::to_string(i) + " of " +
                       std::to_string(m.num_layers));
    }
    plan.layer_types[i] = "attention";
  }
}

// Falcon-H1: decoder layer i becomes layers 2i (attention, the MLP, both norms) and 2i + 1
// (the Mamba2 mixer alone), SGLang configs/falcon_h1.py listing every layer in both
// full_attention_layer_ids and mamba_layer_ids, vLLM's falcon_h1.py giving each layer an
// attention and a mamba KV-cache spec.
void ReadParallelHybrid(const std::string& origin, ModelSpec& m, LayerPlan& plan) {
  if (!plan.layer_types.empty()) {
    throw InputError(origin +
                     ": a Falcon-H1 config with layer_types is not described by "
                     "kvplan's architecture table (every layer runs both mixers)");
  }
  for (int i = 0; i < m.num_layers; ++i) {
    plan.layer_types.insert(plan.layer_types.end(), {"attention", "mamba"});
    plan.mlp_layers.insert(plan.mlp_layers.end(), {true, false});
  }
  m.num_layers *= 2;
  m.norms_without_mlp = 0;
}

// A Mamba-1 mixer (transformers MambaConfig and JambaConfig, vLLM models/mamba.py and
// jamba.py MambaMixer): both configs' defaults are state_size 16, conv_kernel 4, expand 2,
// time_step_rank "auto" (ceil(hidden / 16)); intermediate_size when given, else int(expand x
// hidden_size).
void ReadMamba1Mixer(const Json& cfg, const std::string& origin, const MambaKeys& k, ModelSpec& m) {
  auto opt = [&](const char* key, int fallback) {
    return OptBoundedInt(cfg, key, origin, fallback);
  };
  m.state_kind = StateKind::kMamba1;
  m.mamba_state_size = opt(k.state_size, 16);
  m.mamba_conv_kernel = opt(k.conv_kernel, 4);
  m.mamba_intermediate_size = BoundedInt(
      CheckedMul(opt(k.expand, 2), m.hidden_size, "mamba intermediate size"), k.expand, origin);
  m.mamba_intermediate_size = opt(k.intermediate, m.mamba_intermediate_size);
  const auto rank = cfg.find(k.dt_rank);
  const bool automatic = rank == cfg.end() || (rank->is_string() && *rank == "auto");
  m.mamba_dt_rank = automatic ? (m.hidden_size + 15) / 16 : opt(k.dt_rank, 0);
  m.mamba_conv_bias = OptBool(cfg, k.conv_bias, origin).value_or(true);
  m.mamba_proj_bias = OptBool(cfg, k.proj_bias, origin).value_or(false);
}

// Jamba (transformers jamba/configuration_jamba.py, modeling_jamba.py): Mamba-1 mixers of
// expand x hidden channels, attention where i % attn_layer_period == attn_layer_offset,
// routed experts where i % expert_layer_period == expert_layer_offset (num_experts > 1), a
// SwiGLU MLP elsewhere; mamba_dt_rank "auto" is ceil(hidden / 16).
void ReadJamba(const Json& cfg, const std::string& origin, const MambaKeys& k, ModelSpec& m,
               LayerPlan& plan) {
  auto opt = [&](const char* key, int fallback) {
    return OptBoundedInt(cfg, key, origin, fallback);
  };
  ReadMamba1Mixer(cfg, origin, k, m);
  m.mamba_inner_norms = true;
  // A period of 0 would divide by zero: read as 1, as no real config says it.
  const int attn_period = std::max(1, opt("attn_layer_period", 8));
  const int attn_offset = opt("attn_layer_offset", 4);
  const int expert_period = std::max(1, opt("expert_layer_period", 2));
  const int expert_offset = opt("expert_layer_offset", 1);
  const bool moe = OptInt(cfg, "num_experts", origin).value_or(16) > 1;
  if (moe) ReadMoe(cfg, origin, m, plan);
  for (int i = 0; i < m.num_layers; ++i) {
    plan.layer_types.push_back(i % attn_period == attn_offset ? "attention" : "mamba");
    plan.moe_layers.push_back(moe && i % expert_period == expert_offset);
  }
}

void ReadMamba2Hybrid(const Json& cfg, const std::string& origin, const MambaKeys& k, ModelSpec& m,
                      LayerPlan& plan) {
  switch (k.layout) {
    case HybridLayout::kLayerTypes:
      ReadGraniteHybridMlp(cfg, origin, m, plan);
      break;
    case HybridLayout::kOverridePattern:
      ReadOverridePattern(cfg, origin, m, plan);
      break;
    case HybridLayout::kAttentionIndices:
      ReadAttentionIndices(cfg, origin, m, plan);
      break;
    case HybridLayout::kParallel:
      ReadParallelHybrid(origin, m, plan);
      break;
    case HybridLayout::kPeriodic:
      return ReadJamba(cfg, origin, k, m, plan);
  }
  ReadMamba2(cfg, origin, k, m);
}

// Mamba / Mamba2 (transformers MambaBlock / Mamba2Block, vLLM models/mamba.py, mamba2.py):
// every layer is a norm and a mixer, with no attention and no MLP, so every layer holds
// state and none a KV cache. A Mamba-1 config names no heads (MambaKeys.heads "").
void ReadStateSpaceModel(const Json& cfg, const std::string& origin, const MambaKeys& k,
                         ModelSpec& m, LayerPlan& plan) {
  if (!plan.layer_types.empty()) {
    throw InputError(origin +
                     ": a pure state-space config with layer_types is not described by "
                     "kvplan's architecture table (every layer is a mixer)");
  }
  plan.layer_types.assign(m.num_layers, "mamba");
  plan.mlp_layers.assign(m.num_layers, false);
  // No MLP: MambaConfig's intermediate_size is the mixer's width (read below), not an MLP's.
  m.intermediate_size = 0;
  if (*k.heads) {
    ReadMamba2(cfg, origin, k, m);
  } else {
    ReadMamba1Mixer(cfg, origin, k, m);
  }
}

// Kimi-Linear (vLLM models/kimi_linear.py @v0.11.1, SGLang configs/kimi_linear.py): layer i is
// a Kimi delta attention layer when i + 1 is in linear_attn_config.kda_layers (is_kda_layer,
// 1-based), an MLA layer otherwise; MoE from first_k_dense_replace with num_shared_experts
// shared experts and a 16-bit e_score_correction_bias (vLLM KimiMoE:
// nn.Parameter(torch.empty(num_experts)) in the model dtype), counted as a router bias. A KDA
// layer keeps a gated delta-rule state: the linear_* fields with as many key heads as value
// heads (StateKind::kGatedDeltaNet); family "kimi_linear" tells its mixer and state dtypes
// apart (catalog/weights.cc, engines/vllm/hybrid.cc).
void ReadKimiLinear(const Json& cfg, const std::string& origin, ModelSpec& m, LayerPlan& plan) {
  if (cfg.contains("num_experts") && !cfg["num_experts"].is_null()) {
    ReadMoe(cfg, origin, m, plan);
    m.router_bias = true;
  }
  ReadMla(cfg, origin, m);
  const Json* lin = OptObject(cfg, "linear_attn_config", origin);
  const std::vector<int64_t> kda =
      lin != nullptr ? IntList(*lin, "kda_layers", origin) : std::vector<int64_t>{};
  for (int64_t l : kda) {
    if (l < 1 || l > m.num_layers) {
      throw InputError(origin + ": linear_attn_config.kda_layers names layer " + std::to_string(l) +
                       " (1-based) of " + std::to_string(m.num_layers));
    }
  }
  plan.layer_types.assign(m.num_layers, "full_attention");
  for (int64_t l : kda) plan.layer_types[l - 1] = "linear_attention";
  if (kda.empty()) return;
  auto need = [&](const char* key) { return RequireBoundedInt(*lin, key, origin); };
  m.linear_num_key_heads = m.linear_num_value_heads = need("num_heads");
  m.linear_key_head_dim = m.linear_value_head_dim = need("head_dim");
  m.linear_conv_kernel_dim = need("short_conv_kernel_size");
}

// An MoE variant under a dense architecture name (MiniCPM-MoE) would be
// priced as dense: refuse it until the table describes it.
void RefuseRoutedExperts(const Json& cfg, const std::string& origin, const ModelSpec& m) {
  if (OptInt(cfg, "num_experts", origin).value_or(0) > 1 ||
      OptInt(cfg, "num_local_experts", origin).value_or(0) > 1) {
    throw InputError(origin + ": \"" + m.architecture +
                     "\" with routed experts is not described by kvplan's architecture table "
                     "(only its dense form is); refused rather than priced as dense");
  }
}

// EAGLE-1/2 and EAGLE-3 drafts: their fc input, norms and (EAGLE-3) reduced vocabulary.
void ReadEagleDraft(const Json& cfg, const std::string& origin, const ArchitectureInfo& arch,
                    ModelSpec& m) {
  m.draft_kind = arch.family == ModelFamily::kEagle ? "eagle" : "eagle3";
  m.norms_per_layer = arch.family == ModelFamily::kEagle ? 1 : 3;
  m.draft_vocab_size = OptInt(cfg, "draft_vocab_size", origin).value_or(m.vocab_size);
  if (m.draft_vocab_size <= 0 || m.draft_vocab_size > m.vocab_size) {
    throw InputError(origin + ": draft_vocab_size " + std::to_string(m.draft_vocab_size) +
                     " must be in 1..vocab_size");
  }
  m.target_hidden_size = OptBoundedInt(cfg, "target_hidden_size", origin, m.hidden_size);
}

// MiMo-V2-Flash: moe_layer_freq is a per-layer list (read by ReadMimoV2Layers), the
// rest of the MoE as DeepSeek's keys.
void ReadMimoV2Flash(const Json& cfg, const std::string& origin, ModelSpec& m, LayerPlan& plan) {
  Json moe = cfg;
  moe.erase("moe_layer_freq");
  ReadMoe(moe, origin, m, plan);
  MimoV2Layers layers = ReadMimoV2Layers(cfg, origin, m);
  plan.layer_types = std::move(layers.layer_types);
  plan.moe_layers = std::move(layers.moe_layers);
}

// Llama-4: MoE with one shared expert on every interleave_moe_layer_step-th layer, chunked
// local attention, the vision tower.
void ReadLlama4(const Json& root, const Json& cfg, const std::string& origin, ModelSpec& m,
                LayerPlan& plan) {
  ReadMoe(cfg, origin, m, plan);
  // Experts and the one shared expert use intermediate_size; dense layers
  // intermediate_size_mlp (transformers Llama4TextConfig).
  m.shared_expert_intermediate_size = m.moe_intermediate_size;
  m.shared_expert_gate = false;
  m.intermediate_size = OptBoundedInt(cfg, "intermediate_size_mlp", origin, m.intermediate_size);
  plan.decoder_sparse_step =
      std::max(1, OptBoundedInt(cfg, "interleave_moe_layer_step", origin, 1));
  m.attention_chunk_size = OptBoundedInt(cfg, "attention_chunk_size", origin, 0);
  plan.no_rope_layers = IntList(cfg, "no_rope_layers", origin);
  plan.llama4 = true;
  ReadVision(root, origin, m);  // use_qk_norm is a weightless L2 norm: no parameters
}

// LFM2 and MiniMax-Text-01 / M1 (catalog/lfm2_minimax_config.h); MiniMax's 32 experts are in
// every layer, under Mixtral's keys.
void ReadLfm2OrMiniMax(const Json& cfg, const std::string& origin, const ArchitectureInfo& arch,
                       ModelSpec& m, LayerPlan& plan) {
  if (arch.family == ModelFamily::kLfm2) {
    plan.layer_types = ReadLfm2(cfg, origin, m);
    return;
  }
  ReadMoe(cfg, origin, m, plan);
  plan.layer_types = ReadMiniMaxLayers(cfg, origin, m);
}

// The families whose own reader returns the layer list outright (zamba2_config.cc,
// plamo2_config.cc).
void ReadLayerListFamily(ModelFamily family, const Json& cfg, const std::string& origin,
                         ModelSpec& m, LayerPlan& plan) {
  if (family == ModelFamily::kPlamo2) {
    plan.layer_types = ReadPlamo2(cfg, origin, m);
    return;
  }
  Zamba2Layers layers = ReadZamba2(cfg, origin, m);
  plan.layer_types = std::move(layers.layer_types);
  plan.mlp_layers = std::move(layers.has_mlp);
}

void ReadFamily(const Json& root, const Json& cfg, const std::string& origin,
                const ArchitectureInfo& arch, ModelSpec& m, LayerPlan& plan) {
  plan.layer_types = StringList(cfg, "layer_types", origin);
  switch (arch.family) {
    case ModelFamily::kDense:
      RefuseRoutedExperts(cfg, origin, m);
      break;
    case ModelFamily::kMoe:
      ReadMoe(cfg, origin, m, plan);
      m.qk_norm = m.qk_norm || OptBool(cfg, "use_qk_norm", origin).value_or(false);
      break;
    case ModelFamily::kDeepseek:
    case ModelFamily::kDeepseekV4:
      ReadDeepseekFamily(arch.family, cfg, origin, m, plan);
      break;
    case ModelFamily::kGptOss:
      ReadMoe(cfg, origin, m, plan);
      m.o_proj_bias = m.attention_bias;
      m.attention_sinks = m.router_bias = m.expert_bias = true;
      plan.sliding_pattern = kEvenLayersSlide;
      break;
    case ModelFamily::kGemma2:
      m.norms_per_layer = 4;
      plan.sliding_pattern = kEvenLayersSlide;
      break;
    case ModelFamily::kGemma3:
      m.norms_per_layer = 4;
      m.qk_norm = true;
      plan.sliding_pattern =
          OptBoundedInt(cfg, "sliding_window_pattern", origin,
                        OptBoundedInt(cfg, "_sliding_window_pattern", origin, 6));
      ReadVision(root, origin, m);
      break;
    case ModelFamily::kQwen3Next:
      // Qwen3.5's dense sizes (27B) keep the layers with a dense MLP.
      if (cfg.contains("num_experts")) ReadMoe(cfg, origin, m, plan);
      ReadLinearAttention(cfg, origin, m);
      m.qk_norm = m.attention_output_gate = true;
      plan.full_attention_interval = OptBoundedInt(cfg, "full_attention_interval", origin, 4);
      break;
    case ModelFamily::kMamba2Hybrid:
      ReadMamba2Hybrid(cfg, origin, *arch.mamba, m, plan);
      break;
    case ModelFamily::kKimiLinear:
      ReadKimiLinear(cfg, origin, m, plan);
      break;
    case ModelFamily::kMambaSsm:
      ReadStateSpaceModel(cfg, origin, *arch.mamba, m, plan);
      break;
    case ModelFamily::kLlama4:
      ReadLlama4(root, cfg, origin, m, plan);
      break;
    case ModelFamily::kDeciLm:
      ReadDeciLmBlocks(cfg, origin, m);
      break;
    case ModelFamily::kMimoV2Flash:
      ReadMimoV2Flash(cfg, origin, m, plan);
      break;
    case ModelFamily::kGemma4:
    case ModelFamily::kGemma3n:
      plan.layer_types = ReadGemmaFamily(cfg, origin, arch.family == ModelFamily::kGemma3n, m);
      break;
    case ModelFamily::kEagle:
    case ModelFamily::kEagle3:
      ReadEagleDraft(cfg, origin, arch, m);
      break;
    case ModelFamily::kLfm2:
    case ModelFamily::kMiniMaxText01:
      ReadLfm2OrMiniMax(cfg, origin, arch, m, plan);
      break;
    case ModelFamily::kZamba2:
    case ModelFamily::kPlamo2:
      ReadLayerListFamily(arch.family, cfg, origin, m, plan);
      break;
  }
}

LayerKind KindOf(const std::string& type, const std::string& origin) {
  if (type == "full_attention" || type == "attention") return LayerKind::kFull;
  if (type == "sliding_attention") return LayerKind::kSliding;
  if (type == "chunked_attention") return LayerKind::kChunked;
  // Granite-4.0-H names its Mamba2 layers "mamba".
  if (type == "linear_attention" || type == "mamba") return LayerKind::kLinear;
  throw InputError(origin + ": unknown layer_types entry \"" + type +
                   "\" (expected full_attention, sliding_attention, chunked_attention, "
                   "linear_attention or mamba)");
}

void FillLayerKinds(const std::string& origin, const LayerPlan& plan, ModelSpec& m) {
  m.layer_kinds.assign(m.num_layers, LayerKind::kFull);
  if (!plan.layer_types.empty()) {
    if (static_cast<int>(plan.layer_types.size()) != m.num_layers) {
      throw InputError(origin + ": layer_types has " + std::to_string(plan.layer_types.size()) +
                       " entries but num_hidden_layers is " + std::to_string(m.num_layers));
    }
    for (int i = 0; i < m.num_layers; ++i) m.layer_kinds[i] = KindOf(plan.layer_types[i], origin);
    return;
  }
  if (plan.llama4) {
    // transformers Llama4TextConfig: no_rope_layers defaults to every 4th layer
    // NoPE; RoPE layers attend within attention_chunk_size (chunked), NoPE
    // layers globally.
    if (!plan.no_rope_layers.empty() &&
        static_cast<int>(plan.no_rope_layers.size()) != m.num_layers) {
      throw InputError(origin + ": no_rope_layers has " +
                       std::to_string(plan.no_rope_layers.size()) +
                       " entries but num_hidden_layers is " + std::to_string(m.num_layers));
    }
    for (int i = 0; i < m.num_layers; ++i) {
      bool rope = plan.no_rope_layers.empty() ? (i + 1) % 4 != 0 : plan.no_rope_layers[i] != 0;
      m.layer_kinds[i] =
          rope && m.attention_chunk_size > 0 ? LayerKind::kChunked : LayerKind::kFull;
    }
    return;
  }
  for (int i = 0; i < m.num_layers; ++i) {
    // transformers Gemma3: layer i is full when (i + 1) % sliding_window_pattern == 0.
    if (plan.sliding_pattern > 0) {
      m.layer_kinds[i] =
          (i + 1) % plan.sliding_pattern == 0 ? LayerKind::kFull : LayerKind::kSliding;
    }
    // transformers Qwen3Next: full attention every full_attention_interval layers.
    if (plan.full_attention_interval > 0) {
      m.layer_kinds[i] =
          (i + 1) % plan.full_attention_interval == 0 ? LayerKind::kFull : LayerKind::kLinear;
    }
  }
}

void FillMoeLayers(const LayerPlan& plan, ModelSpec& m) {
  m.layer_is_moe.assign(m.num_layers, false);
  m.layer_has_mlp = plan.mlp_layers;
  if (!m.IsMoe()) return;
  if (!plan.moe_layers.empty()) {
    m.layer_is_moe = plan.moe_layers;
    return;
  }
  for (int i = 0; i < m.num_layers; ++i) {
    bool moe = i >= m.first_k_dense_layers && i % m.moe_layer_freq == 0;
    // Qwen2/3-MoE, Qwen3-Next: transformers' decoder_sparse_step / mlp_only_layers rule.
    moe = moe && (plan.last_moe_layer < 0 || i <= plan.last_moe_layer);
    moe = moe && (i + 1) % plan.decoder_sparse_step == 0 &&
          std::find(plan.mlp_only_layers.begin(), plan.mlp_only_layers.end(), i) ==
              plan.mlp_only_layers.end();
    m.layer_is_moe[i] = moe;
  }
}

void Validate(const std::string& origin, ModelSpec& m) {
  if (m.attention == AttentionKind::kGqa && m.num_attention_heads % m.num_kv_heads != 0) {
    throw InputError(origin + ": num_attention_heads " + std::to_string(m.num_attention_heads) +
                     " is not a multiple of num_key_value_heads " + std::to_string(m.num_kv_heads));
  }
  // A dense MLP somewhere: a layer that is not MoE and has an MLP (Mamba's have none).
  bool any_dense = false;
  for (int i = 0; i < m.num_layers; ++i) {
    const bool has_mlp = m.layer_has_mlp.empty() || m.layer_has_mlp[i];
    any_dense = any_dense || (has_mlp && !m.layer_is_moe[i]);
  }
  if (any_dense && m.intermediate_size <= 0) {
    throw InputError(origin + ": config.json is missing the required key \"intermediate_size\"");
  }
  if (m.NumLayersOfKind(LayerKind::kSliding) > 0 && m.sliding_window <= 0) {
    throw InputError(origin + ": sliding-window layers but no \"sliding_window\" size");
  }
}

// A wrapper's language-model config ("text_config", "llm_config",
// "thinker_config.text_config"); the root when the wrapper keeps the text
// fields there (Qwen2-VL and older Qwen2.5-VL configs) or is no wrapper.
const Json& TextConfig(const Json& root, const ArchitectureInfo& outer, const std::string& origin) {
  std::string_view path = outer.text_config;
  const Json* cfg = &root;
  while (!path.empty()) {
    size_t dot = path.find('.');
    std::string key(path.substr(0, dot));
    cfg = OptObject(*cfg, key.c_str(), origin);
    if (cfg == nullptr) return root;
    path = dot == std::string_view::npos ? std::string_view() : path.substr(dot + 1);
  }
  return *cfg;
}

bool IsWrapper(const ArchitectureInfo* a) { return a != nullptr && *a->inner_architecture; }

// The text architecture of a wrapper: the one its text config names (by
// architectures[0], then model_type) when kvplan knows it, else the table's.
const ArchitectureInfo& InnerArchitecture(const Json& text, const ArchitectureInfo& outer,
                                          const std::string& origin) {
  if (!IsWrapper(&outer)) return outer;
  std::vector<std::string> archs = StringList(text, "architectures", origin);
  const ArchitectureInfo* inner = archs.empty() ? nullptr : FindArchitecture(archs[0]);
  if (inner == nullptr || IsWrapper(inner)) {
    inner = FindArchitectureByModelType(OptString(text, "model_type", origin).value_or(""));
  }
  if (inner == nullptr || IsWrapper(inner)) inner = FindArchitecture(outer.inner_architecture);
  return *inner;
}

// The text config with the transformers defaults of the fields it omits
// (architectures.cc cites the config class of each).
Json WithDefaults(const Json& root, const Json& text, const ArchitectureInfo& arch) {
  Json cfg = text;
  for (const FieldAlias& a : arch.aliases) {
    auto from = cfg.find(a.from);
    if (!cfg.contains(a.key) && from != cfg.end()) cfg[a.key] = *from;
  }
  for (const FieldDefault& d : arch.defaults) {
    if (cfg.contains(d.key) || root.contains(d.key)) continue;
    cfg[d.key] = d.is_bool ? Json(d.value != 0) : Json(d.value);
  }
  return cfg;
}

// A wrapper's vision tower: its depth and width (SGLang's multimodal memory
// rule reads them) and, for the kinds vision_towers.cc sizes, its parameters,
// which the weights then count. Older Qwen2.5-VL configs leave model_type out
// of vision_config: the wrapper's names it.
void ReadVisionTower(const Json& root, const Json& vision, const std::string& origin,
                     ModelSpec& m) {
  m.vision_kind = OptString(vision, "model_type", origin)
                      .value_or(OptString(root, "model_type", origin).value_or(""));
  const TowerGeometry g = VisionTowerGeometry(vision, origin);
  m.vision_layers = g.layers ? BoundedInt(*g.layers, "vision_config.num_hidden_layers", origin) : 0;
  m.vision_hidden_size = g.hidden ? BoundedInt(*g.hidden, "vision_config.hidden_size", origin) : 0;
  // The MLP width (vLLM's encoder profiling peak reads it).
  m.vision_intermediate_size =
      g.intermediate ? BoundedInt(*g.intermediate, "vision_config.intermediate_size", origin) : 0;
  m.vision_params = VisionTowerParams(root, vision, m.vision_kind, m.hidden_size, origin);
  if (m.vision_params > 0) m.uncounted_weights.clear();
}

// Encoder towers a wrapper's checkpoint holds that the weight estimate does
// not count: the model is multimodal (the engines reserve for it) and says so.
void ReadUncountedTowers(const Json& root, const ArchitectureInfo& outer, const std::string& origin,
                         ModelSpec& m) {
  if (outer.towers != TowerWeights::kUncounted && outer.towers != TowerWeights::kFromVisionConfig) {
    return;
  }
  m.multimodal = true;
  m.uncounted_weights = outer.towers_named;
  const Json* vision = OptObject(root, "vision_config", origin);
  if (vision == nullptr && *outer.text_config) {
    std::string_view path = outer.text_config;
    if (size_t dot = path.find('.'); dot != std::string_view::npos) {
      std::string parent(path.substr(0, dot));
      if (const Json* p = OptObject(root, parent.c_str(), origin)) {
        vision = OptObject(*p, "vision_config", origin);
      }
    }
  }
  // Phi-3-vision names its CLIP encoder in img_processor (vision_towers.cc sizes it).
  if (vision == nullptr) vision = OptObject(root, "img_processor", origin);
  if (vision == nullptr) return;
  ReadVisionTower(root, *vision, origin, m);
}

// Keys the architecture lets a config give one value per layer
// (architectures.cc uniform_lists, Hunyuan's moe_topk): read as that value when
// every layer has the same; the weights and the engines take one value, so
// layers that differ are refused.
Json WithUniformLists(const Json& text, const ArchitectureInfo& arch, const std::string& origin) {
  Json cfg = text;
  for (const char* key : arch.uniform_lists) {
    auto it = cfg.find(key);
    if (it == cfg.end() || !it->is_array()) continue;
    if (it->empty()) throw InputError(origin + ": config key \"" + key + "\" is an empty list");
    for (const Json& v : *it) {
      if (v != it->front()) {
        throw InputError(origin + ": config key \"" + key +
                         "\" differs between layers; kvplan models one value for every layer");
      }
    }
    Json first = it->front();
    *it = std::move(first);
  }
  return cfg;
}

void RefuseTableFlags(const Json& cfg, const std::string& origin, const ArchitectureInfo& arch) {
  for (const RefusedFlag& f : arch.refused_flags) {
    if (OptBool(cfg, f.key, origin).value_or(false)) {
      throw InputError(origin + ": \"" + f.key + "\": true asks for " + f.what +
                       ", which kvplan's architecture table does not describe; refused rather "
                       "than planned without it");
    }
  }
  if (*arch.hidden_width_key == '\0') return;
  std::optional<int64_t> width = OptInt(cfg, arch.hidden_width_key, origin);
  std::optional<int64_t> hidden = OptInt(cfg, "hidden_size", origin);
  if (width && hidden && *width != *hidden) {
    throw InputError(origin + ": \"" + arch.hidden_width_key + "\" " + std::to_string(*width) +
                     " differs from hidden_size " + std::to_string(*hidden) +
                     " (an embedding projected in and out), which kvplan does not model; "
                     "expected them equal");
  }
}

// The layouts the architecture table gives as data (architectures.h, "Layouts
// given as data"): a default sliding pattern, an ungated shared MLP sized as a
// multiple of intermediate_size, q/k norms by use_qk_norm, the last MoE layer.
void ReadTableLayout(const Json& cfg, const std::string& origin, const ArchitectureInfo& arch,
                     ModelSpec& m, LayerPlan& plan) {
  // transformers Olmo3Config: without layer_types, layer i slides unless (i + 1) % 4 == 0.
  if (arch.sliding_every > 0 && plan.layer_types.empty()) plan.sliding_pattern = arch.sliding_every;
  // vLLM hunyuan_v1.py HunYuanSparseMoeBlock: with use_mixed_mlp_moe a shared
  // HunYuanMLP of intermediate_size x num_shared_expert, no gate.
  if (*arch.shared_mlp_multiple && m.IsMoe() &&
      OptBool(cfg, "use_mixed_mlp_moe", origin).value_or(true)) {
    const int n = OptBoundedInt(cfg, arch.shared_mlp_multiple, origin, 0);
    m.shared_expert_intermediate_size = BoundedInt(
        CheckedMul(n, m.intermediate_size, "shared MLP width"), arch.shared_mlp_multiple, origin);
    m.shared_expert_gate = false;
  }
  // vLLM hunyuan_v1.py HunYuanAttention: query/key_layernorm when use_qk_norm.
  if (arch.reads_use_qk_norm) {
    m.qk_norm = m.qk_norm || OptBool(cfg, "use_qk_norm", origin).value_or(false);
  }
  if (*arch.last_moe_layer) {
    std::optional<int64_t> last = OptInt(cfg, arch.last_moe_layer, origin);
    if (last && *last >= 0) plan.last_moe_layer = BoundedInt(*last, arch.last_moe_layer, origin);
  }
}

}  // namespace

ModelSpec ParseModelConfig(std::string_view json_text, const std::string& origin) {
  Json root = ParseRoot(json_text, origin);
  ModelSpec m;
  m.id = origin;
  const ArchitectureInfo& outer = FindFamily(root, origin, m.architecture);
  const Json& text = TextConfig(root, outer, origin);
  const ArchitectureInfo& arch = InnerArchitecture(text, outer, origin);
  m.family = arch.family_name;
  // Only the architectures with per-layer lists pay for a second copy.
  Json flat;
  const Json& listed =
      arch.uniform_lists.empty() ? text : (flat = WithUniformLists(text, arch, origin));
  Json cfg = WithDefaults(root, listed, arch);
  RefuseTableFlags(cfg, origin, arch);
  ReadCommon(root, cfg, origin, arch, m);
  LayerPlan plan;
  ReadFamily(root, cfg, origin, arch, m, plan);
  ReadTableLayout(cfg, origin, arch, m, plan);
  m.rope_cache_elements = RopeCacheElements(cfg, m, origin);
  ReadUncountedTowers(root, outer, origin, m);
  // Wrappers may keep it beside the text model (Kimi-K2.5's text_config).
  const Json* qc = OptObject(root, "quantization_config", origin);
  if (qc == nullptr && &text != &root) qc = OptObject(text, "quantization_config", origin);
  if (qc != nullptr) m.quant = ParseQuantization(*qc, origin);
  FillLayerKinds(origin, plan, m);
  if (arch.family == ModelFamily::kGemma4 || arch.family == ModelFamily::kGemma3n) {
    FinishGemmaLayers(root, cfg, origin, m);
  }
  FillMoeLayers(plan, m);
  Validate(origin, m);
  return m;
}

}  // namespace kvplan
