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

// transformers models/gemma4/configuration_gemma4.py Gemma4TextConfig (5.5): the fields a
// text config may omit. hidden_size_per_layer_input defaults to 256 there, but the released
// 26B-A4B and 31B configs state 0 and E2B/E4B 256, so no default is taken for it: a config
// without it has no per-layer inputs (vLLM gemma4.py getattr(..., 0)).
constexpr FieldDefault kGemma4TextDefaults[] = {
    {"vocab_size", 262144},
    {"hidden_size", 2304},
    {"intermediate_size", 9216},
    {"num_hidden_layers", 30},
    {"num_attention_heads", 8},
    {"num_key_value_heads", 4},
    {"head_dim", 256},
    {"global_head_dim", 512},
    {"sliding_window", 512},
    {"max_position_embeddings", 131072},
    {"tie_word_embeddings", 1, true},
};
// transformers models/gemma3n/configuration_gemma3n.py Gemma3nTextConfig (4.53): its
// defaults are gemma-3n-E4B's text model (the E2B config states its own sizes).
constexpr FieldDefault kGemma3nTextDefaults[] = {
    {"vocab_size", 262400},
    {"vocab_size_per_layer_input", 262144},
    {"hidden_size", 2048},
    {"hidden_size_per_layer_input", 256},
    {"intermediate_size", 16384},
    {"num_hidden_layers", 35},
    {"num_attention_heads", 8},
    {"num_key_value_heads", 2},
    {"head_dim", 256},
    {"sliding_window", 512},
    {"max_position_embeddings", 32768},
    {"num_kv_shared_layers", 15},
    {"altup_num_inputs", 4},
    {"laurel_rank", 64},
    {"tie_word_embeddings", 1, true},
};
// Gemma3nTextConfig accepts intermediate_size as one width per layer (the released
// E2B/E4B configs list the same width 30 / 35 times).
constexpr const char* kGemma3nPerLayerKeys[] = {"intermediate_size"};

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

// transformers OPTConfig names the MLP width ffn_dim (opt/configuration_opt.py).
constexpr FieldAlias kOptAliases[] = {{"intermediate_size", "ffn_dim"}};

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

// Nemotron-H's remote-code NemotronHConfig names (configuration_nemotron_h.py; SGLang
// configs/nemotron_h.py mamba2_cache_params: intermediate = mamba_num_heads x mamba_head_dim).
constexpr MambaKeys kNemotronHMambaKeys = {"mamba_num_heads",
                                           "mamba_head_dim",
                                           "ssm_state_size",
                                           "n_groups",
                                           "conv_kernel",
                                           "",
                                           "use_conv_bias",
                                           "use_bias",
                                           HybridLayout::kOverridePattern,
                                           "mamba_ssm_cache_dtype"};
// Older Nemotron-H configs say attention_head_dim.
constexpr FieldAlias kNemotronHAliases[] = {{"head_dim", "attention_head_dim"}};

// transformers bamba/configuration_bamba.py: Granite's key names, attention at
// attn_layer_indices.
constexpr MambaKeys kBambaMambaKeys = {
    "mamba_n_heads",   "mamba_d_head",    "mamba_d_state",
    "mamba_n_groups",  "mamba_d_conv",    "mamba_expand",
    "mamba_conv_bias", "mamba_proj_bias", HybridLayout::kAttentionIndices};

// transformers falcon_h1/configuration_falcon_h1.py: the mixer width is mamba_d_ssm when
// given, else mamba_expand x hidden; the gated norm only with mamba_rms_norm (default false).
constexpr MambaKeys kFalconH1MambaKeys = {.heads = "mamba_n_heads",
                                          .head_dim = "mamba_d_head",
                                          .state_size = "mamba_d_state",
                                          .groups = "mamba_n_groups",
                                          .conv_kernel = "mamba_d_conv",
                                          .expand = "mamba_expand",
                                          .conv_bias = "mamba_conv_bias",
                                          .proj_bias = "mamba_proj_bias",
                                          .layout = HybridLayout::kParallel,
                                          .intermediate = "mamba_d_ssm",
                                          .gated_norm = "mamba_rms_norm"};

