// A model as the serving engines see it: the geometry read from a Hugging
// Face config.json (plus the checkpoint's real size when the safetensors
// files are at hand). Engines derive KV bytes per token from this with their
// own rules; catalog/weights.h derives weight bytes per rank.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kvplan {

enum class AttentionKind {
  kGqa,  // MHA, GQA or MQA: K and V of num_kv_heads x head_dim per layer
  kMla,  // multi-head latent attention (DeepSeek V2/V3, Kimi-K2): one latent per layer
};

// What each decoder layer holds in the KV cache.
enum class LayerKind {
  kFull,     // full attention
  kSliding,  // sliding-window attention (Gemma-2/3, gpt-oss)
  kChunked,  // chunked local attention (Llama-4)
  kLinear,   // linear attention / mamba state, no per-token KV (Qwen3-Next)
};

// What a kLinear layer keeps per request (catalog/state_shapes.h).
enum class StateKind {
  kGatedDeltaNet,  // Qwen3-Next / Qwen3.5 linear attention (linear_* fields)
  kMamba2,         // Mamba2 mixer (mamba_* fields): Granite-4.0-H
  kMamba1,         // Mamba-1 mixer (mamba_* fields, mamba_dt_rank): Jamba
  // LFM2 short convolution: a conv window only, mamba_intermediate_size (conv_dim) channels
  // of mamba_conv_kernel - 1 (catalog/lfm2_minimax_config.cc).
  kShortConv,
  // MiniMax-Text-01 / M1 lightning attention: a heads x head_dim x head_dim state only
  // (linear_num_value_heads, linear_value_head_dim).
  kLightning,
};

// Whether a layer's attention keeps a KV cache of its own.
enum class LayerKv {
  kOwn,     // its own K and V (every layer of a uniform model)
  kNone,    // no attention module at all (DeciLM no_op: no projections, no norm, no KV)
  kShared,  // reads the KV of an earlier layer (Gemma-3n's last num_kv_shared_layers)
};

// One decoder layer's attention and MLP shape, for models whose layers differ
// (DeciLM block_configs, MiMo-V2-Flash's sliding layers, Gemma-3n/4). Fields
// left 0 / -1 take the model-level value; read through catalog/layer_geometry.h
// (LayerGeometryAt), never directly.
struct LayerGeometry {
  LayerKv kv = LayerKv::kOwn;
  int kv_source = -1;             // kShared: the layer whose KV this one reads
  int q_heads = 0;                // attention (query) heads; 0: num_attention_heads
  int kv_heads = 0;               // K/V heads; 0: num_kv_heads
  int head_dim = 0;               // Q and K width per head; 0: head_dim
  int v_head_dim = 0;             // V width per head; 0: v_head_dim
  int64_t mlp_intermediate = -1;  // dense MLP width; -1: intermediate_size; 0: no MLP (no_op)
};

// How the checkpoint stores its weights (config.json "quantization_config").
struct Quantization {
  std::string method;  // "" for none; "fp8", "compressed-tensors", "mxfp4", "awq", "gptq", ...
  // Bits per weight of the quantized linear layers (16 when not quantized).
  int weight_bits = 16;
  int group_size = 0;            // per-group scales (int4 AWQ/GPTQ/compressed-tensors, mxfp4: 32)
  int block_n = 0, block_k = 0;  // fp8 block scales (DeepSeek: 128x128)
  // Module name patterns the checkpoint keeps unquantized (bf16):
  // modules_to_not_convert / ignore / ignored_layers.
  std::vector<std::string> unquantized_modules;
  // True when only the MoE expert weights are quantized (gpt-oss mxfp4).
  bool experts_only = false;

