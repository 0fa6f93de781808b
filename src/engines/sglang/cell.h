// SGLang's KV bytes per token per rank (cell_size) and how it splits the
// pool between full and sliding-window layers.
#pragma once

#include <cstdint>
#include <string>

#include "engines/sglang/dsv4_pool.h"
#include "engines/sglang/era.h"
#include "engines/sglang/sglang.h"

namespace kvplan {

struct SglangCell {
  int64_t bytes = 0;          // bytes per token per rank, as the engine divides by
  int kv_heads_per_rank = 0;  // GQA; 0 for MLA
  int layers = 0;             // layers counted
  int elem_bytes = 2;         // KV element size
  bool mla = false;
  // Hybrid sliding-window pool: 0 none; 1 the v0.5.x split of an all-layer
  // cell; 2 the 2026 per-kind cell, where tokens = budget // divisor with
  // divisor = F*(n_full + draft_full) + r*S*n_swa; 3 DeepSeek-V4's pools, tokens =
  // (budget - dsv4.c128_state_bytes) / dsv4.bytes_per_full_token (engines/sglang/dsv4_pool.h).
  int hybrid_mode = 0;
  int n_full = 0, n_swa = 0;
  double swa_ratio = 0;
  double hybrid_divisor = 0;
  // The terms, for the formula text.
  int64_t per_layer_bytes = 0;  // GQA: kv heads/rank * (head_dim + v_head_dim) * elem
  int64_t swa_layer_bytes = 0;  // the same for a sliding layer (MiMo-V2-Flash: its own heads)
  int64_t base_bytes = 0;       // before the indexer and the draft layers
  int64_t indexer_bytes = 0;    // DSA indexer cache (#11309)
  bool dsa_fp8_layout = false;  // DSA/NSA fp8 latent + scales + bf16 rope
  int draft_layers = 0;         // draft layers budgeted in the cell (#23862)
  SglangDsv4Pool dsv4;          // hybrid_mode 3
};

// KV element bytes for --kv-cache-dtype ("auto" is the model's dtype: an FP8
// checkpoint still gets a bf16 cache; the planner resolves the DSA exception
// before calling this). Throws InputError for unknown dtypes.
int SglangKvElementBytes(const std::string& kv_cache_dtype, const ModelSpec& model);

// Architectures that get SGLang's hybrid sliding-window pool in this mode
// (model_config.py hybrid_swa_archs; Gemma-2/3 are sized as full attention).
bool SglangUsesHybridSwa(const ModelSpec& model, int swa_mode);

// The largest PP stage's layer count under SGLang's partition.
int SglangStageLayers(int num_layers, int pp);

SglangCell SglangCellSize(const SglangEra& era, int64_t version, const ModelSpec& model,
                          const SglangArgs& args, const ModelSpec* draft);

// The cell size with its numbers, for the cell_size stage.
std::string SglangCellFormula(const SglangCell& cell, const ModelSpec& model);

}  // namespace kvplan