// transformers jamba/configuration_jamba.py (Mamba-1: no heads or groups).
constexpr MambaKeys kJambaMambaKeys = {.heads = "",
                                       .head_dim = "",
                                       .state_size = "mamba_d_state",
                                       .groups = "",
                                       .conv_kernel = "mamba_d_conv",
                                       .expand = "mamba_expand",
                                       .conv_bias = "mamba_conv_bias",
                                       .proj_bias = "mamba_proj_bias",
                                       .layout = HybridLayout::kPeriodic,
                                       .dt_rank = "mamba_dt_rank"};

// Kimi-Linear's remote-code KimiLinearConfig names (configuration_kimi.py; vLLM
// transformers_utils/configs/kimi_linear.py reads the same): the MoE fields under Kimi's
// names, and the context length as model_max_length, which both engines read when
// max_position_embeddings is absent (vLLM config _get_and_verify_max_len possible_keys,
// SGLang hf_transformers_utils.py CONTEXT_LENGTH_KEYS).
constexpr FieldAlias kKimiLinearAliases[] = {
    {"num_experts_per_tok", "num_experts_per_token"},
    {"n_shared_experts", "num_shared_experts"},
    {"max_position_embeddings", "model_max_length"},
};

// transformers mamba2/configuration_mamba2.py Mamba2Config: the mixer under its own names
// (num_heads, head_dim, state_size, n_groups, conv_kernel, expand; intermediate =
// int(expand x hidden_size)); the gated RMSNorm is always there (Mamba2Mixer.norm).
constexpr MambaKeys kMamba2SsmKeys = {.heads = "num_heads",
                                      .head_dim = "head_dim",
                                      .state_size = "state_size",
                                      .groups = "n_groups",
                                      .conv_kernel = "conv_kernel",
                                      .expand = "expand",
                                      .conv_bias = "use_conv_bias",
                                      .proj_bias = "use_bias"};
// Mamba2Config.__init__ defaults (transformers 4.44+): the geometry of Mamba-Codestral-7B;
// no attention layers, so one placeholder attention head that no layer reads (ReadCommon
// asks for one).
constexpr FieldDefault kMamba2SsmDefaults[] = {
    {"num_heads", 128},
    {"head_dim", 64},
    {"state_size", 128},
    {"n_groups", 8},
    {"conv_kernel", 4},
    {"expand", 2},
    {"num_attention_heads", 1},
    {"vocab_size", 32768},
    {"tie_word_embeddings", 0, true},
};

// transformers zamba2/configuration_zamba2.py Zamba2Config.__init__ defaults (4.48+); the
// embedding is tied (PretrainedConfig's tie_word_embeddings, and vLLM zamba2.py ties lm_head
// whatever the config says). n_mamba_heads (8) is ReadZamba2's: a pre-release config's
// mamba_headdim decides it there.
constexpr FieldDefault kZamba2Defaults[] = {
    {"vocab_size", 32000},
    {"hidden_size", 2560},
    {"num_hidden_layers", 54},
    {"num_attention_heads", 32},
    {"max_position_embeddings", 4096},
    {"mamba_d_state", 64},
    {"mamba_d_conv", 4},
    {"mamba_expand", 2},
    {"mamba_ngroups", 1},
    {"num_mem_blocks", 1},
    {"adapter_rank", 128},
    {"tie_word_embeddings", 1, true},
};
// The pre-release names of Zyphra's transformers_zamba2 fork (configuration_zamba2.py), which
// configs written for it carry: ffn_hidden_size, state_size, conv_dimension,
// expansion_factor, lora_rank, use_shared_attention_lora.
constexpr FieldAlias kZamba2Aliases[] = {
    {"intermediate_size", "ffn_hidden_size"},
    {"mamba_d_state", "state_size"},
    {"mamba_d_conv", "conv_dimension"},
    {"mamba_expand", "expansion_factor"},
    {"adapter_rank", "lora_rank"},
    {"use_shared_attention_adapter", "use_shared_attention_lora"},
};

