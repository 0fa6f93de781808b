// Vision towers, counted parameter by parameter from the model files that
// build them (each function cites its file); checked against the published
// safetensors totals in vision_towers_test.cc.
#include "catalog/vision_towers.h"

#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "catalog/json_fields.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

using config_json::Json;

// Sums of products of config figures, each checked: a tower inside the
// parser's per-key bounds still multiplies past int64 in a hostile file.
class TowerCount {
 public:
  int64_t Mul(int64_t a, int64_t b) const { return CheckedMul(a, b, kWhat); }
  // An [out x in] linear layer, with or without a bias.
  void Linear(int64_t out, int64_t in, bool bias) {
    Add(Mul(out, in));
    if (bias) Add(out);
  }
  void LayerNorm(int64_t n) { Add(2 * n); }  // weight + bias
  void RmsNorm(int64_t n) { Add(n); }
  void Add(int64_t n) { total_ = CheckedAdd(total_, n, kWhat); }
  void Repeat(int64_t times) { total_ = Mul(total_, times); }
  TowerCount& operator+=(const TowerCount& o) {
    Add(o.total_);
    return *this;
  }
  int64_t total() const { return total_; }

 private:
  static constexpr std::string_view kWhat = "the vision tower's parameters (from config.json)";
  int64_t total_ = 0;
};

// A vision_config dimension: at least 1 and within the bounded reader's range for
// "vision_config.<key>" (json_fields.cc; the largest real tower is 1e4 wide), or the
// Transformers config class's default.
int64_t VisionDim(const Json& v, const char* key, const std::string& origin, int64_t fallback) {
  std::optional<int64_t> x = config_json::OptInt(v, key, origin);
  if (!x) {
    if (fallback > 0) return fallback;
    throw InputError(origin + ": vision_config." + key + " is missing");
  }
  return config_json::BoundedInt(*x, std::string("vision_config.") + key, origin, 1);
}

// The first key present (configs of one family name a field differently).
int64_t VisionDimOf(const Json& v, std::initializer_list<const char*> keys,
                    const std::string& origin, int64_t fallback) {
  for (const char* k : keys) {
    if (v.contains(k)) return VisionDim(v, k, origin, fallback);
  }
  return VisionDim(v, *keys.begin(), origin, fallback);
}

// The patch merger of the Qwen VL towers: a norm over the ViT width, then
// [w*m^2 -> w*m^2] and [w*m^2 -> out], both biased.
TowerCount QwenMerger(int64_t width, int64_t merge, int64_t out, bool layer_norm,
                      bool norm_after_shuffle) {
  TowerCount c;
  const int64_t merged = c.Mul(width, c.Mul(merge, merge));
  const int64_t norm_width = norm_after_shuffle ? merged : width;
  if (layer_norm) {
    c.LayerNorm(norm_width);
  } else {
    c.RmsNorm(norm_width);
  }
  c.Linear(merged, merged, true);
  c.Linear(out, merged, true);
  return c;
}

// The Qwen VL towers' Conv3d patch embed weight: channels x temporal patch x
// patch^2 inputs for each of the `width` outputs (its bias, where it has one,
// is the caller's).
void AddQwenPatchEmbed(TowerCount& c, const Json& v, const std::string& o, int64_t chans,
                       int64_t patch, int64_t width) {
  c.Add(c.Mul(c.Mul(chans, VisionDim(v, "temporal_patch_size", o, 2)),
              c.Mul(c.Mul(patch, patch), width)));
}

// `layers` pre-norm ViT blocks of width `e`: two LayerNorms, a biased fused qkv and
// output projection, a biased 2-matrix MLP of `inter` (transformers qwen2_vl
// Qwen2VLVisionBlock, qwen3_vl Qwen3VLVisionBlock; vLLM moonvit.py MoonVitEncoderLayer,
// kimi_k25_vit.py MoonViTEncoderLayer).
TowerCount LayerNormVitBlocks(int64_t e, int64_t inter, int64_t layers) {
  TowerCount block;
  block.LayerNorm(e);
  block.LayerNorm(e);
  block.Linear(3 * e, e, true);
  block.Linear(e, e, true);
  block.Linear(inter, e, true);
  block.Linear(e, inter, true);
  block.Repeat(layers);
  return block;
}

