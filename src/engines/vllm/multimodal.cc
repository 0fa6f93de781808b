// vLLM's encoder memory at start-up: the encoder budget, profile_run's dummy
// image batch and the vision tower's sharding (multimodal.h).
#include "engines/vllm/multimodal.h"

#include <algorithm>
#include <cctype>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include "base/checked_math.h"
#include "base/untrusted_text.h"
#include "kvplan/error.h"

namespace kvplan {
namespace {

// Text tokens of the largest image each model's processor makes at its
// default settings, as vLLM's processing info reports them for the dummy
// batch (get_mm_max_tokens_per_item); 0 for a tower kvplan does not size.
int64_t MaxImageTokens(const ModelSpec& m) {
  const std::string& k = m.vision_kind;
  // vllm/model_executor/models/qwen2_vl.py @v0.10.1 get_max_image_tokens: the
  // processor's max_pixels 12845056 over 28 x 28 pixels per merged token
  // (qwen2_5_vl.py reuses it); qwen3_vl.py @v0.11.0: longest_edge 16777216
  // over 32 x 32 pixels.
  if (k == "qwen2_vl" || k == "qwen2_5_vl" || k == "qwen3_vl" || k == "qwen3_vl_moe") {
    return 16384;
  }
  // gemma3_mm.py @v0.10.1: mm_tokens_per_image (256) per image, pan-and-scan off.
  if (k == "siglip") return 256;
  // mistral3.py @v0.10.1 get_num_image_tokens: (image_size / (patch x merge))
  // columns per row plus one break per row.
  if (k == "pixtral" && m.vision_patch_size > 0) {
    const int64_t side = m.vision_image_size / (2 * int64_t{m.vision_patch_size});
    return side * (side + 1);
  }
  // llava.py @v0.10.1: one token per patch (the CLS token dropped).
  if (k == "clip_vision_model" && m.model_type == "llava" && m.vision_patch_size > 0) {
    const int64_t side = m.vision_image_size / m.vision_patch_size;
    return side * side;
  }
  return 0;
}

// The encoder's activation peak on `items` largest images, where vLLM's
// vision model holds its widest set of tensors: a block's residual input and
// norm output (2 x width), the MLP's intermediate tensors, and the pixel
// values, per patch, in the model dtype. The attention runs through
// flash/memory-efficient kernels (no patches^2 matrix). 0 for a tower whose
// shape the model spec does not carry.
int64_t EncoderForwardPeak(const ModelSpec& m, int64_t items, int64_t tokens_per_item) {
  const std::string& k = m.vision_kind;
  const int64_t w = m.vision_hidden_size, i = m.vision_intermediate_size;
  if (w <= 0 || i <= 0 || items <= 0) return 0;
  int64_t patches = 0, live = 0, pixels = 0;  // live and pixels are per patch
  if (k == "qwen2_5_vl") {
    // qwen2_5_vl.py @v0.10.1 Qwen2_5_VisionMLP: gate_up [2i], SiluAndMul [i];
    // a 2 x 2 merge (28 x 28 px per text token), 3 x 2 x 14 x 14 pixel values.
    patches = items * tokens_per_item * 4;
    live = 2 * w + 3 * i;
    pixels = 3 * 2 * 14 * 14;
  } else if (k == "qwen3_vl" || k == "qwen3_vl_moe" || k == "qwen3_5" || k == "qwen3_5_moe") {
    // qwen3_vl.py @v0.11.0 Qwen3_VisionMLP: linear_fc1 [i], its activation [i];
    // a 2 x 2 merge (32 x 32 px per token), 3 x 2 x 16 x 16 pixel values.
    patches = items * tokens_per_item * 4;
    live = 2 * w + 2 * i;
    pixels = 3 * 2 * 16 * 16;
  } else if (k == "siglip" && m.vision_patch_size > 0) {
    // siglip.py @v0.10.1 SiglipMLP fc1 [i] + activation [i], every patch of the
    // image (gemma3_mm.py pools them to mm_tokens_per_image afterwards).
    const int64_t side = m.vision_image_size / m.vision_patch_size;
    patches = items * side * side;
    live = 2 * w + 2 * i;
    pixels = int64_t{m.vision_num_channels} * m.vision_patch_size * m.vision_patch_size;
  } else {
    return 0;
  }
  const std::string_view what = "the encoder's profiling peak";
  return CheckedMul(CheckedMul(patches, live + pixels, what), m.dtype_bytes, what);
}

std::string Lowered(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

}  // namespace

namespace {

InputError BadImageLimit(const std::string& text, const char* why) {
  return InputError(
      fmt::format("--limit-mm-per-prompt {}: {} (expected JSON such as '{{\"image\": 2}}' or "
                  "'{{\"image\": {{\"count\": 2}}}}', or image=2,video=1)",
                  QuoteForError(text), why));
}

// A count of items: a whole number from 0 (vLLM's MultiModalConfig takes ints).
int64_t ImageCountOf(const nlohmann::json& v, const std::string& text) {
  const nlohmann::json& n = v.is_object() && v.contains("count") ? v.at("count") : v;
  if (n.is_number_unsigned() && n.get<uint64_t>() <= 1000000000) {
    return static_cast<int64_t>(n.get<uint64_t>());
  }
  if (n.is_number_integer() && n.get<int64_t>() >= 0 && n.get<int64_t>() <= 1000000000) {
    return n.get<int64_t>();
  }
  throw BadImageLimit(text, "the image count must be a whole number from 0 to 10^9");
}

}  // namespace

// vllm/engine/arg_utils.py: a JSON object per modality (newer releases; a
// modality's value may be an object with "count"), or key=value pairs (older
// releases' "image=2,video=1").
std::optional<int64_t> VllmImageLimit(const std::string& text) {
  if (text.empty()) return std::nullopt;
  if (text.find('{') != std::string::npos) {
    const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (!j.is_object()) throw BadImageLimit(text, "not a JSON object");
    if (!j.contains("image")) return std::nullopt;
    return ImageCountOf(j.at("image"), text);
  }
  std::optional<int64_t> image;
  size_t from = 0;
  while (from <= text.size()) {
    size_t comma = text.find(',', from);
    if (comma == std::string::npos) comma = text.size();
    const std::string item = text.substr(from, comma - from);
    const size_t eq = item.find('=');
    if (eq == std::string::npos || eq == 0) throw BadImageLimit(text, "an item is not key=N");
    const std::string value = item.substr(eq + 1);
    if (value.empty() || value.size() > 9 ||
        value.find_first_not_of("0123456789") != std::string::npos) {
      throw BadImageLimit(text, "the count must be a whole number from 0 to 10^9");
    }
    if (Lowered(item.substr(0, eq)) == "image") image = std::stoll(value);
    from = comma + 1;
  }
  return image;
}

VllmEncoderBudget VllmEncoderBudgetOf(const ModelSpec& m, const VllmArgs& a, int64_t mnbt,
                                      int64_t max_num_seqs) {
  VllmEncoderBudget b;
  if (!m.multimodal) return b;
  b.max_tokens_per_item = MaxImageTokens(m);
  // The default limit is 999 per modality in V1 (vllm/config.py @v0.10.1
  // MultiModalConfig); an image limit of 0 disables the encoder budget.
  const int64_t per_prompt = VllmImageLimit(a.limit_mm_per_prompt).value_or(999);
  if (b.max_tokens_per_item <= 0) {
    b.rule = "the largest image of this vision tower is not modelled";
    return b;
  }
  if (per_prompt == 0) {
    b.rule = "--limit-mm-per-prompt disables images: no encoder budget";
    return b;
  }
  b.active = true;
  // v1/core/encoder_cache_manager.py @v0.10.1 compute_encoder_budget: both the
  // compute budget and the cache hold at least one largest item.
  b.compute_budget = std::max(mnbt, b.max_tokens_per_item);
  b.cache_size = b.compute_budget;
  // v1/worker/gpu_model_runner.py @v0.10.1 profile_run: as many largest images
  // as the encoder budget holds (at least one, at most max_num_seqs x the
  // limit); their outputs (text hidden x dtype per token) stay in the encoder
  // cache while the text model's dummy run is profiled.
  b.profile_items = std::max<int64_t>(
      1, std::min(b.compute_budget / b.max_tokens_per_item, max_num_seqs * per_prompt));
  const std::string_view what = "the encoder's profiling outputs";
  b.profile_output_bytes = CheckedMul(CheckedMul(b.profile_items, b.max_tokens_per_item, what),
                                      int64_t{m.hidden_size} * m.dtype_bytes, what);
  b.encoder_peak_bytes = EncoderForwardPeak(m, b.profile_items, b.max_tokens_per_item);
  b.rule = fmt::format("{} image(s) of {} tokens, encoder budget max({}, {})", b.profile_items,
                       b.max_tokens_per_item, mnbt, b.max_tokens_per_item);
  return b;
}

int64_t VllmProfileActivation(int64_t text_peak, const VllmEncoderBudget& b) {
  // v1/worker/gpu_model_runner.py @v0.10.1 profile_run: the dummy images are
  // encoded (self.model.get_multimodal_embeddings), the outputs cached in
  // self.encoder_cache, then _dummy_run(max_num_tokens) profiles the text model;
  // gpu_worker.py reads the torch peak over both.
  const int64_t text_phase = CheckedAdd(text_peak, b.profile_output_bytes, "the profile peak");
  return std::max(text_phase, b.encoder_peak_bytes);
}

int64_t VllmEncoderWeightsOvercount(const WeightEstimate& w, const VllmArgs& a) {
  // --mm-encoder-tp-mode (vllm/config.py @v0.11.0 MultiModalConfig, default
  // "weights"): the vision tower's parallel linear layers split over TP; its
  // norms and position tables (under 1 %) are taken as split too.
  if (a.tp <= 1 || a.mm_encoder_tp_mode == "data") return 0;
  for (const WeightPart& p : w.parts) {
    if (p.name == "vision tower") return p.bytes_per_rank - p.bytes_per_rank / a.tp;
  }
  return 0;
}

}  // namespace kvplan