// PLaMo-2's remote-code Plamo2Config.__init__ defaults (pfnet/plamo-2-1b modeling_plamo.py, as
// mlx-examples llms/mlx_lm/models/plamo2.py ModelArgs mirrors them): tied embedding,
// hidden_size_per_head 128 (vLLM plamo2.py takes it as head_dim), mamba_num_heads 64.
constexpr FieldDefault kPlamo2Defaults[] = {
    {"vocab_size", 32000},
    {"hidden_size", 4096},
    {"num_hidden_layers", 32},
    {"num_attention_heads", 32},
    {"num_key_value_heads", 4},
    {"hidden_size_per_head", 128},
    {"head_dim", 128},  // hidden_size_per_head's default, when the config names neither
    {"intermediate_size", 13312},
    {"max_position_embeddings", 2048},
    {"attention_window_size", 2048},
    {"mamba_d_state", 64},
    {"mamba_d_conv", 4},
    {"mamba_num_heads", 64},
    {"mamba_step", 2},
    {"tie_word_embeddings", 1, true},
};
// vLLM plamo2.py Plamo2ForCausalLM @v0.10.2: config.head_dim = config.hidden_size_per_head.
constexpr FieldAlias kPlamo2Aliases[] = {
    {"head_dim", "hidden_size_per_head"},
};

// transformers mamba/configuration_mamba.py MambaConfig (Mamba-1): state_size, conv_kernel,
// expand, intermediate_size = int(expand x hidden_size), time_step_rank ("auto" = ceil(hidden
// / 16)), use_conv_bias, use_bias. No heads or groups.
constexpr MambaKeys kMamba1SsmKeys = {.heads = "",
                                      .head_dim = "",
                                      .state_size = "state_size",
                                      .groups = "",
                                      .conv_kernel = "conv_kernel",
                                      .expand = "expand",
                                      .conv_bias = "use_conv_bias",
                                      .proj_bias = "use_bias",
                                      .intermediate = "intermediate_size",
                                      .dt_rank = "time_step_rank"};
// MambaConfig has no tie_word_embeddings argument: PretrainedConfig's True, which
// MambaForCausalLM ties its lm_head by (vLLM models/mamba.py: config.tie_word_embeddings).
constexpr FieldDefault kMamba1SsmDefaults[] = {
    {"num_attention_heads", 1},
    {"vocab_size", 50280},
    {"tie_word_embeddings", 1, true},
};

// ---- archs2: the data of the issue-14 architectures appended at the end of the table. ----
// transformers olmo3/configuration_olmo3.py Olmo3Config.__init__ (vLLM
// transformers_utils/configs/olmo3.py has the same): sliding_window=4096, and
// layer_types 3 sliding : 1 full (ArchitectureInfo::sliding_every).
constexpr FieldDefault kOlmo3Defaults[] = {{"sliding_window", 4096}};

// ERNIE-4.5 MoE (transformers ernie4_5_moe/configuration_ernie4_5_moe.py
// Ernie4_5_MoeConfig attribute names; vLLM ernie45_moe.py reads the same keys):
// layer i is MoE when moe_layer_start_index <= i <= moe_layer_end_index and
// (i + 1) % moe_layer_interval == 0; the shared experts are one MLP of
// moe_num_shared_experts x moe_intermediate_size.
constexpr FieldAlias kErnieMoeAliases[] = {
    {"num_experts", "moe_num_experts"},
    {"num_experts_per_tok", "moe_k"},
    {"n_shared_experts", "moe_num_shared_experts"},
    {"first_k_dense_replace", "moe_layer_start_index"},
    {"decoder_sparse_step", "moe_layer_interval"},
};

// transformers Ernie4_5Config / Ernie4_5_MoeConfig use_bias: biases on q/k/v/o
// and the MLPs, which the released configs turn off and the table does not count.
constexpr RefusedFlag kErnieRefused[] = {{"use_bias", "biases on every projection (use_bias)"}};

// Hunyuan (vLLM hunyuan_v1.py; the remote-code configs name the head size
// attention_head_dim and the top-k moe_topk, often as one value per layer).
constexpr FieldAlias kHunyuanAliases[] = {
    {"head_dim", "attention_head_dim"},
    {"num_experts_per_tok", "moe_topk"},
    {"first_k_dense_replace", "moe_layer_num_skipped"},
};
constexpr const char* kHunyuanPerLayerKeys[] = {"moe_topk", "moe_intermediate_size",
                                                "num_shared_expert"};