// transformers qwen2_vl/modeling_qwen2_vl.py Qwen2VisionTransformerPretrainedModel:
// Conv3d patch embed (no bias), blocks of LayerNorm + biased qkv/proj + biased
// fc1/fc2 (mlp_ratio x embed_dim), a LayerNorm merger to hidden_size (the text width).
int64_t Qwen2VlTower(const Json& v, const std::string& o) {
  const int64_t e = VisionDim(v, "embed_dim", o, 1280);
  const int64_t depth = VisionDim(v, "depth", o, 32);
  const int64_t inter = e * VisionDim(v, "mlp_ratio", o, 4);
  const int64_t patch = VisionDim(v, "patch_size", o, 14);
  TowerCount c;
  c += LayerNormVitBlocks(e, inter, depth);
  AddQwenPatchEmbed(c, v, o, VisionDim(v, "in_chans", o, 3), patch, e);
  c += QwenMerger(e, VisionDim(v, "spatial_merge_size", o, 2), VisionDim(v, "hidden_size", o, 3584),
                  true, false);
  return c.total();
}

// transformers qwen2_5_vl/modeling_qwen2_5_vl.py Qwen2_5_VisionTransformerPretrainedModel:
// RMSNorm blocks with a gated (gate/up/down, biased) MLP, RMSNorm merger to out_hidden_size.
int64_t Qwen25VlTower(const Json& v, const std::string& o) {
  const int64_t e = VisionDim(v, "hidden_size", o, 1280);
  const int64_t inter = VisionDim(v, "intermediate_size", o, 3420);
  const int64_t patch = VisionDim(v, "patch_size", o, 14);
  TowerCount c;
  TowerCount block;
  block.RmsNorm(e);
  block.RmsNorm(e);
  block.Linear(3 * e, e, true);
  block.Linear(e, e, true);
  block.Linear(inter, e, true);
  block.Linear(inter, e, true);
  block.Linear(e, inter, true);
  block.Repeat(VisionDim(v, "depth", o, 32));
  c += block;
  const int64_t chans = VisionDimOf(v, {"in_chans", "in_channels"}, o, 3);
  AddQwenPatchEmbed(c, v, o, chans, patch, e);
  c += QwenMerger(e, VisionDim(v, "spatial_merge_size", o, 2),
                  VisionDim(v, "out_hidden_size", o, 3584), false, false);
  return c.total();
}

// transformers qwen3_vl/modeling_qwen3_vl.py Qwen3VLVisionModel: biased Conv3d
// patch embed, a learned position table, LayerNorm blocks with a plain biased
// fc1/fc2 MLP, the merger, and one post-shuffle-norm merger per deepstack layer.
int64_t Qwen3VlTower(const Json& v, const std::string& o) {
  const int64_t e = VisionDim(v, "hidden_size", o, 1152);
  const int64_t inter = VisionDim(v, "intermediate_size", o, 4304);
  const int64_t patch = VisionDim(v, "patch_size", o, 16);
  const int64_t merge = VisionDim(v, "spatial_merge_size", o, 2);
  const int64_t out = VisionDim(v, "out_hidden_size", o, 3584);
  TowerCount c;
  c += LayerNormVitBlocks(e, inter, VisionDim(v, "depth", o, 27));
  AddQwenPatchEmbed(c, v, o, VisionDim(v, "in_channels", o, 3), patch, e);
  c.Add(e);  // the patch embed's bias
  c.Add(c.Mul(VisionDim(v, "num_position_embeddings", o, 2304), e));
  c += QwenMerger(e, merge, out, true, false);
  const int64_t deepstack =
      static_cast<int64_t>(config_json::IntList(v, "deepstack_visual_indexes", o).size());
  for (int64_t i = 0; i < deepstack; ++i) c += QwenMerger(e, merge, out, true, true);
  return c.total();
}

