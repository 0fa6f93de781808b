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

// A vision_config dimension: positive and at most 2^20 (the largest real
// tower is 1e4 wide), or the Transformers config class's default.
int64_t VisionDim(const Json& v, const char* key, const std::string& origin, int64_t fallback) {
  std::optional<int64_t> x = config_json::OptInt(v, key, origin);
  if (!x) {
    if (fallback > 0) return fallback;
    throw InputError(origin + ": vision_config." + key + " is missing");
  }
  if (*x <= 0 || *x > (int64_t{1} << 20)) {
    throw InputError(origin + ": vision_config." + key + " is " + std::to_string(*x) +
                     "; expected 1 to 1048576");
  }
  return *x;
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

// transformers qwen2_vl/modeling_qwen2_vl.py Qwen2VisionTransformerPretrainedModel:
// Conv3d patch embed (no bias), blocks of LayerNorm + biased qkv/proj + biased
// fc1/fc2 (mlp_ratio x embed_dim), a LayerNorm merger to hidden_size (the text width).
int64_t Qwen2VlTower(const Json& v, const std::string& o) {
  const int64_t e = VisionDim(v, "embed_dim", o, 1280);
  const int64_t depth = VisionDim(v, "depth", o, 32);
  const int64_t inter = e * VisionDim(v, "mlp_ratio", o, 4);
  const int64_t patch = VisionDim(v, "patch_size", o, 14);
  TowerCount c;
  TowerCount block;
  block.LayerNorm(e);
  block.LayerNorm(e);
  block.Linear(3 * e, e, true);
  block.Linear(e, e, true);
  block.Linear(inter, e, true);
  block.Linear(e, inter, true);
  block.Repeat(depth);
  c += block;
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
  TowerCount block;
  block.LayerNorm(e);
  block.LayerNorm(e);
  block.Linear(3 * e, e, true);
  block.Linear(e, e, true);
  block.Linear(inter, e, true);
  block.Linear(e, inter, true);
  block.Repeat(VisionDim(v, "depth", o, 27));
  c += block;
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

}  // namespace

int64_t VisionTowerParams(const Json& root, const Json& vision, const std::string& kind,
                          int64_t text_hidden, const std::string& origin) {
  if (kind == "qwen2_vl") return Qwen2VlTower(vision, origin);
  if (kind == "qwen2_5_vl") return Qwen25VlTower(vision, origin);
  if (kind == "qwen3_vl" || kind == "qwen3_vl_moe") return Qwen3VlTower(vision, origin);
  if (kind == "pixtral") return PixtralTower(root, vision, text_hidden, origin);
  if (kind == "clip_vision_model") return ClipTower(root, vision, text_hidden, origin);
  return 0;
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
