#include "catalog/architectures.h"

#include "catalog/model.h"

namespace kvplan {
namespace {

using TW = TowerWeights;

// transformers src/transformers/models/gemma3/configuration_gemma3.py @008f5c8
// Gemma3TextConfig.__init__: hub configs of gemma-3-4b/12b/27b omit these.
constexpr FieldDefault kGemma3TextDefaults[] = {
    {"vocab_size", 262208},      {"hidden_size", 2304},
    {"intermediate_size", 9216}, {"num_hidden_layers", 26},
    {"num_attention_heads", 8},  {"num_key_value_heads", 4},
    {"head_dim", 256},           {"max_position_embeddings", 131072},
    {"sliding_window", 4096},    {"tie_word_embeddings", 1, true},
};
// transformers models/gemma/configuration_gemma.py and gemma2/configuration_gemma2.py:
// tie_word_embeddings=True.
constexpr FieldDefault kGemmaDefaults[] = {{"tie_word_embeddings", 1, true}};

// PretrainedConfig's tie_word_embeddings=True, which GPT2Config, CohereConfig
// (cohere/configuration_cohere.py) and Starcoder2Config keep.
constexpr FieldDefault kTiedEmbeddingDefaults[] = {{"tie_word_embeddings", 1, true}};

// transformers GPT2Config / GPTJConfig / GPTBigCodeConfig attribute_map, and
// the remote-code phi-msft config of older Phi-2 snapshots (n_embd, n_layer, ...).
constexpr FieldAlias kGpt2Aliases[] = {
    {"hidden_size", "n_embd"},         {"num_hidden_layers", "n_layer"},
    {"num_attention_heads", "n_head"}, {"num_key_value_heads", "n_head_kv"},
    {"intermediate_size", "n_inner"},  {"max_position_embeddings", "n_positions"},
};

// ChatGLM2/3 and GLM-4-9B remote-code ChatGLMConfig (configuration_chatglm.py)
// names; multi_query_group_num is the KV head count (multi_query_attention).
constexpr FieldAlias kChatGlmAliases[] = {
    {"vocab_size", "padded_vocab_size"},
    {"num_hidden_layers", "num_layers"},
    {"num_key_value_heads", "multi_query_group_num"},
    {"intermediate_size", "ffn_hidden_size"},
    {"head_dim", "kv_channels"},
    {"max_position_embeddings", "seq_length"},
};

// transformers BloomConfig attribute_map (older configs say n_embed).
constexpr FieldAlias kBloomAliases[] = {
    {"hidden_size", "n_embed"},
    {"num_hidden_layers", "n_layer"},
    {"num_attention_heads", "n_head"},
};

// EXAONE-3.x remote-code ExaoneConfig attribute_map.
constexpr FieldAlias kExaoneAliases[] = {{"num_hidden_layers", "num_layers"}};

// transformers granitemoehybrid/configuration_granitemoehybrid.py names.
constexpr MambaKeys kGraniteMambaKeys = {"mamba_n_heads",   "mamba_d_head",   "mamba_d_state",
                                         "mamba_n_groups",  "mamba_d_conv",   "mamba_expand",
                                         "mamba_conv_bias", "mamba_proj_bias"};

// One entry per architecture; the comment names the model file whose layers
// the entry describes (transformers src/transformers/models/<x>/modeling_<x>.py
// unless said otherwise; SGLang python/sglang/srt/models/, vLLM
// vllm/model_executor/models/ carry files of the same name).
constexpr ArchitectureInfo kArchitectures[] = {
    // llama/modeling_llama.py
    {"LlamaForCausalLM", "llama", "llama", ModelFamily::kDense},
    // mistral/modeling_mistral.py
    {"MistralForCausalLM", "mistral", "mistral", ModelFamily::kDense},
    // qwen2/modeling_qwen2.py: q/k/v always biased
    {"Qwen2ForCausalLM", "qwen2", "qwen2", ModelFamily::kDense, "", "", TW::kNone, "", {}, true},
    // qwen3/modeling_qwen3.py: per-head q/k RMSNorm
    {"Qwen3ForCausalLM",
     "qwen3",
     "qwen3",
     ModelFamily::kDense,
     "",
     "",
     TW::kNone,
     "",
     {},
     false,
     true},
    // phi3/modeling_phi3.py: Llama layers with fused qkv_proj / gate_up_proj (same
    // parameters); SGLang and vLLM serve it without a sliding window
    {"Phi3ForCausalLM", "phi3", "phi3", ModelFamily::kDense},
    // granite/modeling_granite.py: Llama layers with scalar multipliers (no weights)
    {"GraniteForCausalLM", "granite", "granite", ModelFamily::kDense},
    // olmo2/modeling_olmo2.py: q/k RMSNorm over the whole projections, post-norms
    {"Olmo2ForCausalLM",
     "olmo2",
     "olmo2",
     ModelFamily::kDense,
     "",
     "",
     TW::kNone,
     "",
     {},
     false,
     true},
    // gemma/modeling_gemma.py: Llama layers, tied embedding, head_dim 256
    {"GemmaForCausalLM", "gemma", "gemma", ModelFamily::kDense, "", "", TW::kNone, "",
     kGemmaDefaults},
    // mixtral/modeling_mixtral.py
    {"MixtralForCausalLM", "mixtral", "mixtral", ModelFamily::kMoe},
    // qwen2_moe/modeling_qwen2_moe.py
    {"Qwen2MoeForCausalLM",
     "qwen2_moe",
     "qwen2_moe",
     ModelFamily::kMoe,
     "",
     "",
     TW::kNone,
     "",
     {},
     true},
    // qwen3_moe/modeling_qwen3_moe.py
    {"Qwen3MoeForCausalLM",
     "qwen3_moe",
     "qwen3_moe",
     ModelFamily::kMoe,
     "",
     "",
     TW::kNone,
     "",
     {},
     false,
     true},
    // glm4_moe/modeling_glm4_moe.py (q/k norm when use_qk_norm)
    {"Glm4MoeForCausalLM", "glm4_moe", "glm4_moe", ModelFamily::kMoe},
    // deepseek_v2 / deepseek_v3 modeling files; SGLang deepseek_v2.py serves all four
    {"DeepseekV2ForCausalLM", "deepseek_v2", "deepseek", ModelFamily::kDeepseek},
    {"DeepseekV3ForCausalLM", "deepseek_v3", "deepseek", ModelFamily::kDeepseek},
    {"DeepseekV32ForCausalLM", "deepseek_v32", "deepseek", ModelFamily::kDeepseek},
    {"KimiK2ForCausalLM", "kimi_k2", "deepseek", ModelFamily::kDeepseek},
    // gpt_oss/modeling_gpt_oss.py
    {"GptOssForCausalLM", "gpt_oss", "gpt_oss", ModelFamily::kGptOss},
    // gemma2/modeling_gemma2.py
    {"Gemma2ForCausalLM", "gemma2", "gemma2", ModelFamily::kGemma2, "", "", TW::kNone, "",
     kGemmaDefaults},
    // gemma3/modeling_gemma3.py: Gemma3ForCausalLM (text) and the SigLIP wrapper
    {"Gemma3ForCausalLM", "gemma3_text", "gemma3", ModelFamily::kGemma3, "", "", TW::kNone, "",
     kGemma3TextDefaults},
    {"Gemma3ForConditionalGeneration", "gemma3", "gemma3", ModelFamily::kGemma3, "text_config",
     "Gemma3ForCausalLM", TW::kCounted, "SigLIP vision tower"},
    // qwen3_next/modeling_qwen3_next.py
    {"Qwen3NextForCausalLM", "qwen3_next", "qwen3_next", ModelFamily::kQwen3Next},
    // llama4/modeling_llama4.py
    {"Llama4ForConditionalGeneration", "llama4", "llama4", ModelFamily::kLlama4, "text_config",
     "Llama4ForCausalLM", TW::kCounted, "vision tower"},
    {"Llama4ForCausalLM", "llama4_text", "llama4", ModelFamily::kLlama4},
    // Vision-language and omni wrappers around a supported text model; the
    // family is the inner model's. qwen2_5_vl/modeling_qwen2_5_vl.py (older
    // configs keep the text fields at the root)
    {"Qwen2_5_VLForConditionalGeneration", "qwen2_5_vl", "qwen2", ModelFamily::kDense,
     "text_config", "Qwen2ForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // qwen2_vl/modeling_qwen2_vl.py
    {"Qwen2VLForConditionalGeneration", "qwen2_vl", "qwen2", ModelFamily::kDense, "text_config",
     "Qwen2ForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // qwen3_vl/modeling_qwen3_vl.py, qwen3_vl_moe/modeling_qwen3_vl_moe.py
    {"Qwen3VLForConditionalGeneration", "qwen3_vl", "qwen3", ModelFamily::kDense, "text_config",
     "Qwen3ForCausalLM", TW::kFromVisionConfig, "vision tower"},
    {"Qwen3VLMoeForConditionalGeneration", "qwen3_vl_moe", "qwen3_moe", ModelFamily::kMoe,
     "text_config", "Qwen3MoeForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // qwen3_omni_moe/modeling_qwen3_omni_moe.py: the thinker is served (its text
    // model, vision and audio encoders, sized by vision_towers.cc); vLLM and
    // SGLang do not load the talker
    {"Qwen3OmniMoeForConditionalGeneration", "qwen3_omni_moe", "qwen3_moe", ModelFamily::kMoe,
     "thinker_config.text_config", "Qwen3MoeForCausalLM", TW::kFromVisionConfig,
     "audio and vision encoders"},
    // mistral3/modeling_mistral3.py (Mistral-Small-3.x, Pixtral tower)
    {"Mistral3ForConditionalGeneration", "mistral3", "mistral", ModelFamily::kDense, "text_config",
     "MistralForCausalLM", TW::kFromVisionConfig, "Pixtral vision tower"},
    // llava/modeling_llava.py, llava_next/modeling_llava_next.py (CLIP tower)
    {"LlavaForConditionalGeneration", "llava", "llama", ModelFamily::kDense, "text_config",
     "LlamaForCausalLM", TW::kFromVisionConfig, "vision tower"},
    {"LlavaNextForConditionalGeneration", "llava_next", "llama", ModelFamily::kDense, "text_config",
     "LlamaForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // InternVL (remote code modeling_internvl_chat.py; vLLM internvl.py): llm_config
    {"InternVLChatModel", "internvl_chat", "qwen2", ModelFamily::kDense, "llm_config",
     "Qwen2ForCausalLM", TW::kFromVisionConfig, "InternViT vision tower"},
    // Kimi-VL (remote code; vLLM kimi_vl.py): a DeepSeek-V3 text model
    {"KimiVLForConditionalGeneration", "kimi_vl", "deepseek", ModelFamily::kDeepseek, "text_config",
     "DeepseekV3ForCausalLM", TW::kFromVisionConfig, "MoonViT vision tower"},
    // ---- Dense and MoE families with Llama's KV cache and their own layer shapes. ----
    // internlm2 (remote code modeling_internlm2.py; vLLM internlm2.py): Llama
    // layers with a fused wqkv (same parameters)
    {"InternLM2ForCausalLM", "internlm2", "internlm2", ModelFamily::kDense},
    // deepseek (remote code modeling_deepseek.py; vLLM deepseek.py): DeepSeekMoE,
    // GQA attention, shared experts and first_k_dense_replace
    {"DeepseekForCausalLM", "deepseek", "deepseek_moe", ModelFamily::kMoe},
    // cohere/modeling_cohere.py: one weight-only LayerNorm per layer (attention
    // and MLP in parallel), tied embedding
    {.architecture = "CohereForCausalLM",
     .model_type = "cohere",
     .family_name = "cohere",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .norms_per_layer = 1},
    // stablelm/modeling_stablelm.py: LayerNorms with biases, gated MLP
    {.architecture = "StableLmForCausalLM",
     .model_type = "stablelm",
     .family_name = "stablelm",
     .family = ModelFamily::kDense,
     .norm = NormKind::kLayerNorm},
    // gpt_neox/modeling_gpt_neox.py: biased q/k/v/o and 2-matrix MLP, LayerNorms
    {.architecture = "GPTNeoXForCausalLM",
     .model_type = "gpt_neox",
     .family_name = "gpt_neox",
     .family = ModelFamily::kDense,
     .qkv_bias = true,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .o_bias = true,
     .mlp_bias = true},
    // gptj/modeling_gptj.py: one LayerNorm (parallel attention + MLP), unbiased
    // attention, biased MLP and lm_head
    {.architecture = "GPTJForCausalLM",
     .model_type = "gptj",
     .family_name = "gptj",
     .family = ModelFamily::kDense,
     .aliases = kGpt2Aliases,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .norms_per_layer = 1,
     .mlp_bias = true,
     .lm_head_bias = true,
     .intermediate_ratio = 4},
    // gpt2/modeling_gpt2.py: learned positions, biased Conv1D layers, tied
    {.architecture = "GPT2LMHeadModel",
     .model_type = "gpt2",
     .family_name = "gpt2",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .qkv_bias = true,
     .aliases = kGpt2Aliases,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .o_bias = true,
     .mlp_bias = true,
     .learned_positions = true,
     .intermediate_ratio = 4},
    // phi/modeling_phi.py (and the older remote-code phi-msft config): one
    // LayerNorm, every projection and the lm_head biased, 2-matrix MLP
    {.architecture = "PhiForCausalLM",
     .model_type = "phi",
     .family_name = "phi",
     .family = ModelFamily::kDense,
     .qkv_bias = true,
     .aliases = kGpt2Aliases,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .norms_per_layer = 1,
     .o_bias = true,
     .mlp_bias = true,
     .lm_head_bias = true,
     .intermediate_ratio = 4},
    // minicpm (remote code modeling_minicpm.py; vLLM minicpm.py): Llama layers
    // with scalar scales (no weights)
    {"MiniCPMForCausalLM", "minicpm", "minicpm", ModelFamily::kDense},
    // chatglm (remote code modeling_chatglm.py; vLLM chatglm.py): fused
    // query_key_value with bias, gated dense_h_to_4h, RMSNorm
    {.architecture = "ChatGLMModel",
     .model_type = "chatglm",
     .family_name = "chatglm",
     .family = ModelFamily::kDense,
     .qkv_bias = true,
     .aliases = kChatGlmAliases},
    // minimax_m2 (remote code modeling_minimax_m2.py; vLLM minimax_m2.py): full
    // GQA attention on every layer, 256 experts sized by intermediate_size
    {"MiniMaxM2ForCausalLM", "minimax_m2", "minimax_m2", ModelFamily::kMoe},
    // qwen3_5_moe (vLLM qwen3_5.py): Qwen3-Next's gated delta-net + gated full
    // attention text model under text_config, with a vision tower
    {"Qwen3_5MoeForConditionalGeneration", "qwen3_5_moe", "qwen3_next", ModelFamily::kQwen3Next,
     "text_config", "Qwen3NextForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // glm4_moe_lite (vLLM glm4_moe_lite.py): GLM-4.7-Flash, DeepSeek-V3's MLA +
    // shared-expert MoE under GLM's name
    {"Glm4MoeLiteForCausalLM", "glm4_moe_lite", "deepseek", ModelFamily::kDeepseek},
    // glm_moe_dsa (transformers glm_moe_dsa; vLLM deepseek_v2.py serves it):
    // GLM-5, DeepSeek-V3.2's MLA with the sparse-attention indexer
    {"GlmMoeDsaForCausalLM", "glm_moe_dsa", "deepseek", ModelFamily::kDeepseek},
    // Kimi-K2.5 (remote code modeling_kimi_k25.py; vLLM kimi_k25.py): a
    // DeepSeek-V3 text model in text_config, MoonViT vision tower
    {"KimiK25ForConditionalGeneration", "kimi_k25", "deepseek", ModelFamily::kDeepseek,
     "text_config", "DeepseekV3ForCausalLM", TW::kFromVisionConfig, "MoonViT vision tower"},
    // phi3_v (remote code modeling_phi3_v.py; vLLM phi3v.py): Phi-3's text
    // fields at the root, a CLIP ViT-L image encoder (img_processor)
    {"Phi3VForCausalLM", "phi3_v", "phi3", ModelFamily::kDense, "", "Phi3ForCausalLM",
     TW::kFromVisionConfig, "CLIP vision tower"},
    // qwen3_5 (vLLM qwen3_5.py): the dense Qwen3.5 sizes, the same layers with
    // a dense MLP
    {"Qwen3_5ForConditionalGeneration", "qwen3_5", "qwen3_next", ModelFamily::kQwen3Next,
     "text_config", "Qwen3NextForCausalLM", TW::kFromVisionConfig, "vision tower"},
    // exaone (remote code modeling_exaone.py; vLLM exaone.py): Llama layers
    // under GPT-2-style names (num_layers, c_fc_0/c_fc_1/c_proj)
    {.architecture = "ExaoneForCausalLM",
     .model_type = "exaone",
     .family_name = "exaone",
     .family = ModelFamily::kDense,
     .aliases = kExaoneAliases},
    // starcoder2/modeling_starcoder2.py: LayerNorms, biased projections,
    // 2-matrix c_fc/c_proj MLP; Starcoder2Config ties the embedding by default
    {.architecture = "Starcoder2ForCausalLM",
     .model_type = "starcoder2",
     .family_name = "starcoder2",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .qkv_bias = true,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .o_bias = true,
     .mlp_bias = true},
    // qwen3_5_moe text model without the wrapper (vLLM qwen3_5.py)
    {"Qwen3_5MoeForCausalLM", "qwen3_5_moe_text", "qwen3_next", ModelFamily::kQwen3Next},
    // granitemoe/modeling_granitemoe.py: Llama attention, experts sized by
    // intermediate_size (input_linear / output_linear), scalar multipliers
    {"GraniteMoeForCausalLM", "granitemoe", "granitemoe", ModelFamily::kMoe},
    // olmoe/modeling_olmoe.py: q/k RMSNorm over the whole projections, 64
    // experts sized by intermediate_size
    {"OlmoeForCausalLM",
     "olmoe",
     "olmoe",
     ModelFamily::kMoe,
     "",
     "",
     TW::kNone,
     "",
     {},
     false,
     true},
    // bloom/modeling_bloom.py: ALiBi (no position table), a LayerNorm after the
    // embedding, biased fused query_key_value and 4h MLP, tied
    {.architecture = "BloomForCausalLM",
     .model_type = "bloom",
     .family_name = "bloom",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .qkv_bias = true,
     .aliases = kBloomAliases,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .o_bias = true,
     .mlp_bias = true,
     .embedding_norm = true,
     .intermediate_ratio = 4},
    // granitemoehybrid/modeling_granitemoehybrid.py (SGLang models/granitemoehybrid.py,
    // vLLM granitemoehybrid.py): layer_types "mamba" (Mamba2 mixer) or
    // "attention" (NoPE GQA), each with a shared MLP of shared_intermediate_size
    // and, when num_local_experts > 0, routed experts sized by intermediate_size
    {.architecture = "GraniteMoeHybridForCausalLM",
     .model_type = "granitemoehybrid",
     .family_name = "granitemoehybrid",
     .family = ModelFamily::kMamba2Hybrid,
     .mamba = &kGraniteMambaKeys},
    // EAGLE drafts (SGLang llama_eagle.py, llama_eagle3.py)
    {"LlamaForCausalLMEagle", "", "eagle", ModelFamily::kEagle},
    {"EagleLlamaForCausalLM", "", "eagle", ModelFamily::kEagle},
    {"LlamaForCausalLMEagle3", "", "eagle3", ModelFamily::kEagle3},
    {"Eagle3LlamaForCausalLM", "", "eagle3", ModelFamily::kEagle3},
};

// Hybrid attention / state-space architectures: their per-request state
// (mamba conv + SSM state, linear-attention state) needs engine memory rules
// kvplan does not have yet (Qwen3-Next is the one modelled).
constexpr std::string_view kUnmodelledState[] = {
    "NemotronHForCausalLM",      "MambaForCausalLM",      "Mamba2ForCausalLM",
    "JambaForCausalLM",          "FalconH1ForCausalLM",   "BambaForCausalLM",
    "Zamba2ForCausalLM",         "Lfm2ForCausalLM",       "MiniMaxText01ForCausalLM",
    "MiniMaxM1ForCausalLM",      "KimiLinearForCausalLM", "Plamo2ForCausalLM",
    "RecurrentGemmaForCausalLM",

};

}  // namespace

const ArchitectureInfo* FindArchitecture(std::string_view architecture) {
  for (const ArchitectureInfo& a : kArchitectures) {
    if (architecture == a.architecture) return &a;
  }
  return nullptr;
}

const ArchitectureInfo* FindArchitectureByModelType(std::string_view model_type) {
  if (model_type.empty()) return nullptr;
  for (const ArchitectureInfo& a : kArchitectures) {
    if (model_type == a.model_type) return &a;
  }
  return nullptr;
}

std::string_view UnmodelledStateArchitecture(std::string_view architecture) {
  for (std::string_view a : kUnmodelledState) {
    if (a == architecture) return a;
  }
  return {};
}

namespace {

// The layer kinds each family's layers take (config_parser.cc ReadFamily,
// FillLayerKinds, FillMoeLayers decide them per layer).
struct FamilyLayers {
  ModelFamily family;
  const char* layers;
  const char* mlp;
};
constexpr FamilyLayers kFamilyLayers[] = {
    {ModelFamily::kDense, "full (MHA/GQA/MQA)", "dense"},
    {ModelFamily::kMoe, "full (GQA)", "moe (+ shared, first-k dense)"},
    {ModelFamily::kDeepseek, "mla (+ indexer on V3.2)", "moe + shared, first-k dense"},
    {ModelFamily::kGptOss, "sliding + full, sinks", "moe"},
    {ModelFamily::kGemma2, "sliding + full", "dense"},
    {ModelFamily::kGemma3, "sliding + full", "dense"},
    {ModelFamily::kQwen3Next, "linear (gated delta-net) + full", "moe + shared"},
    {ModelFamily::kLlama4, "chunked + full", "moe + shared / dense"},
    {ModelFamily::kMamba2Hybrid, "linear (mamba2) + full", "moe + shared / dense"},
    {ModelFamily::kEagle, "full (draft)", "dense"},
    {ModelFamily::kEagle3, "full (draft)", "dense"},
};

std::string ShapeNotes(const ArchitectureInfo& a) {
  std::string n;
  auto add = [&n](const std::string& s) { n += (n.empty() ? "" : ", ") + s; };
  if (*a.text_config) add(std::string("reads ") + a.text_config);
  if (a.towers == TW::kCounted) add(std::string(a.towers_named) + " counted");
  if (a.towers == TW::kUncounted) add(std::string(a.towers_named) + " not counted");
  if (a.towers == TW::kFromVisionConfig) add(std::string(a.towers_named) + " from vision_config");
  if (a.norm == NormKind::kLayerNorm) add("LayerNorm");
  if (a.norms_per_layer == 1) add("parallel block");
  if (a.qkv_bias) add("qkv bias");
  if (a.mlp_bias) add("mlp bias");
  if (a.qk_norm) add("qk norm");
  if (a.learned_positions) add("learned positions");
  return n.empty() ? "-" : n;
}

}  // namespace

std::vector<ArchitectureRow> ArchitectureRows() {
  std::vector<ArchitectureRow> rows;
  for (const ArchitectureInfo& a : kArchitectures) {
    const ArchitectureInfo* inner =
        *a.inner_architecture ? FindArchitecture(a.inner_architecture) : &a;
    const ModelFamily family = inner != nullptr ? inner->family : a.family;
    ArchitectureRow r{a.architecture, a.family_name, "", "", ShapeNotes(a), true};
    for (const FamilyLayers& f : kFamilyLayers) {
      if (f.family == family) r.layers = f.layers, r.mlp = f.mlp;
    }
    if (a.mlp == MlpKind::kPlain) r.mlp = "dense (2-matrix)";
    rows.push_back(std::move(r));
  }
  for (std::string_view a : kUnmodelledState) {
    rows.push_back({std::string(a), "", "mamba / linear-attention state + attention", "-",
                    "refused: state memory not modelled", false});
  }
  return rows;
}

const std::vector<std::string>& SupportedArchitectures() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const ArchitectureInfo& a : kArchitectures) names.emplace_back(a.architecture);
    return names;
  }();
  return kNames;
}

}  // namespace kvplan