// transformers pixtral/modeling_pixtral.py PixtralVisionModel (bias-free Conv2d,
// ln_pre, RMSNorm layers with bias-free q/k/v/o and a gated MLP) and
// mistral3/modeling_mistral3.py Mistral3MultiModalProjector (RMSNorm, the
// patch merger [w*m^2 -> w], linear_1 [w -> text], linear_2 [text -> text],
// biased when multimodal_projector_bias).
int64_t PixtralTower(const Json& root, const Json& v, int64_t text, const std::string& o) {
  const int64_t e = VisionDim(v, "hidden_size", o, 1024);
  const int64_t inter = VisionDim(v, "intermediate_size", o, 4096);
  const int64_t patch = VisionDim(v, "patch_size", o, 16);
  TowerCount c;
  TowerCount layer;
  layer.RmsNorm(e);
  layer.RmsNorm(e);
  for (int i = 0; i < 4; ++i) layer.Linear(e, e, false);
  layer.Linear(inter, e, false);
  layer.Linear(inter, e, false);
  layer.Linear(e, inter, false);
  layer.Repeat(VisionDim(v, "num_hidden_layers", o, 24));
  c += layer;
  c.Add(c.Mul(VisionDim(v, "num_channels", o, 3), c.Mul(c.Mul(patch, patch), e)));
  c.RmsNorm(e);  // ln_pre
  const int64_t merge = VisionDim(root, "spatial_merge_size", o, 2);
  const bool bias = config_json::OptBool(root, "multimodal_projector_bias", o).value_or(false);
  c.RmsNorm(e);
  c.Linear(e, c.Mul(e, c.Mul(merge, merge)), false);
  c.Linear(text, e, bias);
  c.Linear(text, text, bias);
  return c.total();
}

// The CLIP / SigLIP encoder layer: LayerNorms, biased q/k/v/out and fc1/fc2
// (transformers clip/modeling_clip.py CLIPEncoderLayer, siglip/modeling_siglip.py).
TowerCount ClipLayers(int64_t e, int64_t inter, int64_t layers) {
  TowerCount layer;
  layer.LayerNorm(e);
  layer.LayerNorm(e);
  for (int i = 0; i < 4; ++i) layer.Linear(e, e, true);
  layer.Linear(inter, e, true);
  layer.Linear(e, inter, true);
  layer.Repeat(layers);
  return layer;
}

// transformers clip/modeling_clip.py CLIPVisionTransformer (class embedding,
// bias-free patch conv, positions for every patch plus the class token, pre and
// post LayerNorm) and llava/modeling_llava.py LlavaMultiModalProjector
// (linear_1 [w -> text], linear_2 [text -> text], biased by default);
// LLaVA-NeXT adds image_newline (one text-width vector). The checkpoint holds
// every layer; vLLM and SGLang skip those after vision_feature_layer (-2: the
// last one, 1/24 of the tower), which this count keeps.
int64_t ClipTower(const Json& root, const Json& v, int64_t text, const std::string& o) {
  const int64_t e = VisionDim(v, "hidden_size", o, 768);
  const int64_t patch = VisionDim(v, "patch_size", o, 32);
  const int64_t side = VisionDim(v, "image_size", o, 224) / patch;
  TowerCount c = ClipLayers(e, VisionDim(v, "intermediate_size", o, 3072),
                            VisionDim(v, "num_hidden_layers", o, 12));
  c.Add(e);  // class embedding
  c.Add(c.Mul(VisionDim(v, "num_channels", o, 3), c.Mul(c.Mul(patch, patch), e)));
  c.Add(c.Mul(c.Mul(side, side) + 1, e));
  c.LayerNorm(e);
  c.LayerNorm(e);
  const bool bias = config_json::OptBool(root, "multimodal_projector_bias", o).value_or(true);
  c.Linear(text, e, bias);
  c.Linear(text, text, bias);
  if (config_json::OptString(root, "model_type", o).value_or("") == "llava_next") c.Add(text);
  return c.total();
}

// A dimension given as a list item (MoonViT's merge_kernel_size), in VisionDim's range.
int64_t VisionDimOfValue(int64_t x, const std::string& origin) {
  return config_json::BoundedInt(x, "vision_config.merge_kernel_size", origin, 1);
}

// InternVL's pixel shuffle: each side shrinks by 1 / downsample_ratio
// (InternVLChatConfig's default 0.5, a factor of 2).
int64_t PixelShuffleFactor(const Json& root, const std::string& origin) {
  auto it = root.find("downsample_ratio");
  if (it == root.end() || it->is_null()) return 2;
  const double r = it->is_number() ? it->get<double>() : 0.0;
  if (!(r > 0.0 && r <= 1.0)) {
    throw InputError(origin + ": downsample_ratio must be a number in (0, 1]");
  }
  const double f = 1.0 / r;
  const int64_t n = static_cast<int64_t>(f + 0.5);
  if (n < 1 || n > 64 || f - static_cast<double>(n) > 1e-6 || static_cast<double>(n) - f > 1e-6) {
    throw InputError(origin + ": downsample_ratio must be 1 / a whole number up to 64");
  }
  return n;
}

