// The model families kvplan understands, keyed by config.json architectures[0]
// (or model_type when architectures is absent). Anything else is refused by
// name rather than guessed. The table is data (architectures.cc): one entry per
// architecture, citing the model file it mirrors.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

enum class ModelFamily {
  kDense,         // Llama, Mistral, Qwen2, Qwen3, Phi-3, Granite, OLMo-2, Gemma: GQA + dense MLP
  kMoe,           // Mixtral, Qwen2-MoE, Qwen3-MoE, GLM-4.5: GQA + routed experts
  kDeepseek,      // DeepSeek-V2/V3/V3.2, Kimi-K2: MLA + MoE with shared experts
  kDeepseekV4,    // DeepSeek-V4: sliding window + compressed KV per layer, hyper-connections
  kGptOss,        // gpt-oss: alternating sliding/full GQA with sinks, mxfp4 experts
  kGemma2,        // Gemma-2: alternating sliding/full, 4 norms per layer
  kGemma3,        // Gemma-3 (text or ForConditionalGeneration with a SigLIP tower)
  kQwen3Next,     // Qwen3-Next: gated delta-net linear layers + gated full attention
  kLlama4,        // Llama-4: chunked local attention on 3 of 4 layers, MoE + shared expert
  kMamba2Hybrid,  // Granite-4.0-H, Nemotron-H, Bamba, Falcon-H1, Jamba: Mamba mixers + attention
  kKimiLinear,    // Kimi-Linear: Kimi delta attention linear layers + MLA full layers, MoE
  kDeciLm,        // DeciLM / Nemotron-NAS: per-layer block_configs (KV heads, no_op, FFN width)
  kMimoV2Flash,   // MiMo-V2-Flash: sliding and full layers with their own heads, MoE
  kEagle,         // EAGLE-1/2 Llama draft
  kEagle3,        // EAGLE-3 Llama draft
  // Per-layer KV geometry (catalog/gemma_config.cc): Gemma-4's full layers with their own
  // head size and KV heads, Gemma-3n's and Gemma-4 E2B/E4B's KV-sharing last layers,
  // per-layer input embeddings; Gemma-3n's AltUp and LAuReL.
  kGemma4,
  kGemma3n,
  kLfm2,           // LFM2: short-convolution layers + GQA full attention (lfm2_minimax_config.cc)
  kMiniMaxText01,  // MiniMax-Text-01 / M1: lightning attention + softmax attention, MoE
  // Pure state-space models (Mamba-1, Mamba2 / Codestral Mamba): every layer a norm and a
  // mixer, no attention, no MLP (config_parser.cc ReadStateSpaceModel).
  kMambaSsm,
  // Zamba2: Mamba2 layers, some preceded by an application of one of num_mem_blocks shared
  // attention + MLP blocks (catalog/zamba2_config.cc).
  kZamba2,
  // PLaMo-2: Mamba layers (a Mamba2 state of n_groups 0, PLaMo's own projections) and, every
  // mamba_step-th layer, sliding-window GQA attention; each layer with a SwiGLU MLP
  // (catalog/plamo2_config.cc).
  kPlamo2,
};

// A value transformers' config class gives a field the config.json omits.
struct FieldDefault {
  const char* key;
  int64_t value;  // booleans as 0 / 1
  bool is_bool = false;
};

// A config key transformers reads under another name (the config class's
// attribute_map, e.g. GPT-2's n_embd for hidden_size): `from` is copied to
// `key` when the config has no `key`.
struct FieldAlias {
  const char* key;
  const char* from;
};

// The MLP of a dense layer: SwiGLU-style gate + up + down, or up + down only
// (GPT-2, GPT-NeoX, GPT-J, StarCoder2, Phi-2: an activation between two matrices).
enum class MlpKind { kGated, kPlain };

// The norms of a layer: RMSNorm (a weight) or LayerNorm (weight and bias).
enum class NormKind { kRms, kLayerNorm };

// What a wrapper's encoder towers cost in kvplan's weight estimate.
enum class TowerWeights {
  kNone,       // text-only model
  kCounted,    // vision_config read and counted (SigLIP for Gemma-3, Llama-4's own)
  kUncounted,  // present in the checkpoint but not counted (said in ModelSpec)
  // Sized from vision_config by catalog/vision_towers.cc when it names a tower
  // kind that file knows; otherwise not counted, as kUncounted.
  kFromVisionConfig,
};

// How a hybrid's config says which layers hold state (config_parser.cc reads each).
enum class HybridLayout {
  kLayerTypes,        // layer_types: "mamba" / "attention" per layer (Granite-4.0-H)
  kOverridePattern,   // hybrid_override_pattern: one M / * / - / E block per character (Nemotron-H)
  kAttentionIndices,  // attn_layer_indices: those layers attend, the rest are Mamba (Bamba)
  kParallel,          // attention and a Mamba2 mixer side by side in every layer (Falcon-H1)
  kPeriodic,          // Mamba-1 layers, attention every attn_layer_period (Jamba)
};

// The config keys a Mamba2 hybrid names its mixer geometry with (they differ
// by family: Granite's mamba_n_heads is Mamba2Config's num_heads).
struct MambaKeys {
  const char* heads;
  const char* head_dim;
  const char* state_size;
  const char* groups;
  const char* conv_kernel;
  const char* expand;  // intermediate = expand x hidden_size; "" = heads x head_dim (Nemotron-H)
  const char* conv_bias;
  const char* proj_bias;
  HybridLayout layout = HybridLayout::kLayerTypes;
  // The config key giving the SSM state's dtype the checkpoint asks for ("" = none), which
  // vLLM takes when --mamba-ssm-cache-dtype is auto (engines/vllm/hybrid.cc).
  const char* ssm_dtype = "";
  const char* intermediate = "";  // the mixer width when given outright (Falcon-H1 mamba_d_ssm)
  const char* gated_norm = "";    // bool key of the gated RMSNorm ("" = always there)
  const char* dt_rank = "";       // Mamba-1: the dt projection rank (Jamba mamba_dt_rank)
};

