#include "engines/sglang/cell.h"

#include <algorithm>

#include <fmt/core.h>

#include "catalog/layer_geometry.h"
#include "engines/sglang/dsa_overrides.h"
#include "engines/sglang/speculative.h"
#include "kvplan/error.h"

namespace kvplan {

int SglangKvElementBytes(const std::string& dtype, const ModelSpec& model) {
  // model_runner.py @v0.5.3: kv_cache_dtype "auto" takes the model dtype, not
  // the checkpoint's quantization.
  if (dtype == "auto") return model.dtype_bytes;
  if (dtype == "bf16" || dtype == "bfloat16" || dtype == "fp16" || dtype == "float16") return 2;
  if (dtype == "fp8_e4m3" || dtype == "fp8_e5m2" || dtype == "fp8") return 1;
  if (dtype == "fp32" || dtype == "float32") return 4;
  throw InputError(fmt::format(
      "unknown --kv-cache-dtype '{}' (expected auto, bf16, fp8_e4m3, fp8_e5m2)", dtype));
}

int SglangStageLayers(int num_layers, int pp) {
  // distributed/utils.py get_pp_indices: even split, the remainder to the
  // last stages; the largest stage has ceil(L / pp).
  return (num_layers + pp - 1) / pp;
}

bool SglangUsesHybridSwa(const ModelSpec& m, int swa_mode) {
  if (swa_mode == 0) return false;
  if (m.NumLayersOfKind(LayerKind::kSliding) == 0) return false;
  const std::string& arch = m.architecture;
  // configs/model_config.py: hybrid_swa_archs; v0.5.5/6 still disable it for
  // GPT-OSS, the 2026 pool configurator sizes GPT-OSS as hybrid.
  if (arch == "Llama4ForConditionalGeneration" || arch == "MiMoV2FlashForCausalLM" ||
      arch == "Step3p5ForCausalLM") {
    return true;
  }
  // gemma: model_config.py hybrid_swa_archs lists Gemma-4 since it was added (#21952,
  // 2026-04-02; engine_support.cc refuses older releases): its sliding layers get the SWA pool.
  if (arch == "Gemma4ForConditionalGeneration" || arch == "Gemma4ForCausalLM") return true;
  return arch == "GptOssForCausalLM" && swa_mode == 2;
}

namespace {

int DraftLayers(const ModelSpec& model, const ModelSpec* draft, const std::string& algo) {
  // pool_configurator.py @main 2026-08: num_nextn_predict_layers if present,
  // else the draft config's own layer count.
  if (algo == "NEXTN" || (algo == "EAGLE" && draft == nullptr)) {
    return std::max(1, model.num_nextn_predict_layers);
  }
  if (draft == nullptr) return 0;
  return draft->num_nextn_predict_layers > 0 ? draft->num_nextn_predict_layers : draft->num_layers;
}

// model_runner.py: (kv_lora_rank + qk_rope_head_dim) * layers * kv_size, not split by TP
void MlaCell(int64_t version, const ModelSpec& model, SglangCell* c) {
  c->mla = true;
  int64_t dim = model.kv_lora_rank + model.qk_rope_head_dim;
  if (model.index_head_dim > 0 && c->elem_bytes == 1) {
    // DSA/NSA fp8 layout (#11309): latent + scales + bf16 rope
    c->dsa_fp8_layout = true;
    dim = model.kv_lora_rank + model.kv_lora_rank / 128 * 4 + model.qk_rope_head_dim * 2;
  }
  c->base_bytes = dim * c->layers * c->elem_bytes;
  c->bytes = c->base_bytes;
  const SglangDsaRow* dsa = SglangDsaRowFor(version);
  if (model.index_head_dim > 0 && dsa != nullptr && dsa->indexer_in_cell) {
    // #11309 (2025-10-08): the indexer cache is in the budget (dsa_overrides.cc, by release).
    c->indexer_bytes = (model.index_head_dim + model.index_head_dim / 128 * 4) * c->layers;
    c->bytes += c->indexer_bytes;
  }
}

// SGLang sizes every layer of a kind with one geometry: model_config.py
// get_num_kv_heads / head_dim for full layers, get_swa_num_kv_heads /
// swa_head_dim / swa_v_head_dim for sliding ones (@v0.5.7); DeciLM's count is
// the set of its attention blocks' counts, refused when they differ
// (get_total_num_kv_heads, "Variable GQA (VGQA) ..."). The layer of that kind
// whose geometry it reads; -1 (the model-level fields) when there is none.
int SglangKindLayer(const ModelSpec& m, LayerKind kind) {
  int first = -1;
  for (int i = 0; i < m.num_layers; ++i) {
    const LayerKind k =
        i < static_cast<int>(m.layer_kinds.size()) ? m.layer_kinds[i] : LayerKind::kFull;
    const bool same_kind = k == kind || (kind == LayerKind::kFull && k != LayerKind::kSliding &&
                                         k != LayerKind::kLinear);
    if (!same_kind || !LayerHoldsKv(m, i)) continue;
    if (first < 0) {
      first = i;
      continue;
    }
    if (LayerKvElementsPerToken(m, i, 1) == LayerKvElementsPerToken(m, first, 1)) continue;
    if (m.model_type == "nemotron-nas") {
      throw InputError(
          "SGLang: Variable GQA (VGQA) is not yet supported for nemotron-nas in sglang");
    }
    throw InputError(m.architecture +
                     ": its layers of one kind have different KV geometries, which SGLang's one "
                     "pool per kind does not hold (kvplan does not model it)");
  }
  return first;
}

// Grouped-query attention; returns false when the cell is final (the 2026
// hybrid pool, whose divisor already counts the draft layers).
bool GqaCell(const SglangEra& era, const ModelSpec& model, const SglangArgs& a, SglangCell* c) {
  const int attn_tp = a.enable_dp_attention ? a.tp / a.dp : a.tp;
  const int full = SglangKindLayer(model, LayerKind::kFull);
  c->kv_heads_per_rank = KvHeadsPerRank(LayerGeometryAt(model, full).kv_heads, attn_tp);
  c->per_layer_bytes = LayerKvBytesPerToken(model, full, attn_tp, c->elem_bytes);
  c->swa_layer_bytes = c->per_layer_bytes;
  if (SglangUsesHybridSwa(model, era.swa_mode)) {
    c->hybrid_mode = era.swa_mode;
    c->swa_ratio = a.swa_full_tokens_ratio.value_or(0.8);
    // model_config.py get_hybrid_layer_ids (main, 2026): Gemma-4's SWA and full pools take
    // every layer of layer_types, the last num_kv_shared_layers included; gemma4_causal.py
    // gives a sharing layer the source layer's RadixAttention id and save_kv_cache=False, so
    // its own buffers are allocated and never written. kvplan counts them as SGLang does.
    c->n_full = model.NumLayersOfKind(LayerKind::kFull);
    c->n_swa = model.NumLayersOfKind(LayerKind::kSliding);
    c->swa_layer_bytes = LayerKvBytesPerToken(model, SglangKindLayer(model, LayerKind::kSliding),
                                              attn_tp, c->elem_bytes);
    if (c->hybrid_mode == 1 && c->swa_layer_bytes != c->per_layer_bytes) {
      // v0.5.x set_num_token_hybrid splits one all-layer cell; kvplan has not checked
      // how those releases size sliding layers with their own KV heads.
      throw InputError(model.architecture +
                       ": SGLang's sliding-window pool with per-kind KV heads is modelled from "
                       "v0.5.7 (the per-kind cell, #18039); this release is older");
    }
  }
  if (c->hybrid_mode == 2) {
    // pool_configurator.py HybridSWAPoolConfigurator (#18039, 2026-02):
    // budget // (F*(n_full + draft_full) + r*S*n_swa)
    const double f = static_cast<double>(c->per_layer_bytes);
    const double s = static_cast<double>(c->swa_layer_bytes);
    c->hybrid_divisor = f * (c->n_full + c->draft_layers) + c->swa_ratio * s * c->n_swa;
    c->bytes = static_cast<int64_t>(c->hybrid_divisor);
    return false;
  }
  // memory_pool.py MHATokenToKVPool: one K and one V buffer for each of the
  // layer_num layers, DeciLM's no-op attention layers included, and Gemma-3n's KV-sharing
  // layers too: configs/model_config.py (main, 2026) sets num_attention_layers =
  // num_hidden_layers with no num_kv_shared_layers term.
  c->base_bytes = c->per_layer_bytes * c->layers;
  c->bytes = c->base_bytes;
  return true;
}

}  // namespace

SglangCell SglangCellSize(const SglangEra& era, int64_t version, const ModelSpec& model,
                          const SglangArgs& a, const ModelSpec* draft) {
  SglangCell c;
  c.elem_bytes = SglangKvElementBytes(a.kv_cache_dtype, model);
  // v0.4.6 counts num_hidden_layers; v0.4.7+ the PP-local num_effective_layers.
  int layers = era.pp_local_layers ? SglangStageLayers(model.num_layers, a.pp) : model.num_layers;
  // Linear-attention (mamba) layers hold no per-token KV (v0.5.2+ hybrid GDN).
  const int linear = model.NumLayersOfKind(LayerKind::kLinear);
  if (linear > 0) {
    const int full = model.num_layers - linear;
    layers = era.pp_local_layers ? (full + a.pp - 1) / a.pp : full;
  }
  c.layers = layers;
  if (SglangIsDeepseekV4(model)) {
    c.hybrid_mode = 3, c.mla = true, c.dsv4 = SglangDeepseekV4PoolOf(model, a, layers);
    c.hybrid_divisor = c.dsv4.bytes_per_full_token, c.swa_ratio = c.dsv4.swa_ratio;
    c.bytes = static_cast<int64_t>(c.hybrid_divisor);
    return c;
  }
  const bool has_draft = SglangHasDraft(a.speculative_algorithm);
  c.draft_layers =
      era.draft_kv_in_cell && has_draft ? DraftLayers(model, draft, a.speculative_algorithm) : 0;
  if (model.attention == AttentionKind::kMla) {
    MlaCell(version, model, &c);
  } else if (!GqaCell(era, model, a, &c)) {
    return c;
  }
  if (c.draft_layers > 0) {
    // pool_configurator.py @main (#23862): cell = int(cell * (1 + draft_layers / num_layers)),
    // num_layers being the PP-local effective (full-attention) layers.
    c.bytes = static_cast<int64_t>(static_cast<double>(c.bytes) *
                                   (1.0 + static_cast<double>(c.draft_layers) / layers));
  }
  return c;
}

std::string SglangCellFormula(const SglangCell& c, const ModelSpec& model) {
  std::string f;
  if (c.hybrid_mode == 3) return SglangDeepseekV4Formula(c.dsv4);
  if (c.hybrid_mode == 2) {
    return fmt::format(
        "{} B/layer * ({} full + {} draft layers) + {} * {} B/layer * {} sliding layers = {:.1f}",
        c.per_layer_bytes, c.n_full, c.draft_layers, c.swa_ratio, c.swa_layer_bytes, c.n_swa,
        c.hybrid_divisor);
  }
  if (c.mla) {
    const std::string dim =
        c.dsa_fp8_layout ? fmt::format("({} + {}/128*4 + {}*2)", model.kv_lora_rank,
                                       model.kv_lora_rank, model.qk_rope_head_dim)
                         : fmt::format("({} + {})", model.kv_lora_rank, model.qk_rope_head_dim);
    f = fmt::format("{} * {} layers * {} B = {}", dim, c.layers, c.elem_bytes, c.base_bytes);
    if (c.indexer_bytes > 0) {
      f += fmt::format(" + indexer ({} + {}/128*4) * {} = {}", model.index_head_dim,
                       model.index_head_dim, c.layers, c.base_bytes + c.indexer_bytes);
    }
  } else {
    f = fmt::format("{} kv heads/rank * ({} + {}) * {} layers * {} B = {}", c.kv_heads_per_rank,
                    model.head_dim, model.v_head_dim, c.layers, c.elem_bytes, c.base_bytes);
  }
  if (c.draft_layers > 0) {
    f += fmt::format("; with the draft: int({} * (1 + {}/{})) = {}", c.base_bytes + c.indexer_bytes,
                     c.draft_layers, c.layers, c.bytes);
  }
  return f;
}

}  // namespace kvplan