// MoonViT (Kimi-VL: vLLM moonvit.py MoonVitPretrainedModel; Kimi-K2.5: vLLM
// kimi_k25_vit.py MoonViT3dPretrainedModel, the same weights plus a fixed,
// non-persistent temporal table): biased Conv2d patch embed, a learned
// height x width position table, the blocks, a final LayerNorm; then the
// projector of the 2x2-merged patches (KimiVLMultiModalProjector and Kimi-K2.5's
// "patchmerger": LayerNorm over the ViT width, biased [4w -> 4w], [4w -> out];
// "patchmergerv2": bias-free linears and an RMSNorm over out). Kimi-K2.5's
// remote-code config names the ViT fields vt_*.
int64_t MoonVitTower(const Json& v, int64_t text, const std::string& o) {
  const int64_t e = VisionDimOf(v, {"vt_hidden_size", "hidden_size"}, o, 1152);
  const int64_t inter = VisionDimOf(v, {"vt_intermediate_size", "intermediate_size"}, o, 4304);
  const int64_t layers = VisionDimOf(v, {"vt_num_hidden_layers", "num_hidden_layers"}, o, 27);
  const int64_t patch = VisionDim(v, "patch_size", o, 14);
  TowerCount c = LayerNormVitBlocks(e, inter, layers);
  c.Linear(e, c.Mul(3, c.Mul(patch, patch)), true);
  c.Add(c.Mul(
      c.Mul(VisionDim(v, "init_pos_emb_height", o, 64), VisionDim(v, "init_pos_emb_width", o, 64)),
      e));
  c.LayerNorm(e);  // final_layernorm
  const std::vector<int64_t> kernel = config_json::IntList(v, "merge_kernel_size", o);
  int64_t merged = c.Mul(e, 4);
  if (kernel.size() == 2) {
    merged = c.Mul(e, c.Mul(VisionDimOfValue(kernel[0], o), VisionDimOfValue(kernel[1], o)));
  }
  // Kimi-K2.5's text_hidden_size (vLLM kimi_k25.py: mm_hidden_size becomes the text width).
  const int64_t out = VisionDim(v, "text_hidden_size", o, text);
  if (config_json::OptString(v, "mm_projector_type", o).value_or("") == "patchmergerv2") {
    c.Linear(merged, merged, false);
    c.Linear(out, merged, false);
    c.RmsNorm(out);
    return c.total();
  }
  c.LayerNorm(e);
  c.Linear(merged, merged, true);
  c.Linear(out, merged, true);
  return c.total();
}

// InternViT (remote code modeling_intern_vit.py InternVisionModel; vLLM
// intern_vit.py): class token, biased Conv2d patch embed, positions for every
// patch plus the class token; layers of qkv (biased when qkv_bias), optional
// q/k RMSNorms over the width, biased proj and fc1/fc2, two norms (LayerNorm or
// RMSNorm by norm_type) and two layer-scale vectors; no final norm. Then
// InternVLChatModel's mlp1 (modeling_internvl_chat.py): a LayerNorm over the
// pixel-shuffled width (w / downsample_ratio^2), [.. -> text] and [text -> text].
int64_t InternVitTower(const Json& root, const Json& v, int64_t text, const std::string& o) {
  const int64_t e = VisionDim(v, "hidden_size", o, 3200);
  const int64_t inter = VisionDim(v, "intermediate_size", o, 12800);
  const int64_t patch = VisionDim(v, "patch_size", o, 14);
  const int64_t side = VisionDim(v, "image_size", o, 224) / patch;
  const bool rms = config_json::OptString(v, "norm_type", o).value_or("rms_norm") == "rms_norm";
  TowerCount layer;
  layer.Linear(3 * e, e, config_json::OptBool(v, "qkv_bias", o).value_or(false));
  if (config_json::OptBool(v, "qk_normalization", o).value_or(true)) {
    layer.RmsNorm(e);
    layer.RmsNorm(e);
  }
  layer.Linear(e, e, true);
  layer.Linear(inter, e, true);
  layer.Linear(e, inter, true);
  for (int i = 0; i < 2; ++i) rms ? layer.RmsNorm(e) : layer.LayerNorm(e);
  layer.Add(2 * e);  // ls1, ls2
  layer.Repeat(VisionDim(v, "num_hidden_layers", o, 48));
  TowerCount c;
  c += layer;
  c.Add(e);  // class embedding
  c.Linear(e, c.Mul(VisionDim(v, "num_channels", o, 3), c.Mul(patch, patch)), true);
  c.Add(c.Mul(c.Mul(side, side) + 1, e));
  const int64_t merged = c.Mul(e, c.Mul(PixelShuffleFactor(root, o), PixelShuffleFactor(root, o)));
  c.LayerNorm(merged);
  c.Linear(text, merged, true);
  c.Linear(text, text, true);
  return c.total();
}