  // Added by the models work: which kinds of linear layers are stored quantized
  // after applying `unquantized_modules` (decided once at parse time so that
  // EstimateWeights stays cheap). Embeddings, norms and MoE routers are never
  // quantized by the supported methods.
  bool attention_quantized = false;  // q/k/v/o, MLA projections, linear attention
  bool dense_mlp_quantized = false;  // dense MLP layers
  bool experts_quantized = false;    // routed experts
  bool shared_experts_quantized = false;
  bool lm_head_quantized = false;  // only when a compressed-tensors config does not ignore it
  int scale_bytes = 0;             // bytes per group/block scale (fp8 block: float32)
  bool has_zero_points = false;    // AWQ/GPTQ (and asymmetric compressed-tensors)
  bool has_g_idx = false;          // GPTQ act-order index (int32 per input channel)
  // One scale per output row where an fp8 method would otherwise keep one per
  // tensor (fbgemm_fp8, SGLang's online fp8).
  bool per_channel_scales = false;
  std::string format;  // e.g. "e4m3", "pack-quantized", "int-quantized"

  bool IsQuantized() const { return !method.empty(); }
};

struct ModelSpec {
  std::string id;            // catalog id ("Qwen/Qwen3-8B") or the path it came from
  std::string architecture;  // architectures[0], e.g. "Qwen3MoeForCausalLM"
  std::string model_type;    // e.g. "qwen3_moe"
  std::string torch_dtype;   // "bfloat16", "float16", "float32"
  int dtype_bytes = 2;       // bytes per unquantized parameter (from torch_dtype)

  int64_t vocab_size = 0;
  int hidden_size = 0;
  int num_layers = 0;  // num_hidden_layers
  int num_attention_heads = 0;
  int num_kv_heads = 0;       // num_key_value_heads (== heads for MHA)
  int head_dim = 0;           // per head, K side
  int v_head_dim = 0;         // per head, V side (== head_dim except MLA)
  int intermediate_size = 0;  // dense MLP
  bool tie_word_embeddings = false;
  bool attention_bias = false;          // q/k/v biases (Qwen2)
  bool qk_norm = false;                 // per-head q/k RMSNorm (Qwen3)
  int64_t max_position_embeddings = 0;  // the engines' default context length

  AttentionKind attention = AttentionKind::kGqa;
  // MLA geometry (AttentionKind::kMla).
  int q_lora_rank = 0, kv_lora_rank = 0, qk_nope_head_dim = 0, qk_rope_head_dim = 0;
  int index_head_dim = 0;  // DeepSeek-V3.2 sparse-attention indexer (0 when absent)

  // Mixture of experts (num_experts == 0 for dense models).
  int num_experts = 0;        // routed experts
  int experts_per_token = 0;  // top-k
  int moe_intermediate_size = 0;
  int num_shared_experts = 0;               // DeepSeek/Kimi shared experts
  int shared_expert_intermediate_size = 0;  // Qwen2-MoE style shared expert
  int first_k_dense_layers = 0;             // DeepSeek first_k_dense_replace
  int moe_layer_freq = 1;
  std::vector<bool> layer_is_moe;  // size num_layers when num_experts > 0
  // Layers that carry no MLP (Nemotron-H's mixer-only blocks, the Mamba2 half
  // of a Falcon-H1 layer); empty: every layer has one. Size num_layers otherwise.
  std::vector<bool> layer_has_mlp;
  int norms_without_mlp = 1;  // norms of such a layer (Falcon-H1's Mamba2 half: 0)

  // Per-layer attention kind; size num_layers. All kFull for plain models.
  std::vector<LayerKind> layer_kinds;
  // Per-layer attention / MLP shape where layers differ; empty (the usual case):
  // every layer has the model-level geometry. Size num_layers otherwise.
  // Read it through catalog/layer_geometry.h.
  std::vector<LayerGeometry> layer_geometry;
  int sliding_window = 0;

  int num_nextn_predict_layers = 0;  // MTP heads (DeepSeek-V3) shipped with the checkpoint

  Quantization quant;

  // Exact checkpoint size when read from model.safetensors.index.json
  // metadata.total_size or the safetensors headers; nullopt otherwise.
  std::optional<int64_t> checkpoint_bytes;

  // Vision tower, when the architecture is multimodal (engines shrink their
  // memory fraction for these).
  bool multimodal = false;
  int vision_layers = 0;
  int vision_hidden_size = 0;
  // Encoder parts the checkpoint holds that EstimateWeights does not count
  // ("vision tower", "audio and vision encoders, talker"); "" when all counted.
  std::string uncounted_weights;
  // Parameters of a vision tower and projector sized from vision_config
  // (catalog/vision_towers.h); 0 when none was (Gemma-3 and Llama-4 towers are
  // sized from the vision_* fields below).
  int64_t vision_params = 0;