// vLLM hunyuan_v1.py HunYuanAttention: use_cla shares one layer's KV with the
// next cla_share_factor - 1 layers; use_mla (Hunyuan-Large remote code) is
// latent attention. Neither is described by the table.
constexpr RefusedFlag kHunyuanRefused[] = {
    {"use_cla", "cross-layer attention (use_cla: layers share one KV cache)"},
    {"use_mla", "latent attention (use_mla)"},
};

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
    // DeepSeek-V4 (vLLM model_executor/models/deepseek_v4.py, SGLang models/deepseek_v4.py):
    // a 128-token sliding window in every layer plus compressed KV where compress_ratios
    // says (4 with an indexer, 128 without), grouped low-rank output, hyper-connections
    {"DeepseekV4ForCausalLM", "deepseek_v4", "deepseek_v4", ModelFamily::kDeepseekV4},
    // gpt_oss/modeling_gpt_oss.py
    {"GptOssForCausalLM", "gpt_oss", "gpt_oss", ModelFamily::kGptOss},
    // vLLM nemotron_nas.py (SGLang nemotron_nas.py, #9067): Llama layers, each with its
    // block_configs entry's KV heads (or no_op attention) and FFN width (or no_op)
    {"DeciLMForCausalLM", "nemotron-nas", "decilm", ModelFamily::kDeciLm},
    // vLLM mimo_v2_flash.py (SGLang mimo_v2_flash.py): sliding layers with their own
    // heads and sizes (swa_*), full layers num_key_value_heads; V head narrower than K
    {"MiMoV2FlashForCausalLM", "mimo_v2_flash", "mimo_v2_flash", ModelFamily::kMimoV2Flash},
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
    // opt/modeling_opt.py (vLLM models/opt.py): OPTLearnedPositionalEmbedding of
    // max_position_embeddings + 2 rows, biased q/k/v/out_proj and fc1/fc2 (a ReLU between, no
    // gate), LayerNorms, lm_head tied to embed_tokens
    {.architecture = "OPTForCausalLM",
     .model_type = "opt",
     .family_name = "opt",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .qkv_bias = true,
     .aliases = kOptAliases,
     .mlp = MlpKind::kPlain,
     .norm = NormKind::kLayerNorm,
     .o_bias = true,
     .mlp_bias = true,
     .learned_positions = true,
     .learned_position_offset = 2,
     .hidden_width_key = "word_embed_proj_dim"},
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
    // Nemotron-H, Nemotron-Nano-v2, Nemotron-3-Nano (remote-code modeling_nemotron_h.py;
    // SGLang models/nemotron_h.py, vLLM models/nemotron_h.py): one block per
    // hybrid_override_pattern character, a norm and one of a Mamba2 mixer (M), GQA
    // attention (*), a relu2 up/down MLP (-) or relu2 routed experts with a shared
    // expert and a float32 correction bias (E)
    {.architecture = "NemotronHForCausalLM",
     .model_type = "nemotron_h",
     .family_name = "nemotron_h",
     .family = ModelFamily::kMamba2Hybrid,
     .aliases = kNemotronHAliases,
     .mlp = MlpKind::kPlain,
     .mamba = &kNemotronHMambaKeys},
    // bamba/modeling_bamba.py (SGLang models/bamba.py, vLLM models/bamba.py): Mamba2
    // mixer or GQA attention per layer (attn_layer_indices), a SwiGLU MLP in every layer
    {.architecture = "BambaForCausalLM",
     .model_type = "bamba",
     .family_name = "bamba",
     .family = ModelFamily::kMamba2Hybrid,
     .mamba = &kBambaMambaKeys},
    // falcon_h1/modeling_falcon_h1.py (SGLang models/falcon_h1.py, vLLM models/falcon_h1.py):
    // every layer runs GQA attention and a Mamba2 mixer side by side on one input norm, then
    // a SwiGLU MLP after its own norm. kvplan splits each layer into an attention layer
    // holding the MLP and both norms and a Mamba2 layer with neither, so that the engines
    // count one KV layer and one state layer per decoder layer, as they do.
    {.architecture = "FalconH1ForCausalLM",
     .model_type = "falcon_h1",
     .family_name = "falcon_h1",
     .family = ModelFamily::kMamba2Hybrid,
     .mamba = &kFalconH1MambaKeys},
    // jamba/modeling_jamba.py (vLLM models/jamba.py): a Mamba-1 mixer (with dt / B / C
    // RMSNorms) or GQA attention per layer, then a SwiGLU MLP or 16 routed experts
    {.architecture = "JambaForCausalLM",
     .model_type = "jamba",
     .family_name = "jamba",
     .family = ModelFamily::kMamba2Hybrid,
     .mamba = &kJambaMambaKeys},
    // kimi_linear (remote code modeling_kimi.py; vLLM models/kimi_linear.py @v0.11.1, SGLang
    // models/kimi_linear.py): Kimi delta attention (KDA: q/k/v projections with short
    // convolutions, low-rank f and g gates, per-head beta) on the kda_layers, MLA without
    // q_lora on the others; a dense first layer, then routed experts with a shared expert
    {.architecture = "KimiLinearForCausalLM",
     .model_type = "kimi_linear",
     .family_name = "kimi_linear",
     .family = ModelFamily::kKimiLinear,
     .aliases = kKimiLinearAliases},
    // EAGLE drafts (SGLang llama_eagle.py, llama_eagle3.py)
    {"LlamaForCausalLMEagle", "", "eagle", ModelFamily::kEagle},
    {"EagleLlamaForCausalLM", "", "eagle", ModelFamily::kEagle},
    {"LlamaForCausalLMEagle3", "", "eagle3", ModelFamily::kEagle3},
    {"Eagle3LlamaForCausalLM", "", "eagle3", ModelFamily::kEagle3},
    // ---- archs2: the remaining architectures of issue 14. ----
    // smollm3/modeling_smollm3.py: Llama layers; every 4th layer skips RoPE
    // (no_rope_layers), which changes no weight and no KV; SmolLM3Config ties the embedding
    {.architecture = "SmolLM3ForCausalLM",
     .model_type = "smollm3",
     .family_name = "smollm3",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults},
    // olmo3/modeling_olmo3.py: OLMo-2's layers (q/k RMSNorm over the whole
    // projections, post-norms) with sliding-window attention on 3 of 4 layers
    {.architecture = "Olmo3ForCausalLM",
     .model_type = "olmo3",
     .family_name = "olmo3",
     .family = ModelFamily::kDense,
     .defaults = kOlmo3Defaults,
     .qk_norm = true,
     .sliding_every = 4},
    // ernie4_5/modeling_ernie4_5.py: Llama layers (use_bias false in the released
    // configs); Ernie4_5Config ties the embedding. The hub configs say
    // Ernie4_5_ForCausalLM (remote code), transformers Ernie4_5ForCausalLM
    {.architecture = "Ernie4_5_ForCausalLM",
     .model_type = "ernie4_5",
     .family_name = "ernie4_5",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .refused_flags = kErnieRefused},
    {.architecture = "Ernie4_5ForCausalLM",
     .model_type = "ernie4_5",
     .family_name = "ernie4_5",
     .family = ModelFamily::kDense,
     .defaults = kTiedEmbeddingDefaults,
     .refused_flags = kErnieRefused},
    // ernie4_5_moe/modeling_ernie4_5_moe.py: Llama attention, routed experts of
    // moe_intermediate_size and shared experts, the first layer(s) dense
    {.architecture = "Ernie4_5_MoeForCausalLM",
     .model_type = "ernie4_5_moe",
     .family_name = "ernie4_5_moe",
     .family = ModelFamily::kMoe,
     .defaults = kTiedEmbeddingDefaults,
     .aliases = kErnieMoeAliases,
     .last_moe_layer = "moe_layer_end_index",
     .refused_flags = kErnieRefused},
    // hunyuan_v1_dense/modeling_hunyuan_v1_dense.py (vLLM hunyuan_v1.py): Llama
    // layers with per-head query/key RMSNorm (query_layernorm, key_layernorm)
    // when use_qk_norm
    {.architecture = "HunYuanDenseV1ForCausalLM",
     .model_type = "hunyuan_v1_dense",
     .family_name = "hunyuan",
     .family = ModelFamily::kDense,
     .aliases = kHunyuanAliases,
     .refused_flags = kHunyuanRefused,
     .reads_use_qk_norm = true},
    // hunyuan_v1_moe/modeling_hunyuan_v1_moe.py (vLLM hunyuan_v1.py
    // HunYuanSparseMoeBlock): routed experts of moe_intermediate_size beside an
    // ungated shared MLP of num_shared_expert x intermediate_size
    // (use_mixed_mlp_moe); q/k norms when use_qk_norm, as every MoE family reads it
    {.architecture = "HunYuanMoEV1ForCausalLM",
     .model_type = "hunyuan_v1_moe",
     .family_name = "hunyuan_moe",
     .family = ModelFamily::kMoe,
     .aliases = kHunyuanAliases,
     .uniform_lists = kHunyuanPerLayerKeys,
     .shared_mlp_multiple = "num_shared_expert",
     .refused_flags = kHunyuanRefused},
    // ministral3 (transformers ministral3/modeling_ministral3.py): Mistral's
    // layers; Ministral-3's text_config inside Mistral3ForConditionalGeneration
    {"Ministral3ForCausalLM", "ministral3", "mistral", ModelFamily::kDense},
    // ---- gemma: per-layer KV geometry (catalog/gemma_config.cc reads the layers). ----
    // gemma4/modeling_gemma4.py (vLLM gemma4.py): sliding layers of head_dim and
    // num_key_value_heads, full layers of global_head_dim and, with attention_k_eq_v,
    // num_global_key_value_heads; E2B/E4B share KV in their last num_kv_shared_layers
    // and add per-layer input embeddings; 26B-A4B runs routed experts beside the MLP.
    {.architecture = "Gemma4ForCausalLM",
     .model_type = "gemma4_text",
     .family_name = "gemma4",
     .family = ModelFamily::kGemma4,
     .defaults = kGemma4TextDefaults,
     .qk_norm = true},
    {.architecture = "Gemma4ForConditionalGeneration",
     .model_type = "gemma4",
     .family_name = "gemma4",
     .family = ModelFamily::kGemma4,
     .text_config = "text_config",
     .inner_architecture = "Gemma4ForCausalLM",
     .towers = TW::kUncounted,
     .towers_named = "vision tower"},
    // gemma3n/modeling_gemma3n.py (vLLM gemma3n.py): Gemma-3's sliding / full layers,
    // the last num_kv_shared_layers read earlier layers' KV, per-layer input embeddings,
    // AltUp streams and LAuReL blocks; a MobileNet-v5 vision tower and a USM audio encoder.
    {.architecture = "Gemma3nForCausalLM",
     .model_type = "gemma3n_text",
     .family_name = "gemma3n",
     .family = ModelFamily::kGemma3n,
     .defaults = kGemma3nTextDefaults,
     .qk_norm = true,
     .uniform_lists = kGemma3nPerLayerKeys},
    {.architecture = "Gemma3nForConditionalGeneration",
     .model_type = "gemma3n",
     .family_name = "gemma3n",
     .family = ModelFamily::kGemma3n,
     .text_config = "text_config",
     .inner_architecture = "Gemma3nForCausalLM",
     .towers = TW::kUncounted,
     .towers_named = "MobileNet-v5 vision tower, audio encoder"},
    // ---- lfm2mm: LFM2 and MiniMax lightning attention (catalog/lfm2_minimax_config.cc). ----
    // lfm2/modeling_lfm2.py (vLLM models/lfm2.py @v0.10.2, SGLang models/lfm2.py #16890):
    // gated short-convolution layers (in_proj to 3 x conv_dim, a depthwise conv of
    // conv_L_cache taps, out_proj) and GQA layers with per-head q/k RMSNorms, each with a
    // SwiGLU MLP whose width block_auto_adjust_ff_dim recomputes; Lfm2Config ties the
    // embedding (tie_word_embeddings=True, or the checkpoint's tie_embedding)
    {.architecture = "Lfm2ForCausalLM",
     .model_type = "lfm2",
     .family_name = "lfm2",
     .family = ModelFamily::kLfm2,
     .defaults = kTiedEmbeddingDefaults,
     .qk_norm = true},
    // MiniMax-Text-01 remote code modeling_minimax_text_01.py (vLLM
    // models/minimax_text_01.py @v0.10.1, which also serves MiniMaxM1ForCausalLM): lightning
    // attention (qkv_proj, a sigmoid output_gate, an RMSNorm over the heads, out_proj) where
    // attn_type_list says 0, GQA softmax attention with partial rotary where it says 1; 32
    // routed experts (w1/w3/w2) in every layer
    {.architecture = "MiniMaxText01ForCausalLM",
     .model_type = "minimax_text_01",
     .family_name = "minimax_text_01",
     .family = ModelFamily::kMiniMaxText01},
    {.architecture = "MiniMaxM1ForCausalLM",
     .model_type = "minimax_m1",
     .family_name = "minimax_text_01",
     .family = ModelFamily::kMiniMaxText01},
    // mamba2/modeling_mamba2.py (vLLM models/mamba2.py, SGLang models/mamba2.py): a norm and a
    // Mamba2 mixer per layer, nothing else; Mamba-Codestral-7B, state-spaces/mamba2-*
    {.architecture = "Mamba2ForCausalLM",
     .model_type = "mamba2",
     .family_name = "mamba2",
     .family = ModelFamily::kMambaSsm,
     .defaults = kMamba2SsmDefaults,
     .mamba = &kMamba2SsmKeys},
    // mamba/modeling_mamba.py (vLLM models/mamba.py, SGLang models/mamba.py): a norm and a
    // Mamba-1 mixer per layer; state-spaces/mamba-*-hf
    {.architecture = "MambaForCausalLM",
     .model_type = "mamba",
     .family_name = "mamba",
     .family = ModelFamily::kMambaSsm,
     .defaults = kMamba1SsmDefaults,
     .mamba = &kMamba1SsmKeys},
    // zamba2/modeling_zamba2.py (vLLM models/zamba2.py; SGLang has no model file): Mamba2
    // layers, and in each "hybrid" layer an application of one of num_mem_blocks shared
    // attention + GELU-MLP blocks (2 x hidden wide, over [hidden, embedding]) with its own
    // linear and adapters before the Mamba2 mixer (catalog/zamba2_config.cc)
    {.architecture = "Zamba2ForCausalLM",
     .model_type = "zamba2",
     .family_name = "zamba2",
     .family = ModelFamily::kZamba2,
     .defaults = kZamba2Defaults,
     .aliases = kZamba2Aliases,
     .intermediate_ratio = 4},
    // vLLM models/plamo2.py @v0.10.2 (remote code modeling_plamo.py; SGLang has no model file):
    // layer i is attention when i % mamba_step == mamba_step / 2, a Mamba mixer otherwise; every
    // layer has a SwiGLU MLP and four RMSNorms (pre/post mixer, pre/post MLP)
    // (catalog/plamo2_config.cc)
    {.architecture = "Plamo2ForCausalLM",
     .model_type = "plamo2",
     .family_name = "plamo2",
     .family = ModelFamily::kPlamo2,
     .defaults = kPlamo2Defaults,
     .qk_norm = true,  // per-head q_norm / k_norm weights (weights.cc prices them per head)
     .aliases = kPlamo2Aliases},
    // ---- models5: plain entries of existing layer kinds. ----
    // falcon_mamba/modeling_falcon_mamba.py (vLLM models/mamba.py serves it as
    // MambaForCausalLM, #9325): Mamba-1 layers whose dt / B / C RMSNorms carry no weight
    // (MambaMixer rms_norm_has_weight=False), so the weights are Mamba-1's; FalconMambaConfig
    // keeps MambaConfig's defaults (vocab 50280, tied) and the config's intermediate_size
    {.architecture = "FalconMambaForCausalLM",
     .model_type = "falcon_mamba",
     .family_name = "falcon_mamba",
     .family = ModelFamily::kMambaSsm,
     .defaults = kMamba1SsmDefaults,
     .mamba = &kMamba1SsmKeys},
    // glm4v_moe/modeling_glm4v_moe.py (vLLM models/glm4_1v.py Glm4vMoeForConditionalGeneration):
    // GLM-4.5V, GLM-4.5-Air's text model (Glm4MoeForCausalLM) under text_config beside a
    // 24-layer ViT that kvplan does not size
    {"Glm4vMoeForConditionalGeneration", "glm4v_moe", "glm4_moe", ModelFamily::kMoe, "text_config",
     "Glm4MoeForCausalLM", TW::kUncounted, "vision tower"},
};

