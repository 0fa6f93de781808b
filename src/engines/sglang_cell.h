// SGLang's KV bytes per token per rank (cell_size) and how it splits the
// pool between full and sliding-window layers.
#pragma once

#include <cstdint>
#include <string>

#include "engines/sglang.h"
#include "engines/sglang_era.h"

namespace kvplan {

struct SglangCell {
  int64_t bytes = 0;          // bytes per token per rank, as the engine divides by
  std::string formula;        // with numbers
  int kv_heads_per_rank = 0;  // GQA; 0 for MLA
  int layers = 0;             // layers counted
  int elem_bytes = 2;         // KV element size
  bool mla = false;
  // Hybrid sliding-window pools (swa_mode 2): bytes per full-layer token and
  // per sliding-layer token, and the ratio of sliding to full tokens.
  bool hybrid_swa = false;
  int64_t full_bytes = 0;  // F * n_full
  int64_t swa_bytes = 0;   // S * n_swa
  double swa_ratio = 0;
};

// KV element bytes for --kv-cache-dtype ("auto" is the model's dtype: an FP8
// checkpoint still gets a bf16 cache). Throws InputError for unknown dtypes.
int SglangKvElementBytes(const std::string& kv_cache_dtype, const ModelSpec& model);

// The largest PP stage's layer count under SGLang's partition.
int SglangStageLayers(int num_layers, int pp);

SglangCell SglangCellSize(const SglangEra& era, int64_t version, const ModelSpec& model,
                          const SglangArgs& args, const ModelSpec* draft);

}  // namespace kvplan