// openai/clip-vit-large-patch14-336's CLIPVisionConfig, the one image encoder
// Phi-3-vision and Phi-3.5-vision name (img_processor.model_name): 24 layers of
// 1024, MLP 4096, 14 px patches at 336 px.
constexpr const char* kClipLarge336 = "openai/clip-vit-large-patch14-336";

// Phi-3-vision (remote code modeling_phi3_v.py Phi3ImageEmbedding; vLLM phi3v.py
// Phi3HDImageEmbedding): the CLIP vision model img_processor names, the HD
// transform's separators glb_GN and sub_GN (4 x the CLIP width each) and the
// "mlp" projection [4w -> text], [text -> text], biased. 0 for another encoder.
int64_t Phi3VisionTower(const Json& img, int64_t text, const std::string& o) {
  if (config_json::OptString(img, "model_name", o).value_or("") != kClipLarge336) return 0;
  const int64_t e = 1024, patch = 14, side = 336 / 14;
  TowerCount c = ClipLayers(e, 4096, 24);
  c.Add(e);  // class embedding
  c.Add(c.Mul(3, c.Mul(c.Mul(patch, patch), e)));
  c.Add(c.Mul(c.Mul(side, side) + 1, e));
  c.LayerNorm(e);
  c.LayerNorm(e);
  const int64_t dim = VisionDim(img, "image_dim_out", o, e);
  c.Add(c.Mul(2, c.Mul(4, dim)));  // glb_GN, sub_GN
  c.Linear(text, c.Mul(4, dim), true);
  c.Linear(text, text, true);
  return c.total();
}

// Qwen3-Omni's audio encoder (transformers qwen3_omni_moe/modeling_qwen3_omni_moe.py
// Qwen3OmniMoeAudioEncoder; vLLM qwen3_omni_moe_thinker.py): three biased 3x3
// Conv2d of downsample_hidden_size channels (stride 2 each), conv_out [c x
// mel/8 -> d] without bias, Whisper-style layers (LayerNorms, biased q/k/v/out
// and fc1/fc2), ln_post, proj1 [d -> d] and proj2 [d -> output_dim], biased.
// The sinusoidal positions are a non-persistent buffer, not weights.
int64_t Qwen3OmniAudioTower(const Json& a, int64_t text, const std::string& o) {
  const int64_t d = VisionDim(a, "d_model", o, 1280);
  const int64_t ffn = VisionDim(a, "encoder_ffn_dim", o, 5120);
  const int64_t chans = VisionDim(a, "downsample_hidden_size", o, 480);
  const int64_t mel = VisionDim(a, "num_mel_bins", o, 128);
  TowerCount c = ClipLayers(d, ffn, VisionDim(a, "encoder_layers", o, 32));
  c.Linear(chans, 9, true);
  c.Linear(chans, c.Mul(9, chans), true);
  c.Linear(chans, c.Mul(9, chans), true);
  c.Linear(d, c.Mul(chans, (((mel + 1) / 2 + 1) / 2 + 1) / 2), false);
  c.LayerNorm(d);
  c.Linear(d, d, true);
  c.Linear(VisionDim(a, "output_dim", o, text), d, true);
  return c.total();
}

// Qwen3-Omni's thinker: the Qwen3-VL vision encoder (its deepstack mergers
// included) and, beside it in thinker_config, the audio encoder. The talker
// and code2wav are in the checkpoint, but vLLM and SGLang load only the
// thinker (vLLM registry.py maps the architecture to the thinker's class).
int64_t Qwen3OmniTowers(const Json& root, const Json& v, int64_t text, const std::string& o) {
  TowerCount c;
  c.Add(Qwen3VlTower(v, o));
  const Json* thinker = config_json::OptObject(root, "thinker_config", o);
  const Json* audio = thinker ? config_json::OptObject(*thinker, "audio_config", o) : nullptr;
  if (audio != nullptr) c.Add(Qwen3OmniAudioTower(*audio, text, o));
  return c.total();
}