// Hybrid attention / state-space architectures: their per-request state
// (mamba conv + SSM state, linear-attention state) needs engine memory rules
// kvplan does not have yet (the gated delta-net and Mamba2 hybrids are modelled).
struct UnmodelledState {
  std::string_view architecture;
  std::string_view layers;         // what its layers hold, for the refusal and `kvplan models`
  std::string_view unserved = {};  // why no modelled engine serves it ("" = some engine does)
};
constexpr UnmodelledState kUnmodelledState[] = {
    // Neither vLLM (vllm/model_executor/models has no recurrent_gemma.py at any release kvplan
    // models) nor SGLang (python/sglang/srt/models has none) registers it.
    {"RecurrentGemmaForCausalLM", "RG-LRU recurrent state + local attention",
     "neither vLLM's nor SGLang's model registry has it (no recurrent_gemma.py in "
     "vllm/model_executor/models or python/sglang/srt/models), so both stop with "
     "\"ValueError: Model architectures ['RecurrentGemmaForCausalLM'] are not supported for "
     "now.\""},
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
  for (const UnmodelledState& u : kUnmodelledState) {
    if (u.architecture == architecture) return u.layers;
  }
  return {};
}

std::string_view UnservedArchitectureReason(std::string_view architecture) {
  for (const UnmodelledState& u : kUnmodelledState) {
    if (u.architecture == architecture) return u.unserved;
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
    {ModelFamily::kDeepseekV4, "sliding + compressed (c4 + indexer, c128)",
     "moe + shared, hash-routed first layers"},
    {ModelFamily::kGptOss, "sliding + full, sinks", "moe"},
    {ModelFamily::kGemma2, "sliding + full", "dense"},
    {ModelFamily::kGemma3, "sliding + full", "dense"},
    {ModelFamily::kQwen3Next, "linear (gated delta-net) + full", "moe + shared"},
    {ModelFamily::kLlama4, "chunked + full", "moe + shared / dense"},
    {ModelFamily::kMamba2Hybrid, "linear (mamba2 or mamba-1) + full", "moe + shared / dense"},
    {ModelFamily::kKimiLinear, "linear (kimi delta attention) + mla",
     "moe + shared, first-k dense"},
    {ModelFamily::kDeciLm, "full (GQA, per-layer KV heads) + no-op", "dense (per-layer width)"},
    {ModelFamily::kMimoV2Flash, "sliding + full, per-kind KV heads, V < K", "moe, first dense"},
    {ModelFamily::kEagle, "full (draft)", "dense"},
    {ModelFamily::kEagle3, "full (draft)", "dense"},
    {ModelFamily::kGemma4, "sliding + full (own head size, KV heads; KV-sharing layers)",
     "dense / moe beside the mlp"},
    {ModelFamily::kGemma3n, "sliding + full (KV-sharing layers), altup, laurel", "dense"},
    {ModelFamily::kLfm2, "linear (short convolution) + full", "dense"},
    {ModelFamily::kMiniMaxText01, "linear (lightning attention) + full", "moe"},
    {ModelFamily::kMambaSsm, "linear (mamba2 or mamba-1) only, no attention", "none"},
    {ModelFamily::kZamba2, "linear (mamba2) + full (shared blocks, a KV cache per use)",
     "dense (shared, gate/up adapters)"},
    {ModelFamily::kPlamo2, "linear (mamba, n_groups 0) + sliding", "dense"},
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
    if (a.sliding_every > 0) r.layers = "sliding + full";
    rows.push_back(std::move(r));
  }
  for (const UnmodelledState& u : kUnmodelledState) {
    rows.push_back({std::string(u.architecture), "", std::string(u.layers), "-",
                    u.unserved.empty() ? "refused: state memory not modelled"
                                       : "refused: no modelled engine release serves it",
                    false});
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