// A config flag that turns on a layer kind kvplan does not model (Hunyuan's
// use_cla: cross-layer KV sharing): the config is refused, naming it.
struct RefusedFlag {
  const char* key;
  const char* what;  // e.g. "cross-layer attention (KV shared between layers)"
};

struct ArchitectureInfo {
  const char* architecture;  // architectures[0]
  const char* model_type;    // the matching model_type
  const char* family_name;   // ModelSpec::family
  ModelFamily family;
  // Wrappers (vision-language, omni): where the language model's config is
  // ("text_config", "llm_config", "thinker_config.text_config"; "" = the root)
  // and the text architecture to read it as when the inner config names none
  // that kvplan knows. The family then comes from that inner entry.
  const char* text_config = "";
  const char* inner_architecture = "";
  TowerWeights towers = TowerWeights::kNone;
  const char* towers_named = "";  // e.g. "vision tower" for the uncounted note
  // transformers defaults for fields the config may omit.
  std::span<const FieldDefault> defaults = {};
  bool qkv_bias = false;  // q/k/v biases whatever attention_bias says (Qwen2)
  bool qk_norm = false;   // per-head (or per-projection) q/k RMSNorm
  // ---- Layer shapes beyond Llama's (weights only; the KV cache is unchanged). ----
  std::span<const FieldAlias> aliases = {};
  MlpKind mlp = MlpKind::kGated;
  NormKind norm = NormKind::kRms;
  int norms_per_layer = 2;         // 1 for parallel attention + MLP blocks (GPT-J, Phi-2, Cohere)
  bool o_bias = false;             // the attention output projection has a bias
  bool mlp_bias = false;           // the MLP projections have biases
  bool lm_head_bias = false;       // Phi-2, GPT-J
  bool learned_positions = false;  // absolute position table of max_position_embeddings rows
  // Rows of that table beyond max_position_embeddings (OPT's OPTLearnedPositionalEmbedding
  // keeps 2 more: padding offset).
  int learned_position_offset = 0;
  bool embedding_norm = false;  // a norm right after the embedding (Bloom)
  int intermediate_ratio = 0;   // intermediate_size = ratio x hidden when omitted or null (4)
  // A config saying "multi_query": true without a KV head count has one KV
  // head (GPTBigCode, Falcon-7B).
  bool multi_query_key = false;
  // Mamba2 hybrids (ModelFamily::kMamba2Hybrid): where the mixer geometry is.
  const MambaKeys* mamba = nullptr;
  // ---- Layouts given as data (config_parser.cc ReadTableLayout). ----
  // Without layer_types, layer i is full attention when (i + 1) % this == 0
  // and sliding otherwise (OLMo-3: 4); 0 = every layer full.
  int sliding_every = 0;
  // Keys a config may give as one value per layer (Hunyuan's moe_topk): read
  // as that value when every layer has the same, refused otherwise.
  std::span<const char* const> uniform_lists = {};
  // The key whose value times intermediate_size is the width of an ungated
  // shared expert beside the routed ones (Hunyuan num_shared_expert); "" = none.
  const char* shared_mlp_multiple = "";
  // The last MoE layer's index key (ERNIE moe_layer_end_index): later layers are dense.
  const char* last_moe_layer = "";
  std::span<const RefusedFlag> refused_flags = {};
  // A key that must equal hidden_size when the config gives it, refused otherwise (OPT's
  // word_embed_proj_dim: a narrower embedding with project_in / project_out, not modelled).
  const char* hidden_width_key = "";
  // Per-head q/k norms when the config's use_qk_norm says so, whatever the
  // family (the MoE families read it anyway): Hunyuan dense.
  bool reads_use_qk_norm = false;
};

// nullptr when unsupported.
const ArchitectureInfo* FindArchitecture(std::string_view architecture);
const ArchitectureInfo* FindArchitectureByModelType(std::string_view model_type);

// One line of `kvplan models architectures`: what the table says an
// architecture is made of.
struct ArchitectureRow {
  std::string architecture;
  std::string family;    // ModelSpec::family ("" when refused)
  std::string layers;    // layer kinds: "full (GQA)", "sliding + full", "mla", ...
  std::string mlp;       // "dense", "moe", "moe + shared", "dense (2-matrix)"
  std::string notes;     // wrapper field, norms, biases, positions
  bool accepted = true;  // false: refused by name (layer kind not modelled)
};

// Every architecture of the table, then the refused hybrid / state-space ones.
std::vector<ArchitectureRow> ArchitectureRows();

// Non-empty when `architecture` is a known hybrid or state-space model whose
// per-request state (mamba / linear attention) kvplan does not model yet: the
// refusal text says so, so that it is never planned as all-attention. The value says
// what its layers hold ("mamba2 state only (no attention)").
std::string_view UnmodelledStateArchitecture(std::string_view architecture);

// Non-empty when no release of an engine kvplan models serves `architecture` at all: why
// (the engines' registries have no model file for it), for a refusal in those words rather
// than "state memory not modelled".
std::string_view UnservedArchitectureReason(std::string_view architecture);

}  // namespace kvplan