  // ---- Added by the models work (beyond the original declaration). ----
  std::string family;                  // "llama", "qwen3_moe", "deepseek", "gpt_oss", "gemma3", ...
  int norms_per_layer = 2;             // RMSNorms per decoder layer (Gemma-2/3: 4)
  bool o_proj_bias = false;            // output-projection bias (gpt-oss)
  bool attention_sinks = false;        // per-head learned sinks (gpt-oss)
  bool attention_output_gate = false;  // q_proj also emits a gate (Qwen3-Next)
  bool router_bias = false;            // router has a bias (gpt-oss)
  bool routing_bias = false;           // e_score_correction_bias, float32 (DeepSeek-V3, GLM-4.5)
  bool expert_bias = false;            // expert projections carry biases (gpt-oss)
  bool shared_expert_gate = false;     // sigmoid gate on the shared expert (Qwen2-MoE, Qwen3-Next)
  int index_n_heads = 0;               // DeepSeek-V3.2 indexer heads
  // DeepSeek-V4 (family "deepseek_v4"): every layer attends over a sliding window of
  // sliding_window raw tokens plus, where compress_ratios[i] is r > 0, one compressed
  // KV row per r tokens (r == 4 layers also have an indexer). Empty for other models;
  // size num_layers otherwise (the config's trailing entry for the MTP layer dropped).
  std::vector<int> compress_ratios;
  int o_lora_rank = 0, o_groups = 0;  // grouped low-rank output projection
  int hc_mult = 0;                    // hyper-connection streams (hc_mult x hidden residual)
  int num_hash_layers = 0;            // first MoE layers routed by a token-id hash table
  std::string expert_dtype;           // "fp4" (MXFP4 experts) or "fp8"
  // Qwen3-Next gated delta-net (LayerKind::kLinear) geometry.
  int linear_num_key_heads = 0, linear_num_value_heads = 0;
  int linear_key_head_dim = 0, linear_value_head_dim = 0, linear_conv_kernel_dim = 0;
  // Mamba2 mixer geometry (StateKind::kMamba2), under the names of
  // transformers' Mamba2Config / NemotronHConfig (mamba_num_heads, ...).
  StateKind state_kind = StateKind::kGatedDeltaNet;
  int mamba_num_heads = 0, mamba_head_dim = 0, mamba_state_size = 0, mamba_n_groups = 0;
  int mamba_conv_kernel = 0;
  int mamba_intermediate_size = 0;  // expand x hidden (or num_heads x head_dim)
  bool mamba_conv_bias = true;      // conv1d bias
  bool mamba_proj_bias = false;     // in_proj / out_proj biases
  bool mamba_gated_norm = true;     // Mamba2's gated RMSNorm (Falcon-H1 mamba_rms_norm)
  int mamba_dt_rank = 0;            // Mamba-1 x_proj / dt_proj rank
  bool mamba_inner_norms = false;   // Mamba-1 dt / B / C RMSNorms (Jamba)
  // The SSM state dtype the config names (Nemotron-H mamba_ssm_cache_dtype,
  // Qwen3.5 mamba_ssm_dtype); "" when it names none.
  std::string config_ssm_dtype;
  // Vision tower: "siglip" (Gemma-3) or "llama4".
  std::string vision_kind;
  int vision_intermediate_size = 0, vision_image_size = 0, vision_patch_size = 0;
  int vision_num_channels = 3;
  int vision_output_dim = 0, vision_projector_input_dim = 0, vision_projector_output_dim = 0;
  // Layer shapes beyond Llama's (architectures.h MlpKind, NormKind).
  bool gated_mlp = true;              // gate + up + down; false: up + down (GPT-2, GPT-NeoX)
  bool mlp_bias = false;              // MLP projections carry biases
  bool norm_bias = false;             // LayerNorm: every norm has a bias as well as a weight
  bool lm_head_bias = false;          // Phi-2, GPT-J
  int64_t learned_position_rows = 0;  // GPT-2's absolute position table (0: RoPE / ALiBi)
  bool embedding_norm = false;        // Bloom's word_embeddings_layernorm
  int attention_chunk_size = 0;       // Llama-4 chunked local attention (LayerKind::kChunked)
  // Speculative drafts: "eagle" (EAGLE-1/2, fc over 2 x hidden), "eagle3"
  // (fc over 3 target layers, attention over 2 x hidden) or "mtp" (a target's
  // own NextN layers, see MtpDraftSpec); "" for target models.
  std::string draft_kind;
  int64_t draft_vocab_size = 0;  // EAGLE-3 reduced draft vocabulary (lm_head rows)
  int target_hidden_size = 0;    // EAGLE-3 fc input is 3 x this
  // ---- Gemma-3n / Gemma-4 (catalog/gemma_config.cc; weights: catalog/gemma_weights.h). ----
  // Per-layer input embeddings: a per_layer_vocab_size x (layers x per_layer_input_size)
  // table, a projection from the hidden state, and a gate and projection in each layer;
  // 0 when the model has none.
  int per_layer_input_size = 0;
  int64_t per_layer_vocab_size = 0;
  int altup_num_inputs = 0;    // Gemma-3n AltUp streams (0: none)
  int laurel_rank = 0;         // Gemma-3n LAuReL low-rank residual (0: none)
  bool expert_scales = false;  // Gemma-4 MoE: a per_expert_scale vector beside the router