// One entry per tower kind: vision_config.model_type (or the wrapper's
// model_type where vision_config names none), how its parameters are counted,
// and what Transformers' config class for it holds, as getattr on the loaded
// config sees it (TowerConfigAsLoaded).
struct TowerInput {
  const Json& root;
  const Json& v;
  int64_t text;
  const std::string& o;
};
struct TowerKind {
  const char* kind;
  int64_t (*count)(const TowerInput&);
  bool top_level;     // hf_config.vision_config exists (not in thinker_config, not img_processor)
  bool names_layers;  // the class has num_hidden_layers (the Qwen VL classes say depth)
  int64_t class_layers, class_hidden;  // the class's defaults for them
};

// kvplan: data table
constexpr TowerKind kTowerKinds[] = {
    // transformers qwen2_vl/configuration_qwen2_vl.py Qwen2VLVisionConfig: depth,
    // embed_dim, hidden_size (the merger's output, default 3584)
    {"qwen2_vl", [](const TowerInput& t) { return Qwen2VlTower(t.v, t.o); }, true, false, 0, 3584},
    // qwen2_5_vl/configuration_qwen2_5_vl.py Qwen2_5_VLVisionConfig: depth, hidden_size 3584
    {"qwen2_5_vl", [](const TowerInput& t) { return Qwen25VlTower(t.v, t.o); }, true, false, 0,
     3584},
    // qwen3_vl/configuration_qwen3_vl.py Qwen3VLVisionConfig (depth, hidden_size
    // 1152); qwen3_vl_moe reuses it; qwen3_5/modular_qwen3_5.py Qwen3_5VisionModel
    // is Qwen3VLVisionModel without the deepstack mergers (its configs list none)
    {"qwen3_vl", [](const TowerInput& t) { return Qwen3VlTower(t.v, t.o); }, true, false, 0, 1152},
    {"qwen3_vl_moe", [](const TowerInput& t) { return Qwen3VlTower(t.v, t.o); }, true, false, 0,
     1152},
    {"qwen3_5", [](const TowerInput& t) { return Qwen3VlTower(t.v, t.o); }, true, false, 0, 1152},
    {"qwen3_5_moe", [](const TowerInput& t) { return Qwen3VlTower(t.v, t.o); }, true, false, 0,
     1152},
    // qwen3_omni_moe/configuration_qwen3_omni_moe.py: vision_config and
    // audio_config sit in thinker_config, not at the root
    {"qwen3_omni_moe_vision_encoder",
     [](const TowerInput& t) { return Qwen3OmniTowers(t.root, t.v, t.text, t.o); }, false, false, 0,
     1152},
    // pixtral/configuration_pixtral.py PixtralVisionConfig: 24 x 1024
    {"pixtral", [](const TowerInput& t) { return PixtralTower(t.root, t.v, t.text, t.o); }, true,
     true, 24, 1024},
    // clip/configuration_clip.py CLIPVisionConfig: 12 x 768
    {"clip_vision_model", [](const TowerInput& t) { return ClipTower(t.root, t.v, t.text, t.o); },
     true, true, 12, 768},
    // remote code configuration_intern_vit.py InternVisionConfig: 48 x 3200
    {"intern_vit_6b", [](const TowerInput& t) { return InternVitTower(t.root, t.v, t.text, t.o); },
     true, true, 48, 3200},
    // Kimi-VL remote code configuration_kimi_vl.py MoonViTConfig: 27 x 1152
    {"moonvit", [](const TowerInput& t) { return MoonVitTower(t.v, t.text, t.o); }, true, true, 27,
     1152},
    // Kimi-K2.5: vision_config names no model_type; SGLang configs/kimi_k25.py
    // KimiK25VisionConfig has num_hidden_layers 27, hidden_size 1152 by default;
    // the config.json names them vt_* (VisionTowerGeometry reads those, the
    // same 27 x 1152 in the published config)
    {"kimi_k25", [](const TowerInput& t) { return MoonVitTower(t.v, t.text, t.o); }, true, true, 27,
     1152},
    // Phi-3-vision: no vision_config; img_processor names the CLIP encoder
    {"phi3_v", [](const TowerInput& t) { return Phi3VisionTower(t.v, t.text, t.o); }, false, true,
     24, 1024},
    // Gemma-3 (siglip/configuration_siglip.py SiglipVisionConfig) and Llama-4
    // (llama4/configuration_llama4.py Llama4VisionConfig) are read by ReadVision
    // and counted by SiglipOrLlama4TowerParams; both classes name num_hidden_layers
    {"siglip", nullptr, true, true, 12, 768},
    {"llama4", nullptr, true, true, 34, 1408},
};

