// For the SGLang cell tests: one row of a table of (model, launch, release) and the cell
// figures SGLang derives for it, each row's hand computation in a comment above it.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "engines/sglang/cell.h"
#include "engines/sglang/era.h"
#include "testing/stated_figure.h"

namespace kvplan::testing {

// The figures a row states; a figure left unset is not checked.
struct SglangCellRow {
  std::string name{};
  ModelSpec model{};
  int tp = 1;
  const SglangEra* era = nullptr;
  int64_t version_key = 0;
  std::optional<int> hybrid_mode{}, layers{}, kv_heads_per_rank{}, n_full{}, n_swa{};
  std::optional<int64_t> bytes{}, per_layer_bytes{}, swa_layer_bytes{};
  std::optional<double> hybrid_divisor{};
};

// SglangCellSize for the row's model at its TP (no draft), against every figure it states.
inline void ExpectSglangCell(const SglangCellRow& row) {
  SCOPED_TRACE(row.name);
  SglangArgs a;
  a.tp = row.tp;
  const SglangCell c = SglangCellSize(*row.era, row.version_key, row.model, a, nullptr);
  ExpectStated("hybrid_mode", c.hybrid_mode, row.hybrid_mode);
  ExpectStated("layers", c.layers, row.layers);
  ExpectStated("kv_heads_per_rank", c.kv_heads_per_rank, row.kv_heads_per_rank);
  ExpectStated("bytes", c.bytes, row.bytes);
  ExpectStated("per_layer_bytes", c.per_layer_bytes, row.per_layer_bytes);
  ExpectStated("swa_layer_bytes", c.swa_layer_bytes, row.swa_layer_bytes);
  ExpectStated("n_full", c.n_full, row.n_full);
  ExpectStated("n_swa", c.n_swa, row.n_swa);
  ExpectStated("hybrid_divisor", c.hybrid_divisor, row.hybrid_divisor);
}

}  // namespace kvplan::testing