  // ---- Zamba2 (catalog/zamba2_config.cc): shared transformer blocks. ----
  // num_mem_blocks shared attention + MLP blocks, each stored once and applied by every
  // num_mem_blocks-th hybrid layer (kvplan's attention layers; 0 for other models); each
  // application adds a hidden x hidden linear and rank-adapter_rank adapters (on the MLP's
  // gate/up, and on q, k, v with shared_attention_adapter).
  int shared_blocks = 0;
  int adapter_rank = 0;
  bool shared_attention_adapter = false;

  // Elements of the rotary cos/sin tables built at load (catalog/rope_cache.h); the
  // engine decides their dtype.
  int64_t rope_cache_elements = 0;

  int NumLayersOfKind(LayerKind k) const;
  bool IsMoe() const { return num_experts > 0; }
  bool IsDraft() const { return !draft_kind.empty(); }
  int NumMoeLayers() const;
};

// Loads a model from `spec`, which is one of:
//   - a bundled catalog id ("Qwen/Qwen3-8B", case-insensitive; also "Qwen--Qwen3-8B"),
//   - a path to a config.json,
//   - a model directory holding config.json (and optionally
//     model.safetensors.index.json / *.safetensors for exact weight bytes),
//   - a Hugging Face cache directory ($HF_HOME/hub/models--ORG--NAME), or a hub
//     id present in the local HF cache ($HF_HOME or ~/.cache/huggingface).
// Throws InputError naming what was wrong and what was expected.
ModelSpec LoadModel(const std::string& spec);

// Parses config.json text. `origin` names the source in error messages.
ModelSpec ParseModelConfig(std::string_view json_text, const std::string& origin);

// The bundled catalog ids, sorted.
std::vector<std::string> CatalogModelIds();

// Every bundled entry kvplan can read, as LoadModel gives it, in id order. Parsed once per
// process: a look-up by class over the whole catalog (explain's model from a log that names
// only the class) must not re-parse 100+ configs for every run it explains.
const std::vector<ModelSpec>& CatalogModels();

// The multi-token-prediction head a checkpoint ships (DeepSeek-V3
// num_nextn_predict_layers), as SGLang loads it for --speculative-algorithm
// EAGLE without a draft path: num_nextn_predict_layers MoE decoder layers plus
// eh_proj and two norms, sharing the target's embedding and lm_head
// (python/sglang/srt/models/deepseek_nextn.py @v0.5.3). draft_kind "mtp".
// Throws InputError when the model has no MTP layers.
ModelSpec MtpDraftSpec(const ModelSpec& target);

// The architectures ParseModelConfig understands (architectures[0] values).
const std::vector<std::string>& SupportedArchitectures();

}  // namespace kvplan