const TowerKind* FindTowerKind(std::string_view kind) {
  for (const TowerKind& k : kTowerKinds) {
    if (kind == k.kind) return &k;
  }
  return nullptr;
}

}  // namespace

int64_t VisionTowerParams(const Json& root, const Json& vision, const std::string& kind,
                          int64_t text_hidden, const std::string& origin) {
  const TowerKind* k = FindTowerKind(kind);
  if (k == nullptr || k->count == nullptr) return 0;
  return k->count(TowerInput{root, vision, text_hidden, origin});
}

TowerGeometry VisionTowerGeometry(const Json& vision, const std::string& origin) {
  // The first of `keys` the config holds.
  auto first = [&](std::initializer_list<const char*> keys) -> std::optional<int64_t> {
    for (const char* k : keys) {
      if (std::optional<int64_t> x = config_json::OptInt(vision, k, origin)) return x;
    }
    return std::nullopt;
  };
  return TowerGeometry{first({"num_hidden_layers", "depth", "vt_num_hidden_layers"}),
                       first({"hidden_size", "embed_dim", "vt_hidden_size"}),
                       first({"intermediate_size", "vt_intermediate_size"})};
}

std::optional<TowerConfigAttributes> TowerConfigAsLoaded(const ModelSpec& m) {
  if (!m.multimodal) return std::nullopt;
  const TowerKind* k = FindTowerKind(m.vision_kind);
  TowerConfigAttributes a;
  if (k == nullptr) {
    // A tower kvplan has no entry for: its config's own fields, when it has them.
    if (m.vision_layers > 0) a.num_hidden_layers = m.vision_layers;
    if (m.vision_hidden_size > 0) a.hidden_size = m.vision_hidden_size;
    return a;
  }
  if (!k->top_level) return std::nullopt;
  if (k->names_layers)
    a.num_hidden_layers = m.vision_layers > 0 ? m.vision_layers : k->class_layers;
  a.hidden_size = m.vision_hidden_size > 0 ? m.vision_hidden_size : k->class_hidden;
  return a;
}

// SigLIP (Gemma-3): patch conv + position table + N encoder layers + post
// norm, then the multimodal projector (mm_input_projection, mm_soft_emb_norm).
// Llama-4: unfold patch linear (no bias), class embedding, positions (+1 for
// the class token), pre/post LayerNorms, the same encoder layers, the
// pixel-shuffle MLP (fc1 intermediate -> projector_input, fc2
// projector_output^2) and the projector to the text hidden size.
int64_t SiglipOrLlama4TowerParams(const ModelSpec& m) {
  if (m.vision_patch_size <= 0) return 0;
  const int64_t vh = m.vision_hidden_size, vi = m.vision_intermediate_size;
  const int64_t side = m.vision_image_size / m.vision_patch_size;
  TowerCount c = ClipLayers(vh, vi, m.vision_layers);
  const int64_t patches = c.Mul(side, side);
  const int64_t patch_in =
      c.Mul(int64_t{m.vision_num_channels} * m.vision_patch_size, m.vision_patch_size);
  if (m.vision_kind == "llama4") {
    c.Add(c.Mul(patch_in, vh));
    c.Add(c.Mul(patches + 5, vh) + vh);
    c.Add(c.Mul(vi, m.vision_projector_input_dim));
    c.Add(c.Mul(m.vision_projector_output_dim, m.vision_projector_output_dim));
    c.Add(c.Mul(m.vision_output_dim, m.hidden_size));
    return c.total();
  }
  c.Linear(vh, patch_in, true);
  c.Add(c.Mul(patches, vh));
  c.LayerNorm(vh);
  c.Add(c.Mul(vh, m.hidden_size) + vh);
  return c.total();
}

}  // namespace kvplan
