// For the vLLM KV-spec tests: one row of a table of (model, TP) and the KV-cache spec vLLM
// builds for it, each row's hand computation in a comment above it.
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engines/vllm/kv_spec.h"
#include "testing/stated_figure.h"

namespace kvplan::testing {

// One layer's spec as a row states it (unset: not checked).
struct VllmKvLayerExpect {
  size_t index = 0;
  std::optional<int64_t> bytes_per_token{}, block_size{};
};

// VllmLayerMaxMemory of one layer for a request of max_model_len.
struct VllmLayerMaxMemoryExpect {
  size_t index = 0;
  int64_t max_model_len = 0, max_num_batched_tokens = 0, bytes = 0;
};

// The figures a row states; a figure left unset is not checked.
struct VllmKvSpecRow {
  std::string name{};
  ModelSpec model{};
  int tp = 1;
  std::optional<size_t> layers{};  // layers with a spec; checked first, the others index them
  std::optional<bool> hybrid{};
  std::optional<int64_t> bytes_per_token_all_layers{}, page_bytes{};
  std::vector<VllmKvLayerExpect> layer_specs{};
  std::optional<int> group_size{}, num_groups{}, padding_layers{};
  std::optional<VllmLayerMaxMemoryExpect> layer_max_memory{};
};

// BuildVllmKvSpec for the row's model at its TP (the other options vLLM's defaults), against
// every figure it states.
inline void ExpectVllmKvSpec(const VllmKvSpecRow& row) {
  SCOPED_TRACE(row.name);
  VllmKvOptions o;
  o.tp = row.tp;
  const VllmKvSpec s = BuildVllmKvSpec(row.model, o);
  if (row.layers) {
    ASSERT_EQ(s.layers.size(), *row.layers);
  }
  ExpectStated("hybrid", s.hybrid, row.hybrid);
  ExpectStated("bytes_per_token_all_layers", s.BytesPerTokenAllLayers(),
               row.bytes_per_token_all_layers);
  ExpectStated("page_bytes", s.page_bytes, row.page_bytes);
  for (const VllmKvLayerExpect& l : row.layer_specs) {
    ASSERT_LT(l.index, s.layers.size());
    ExpectStated("layer bytes_per_token", s.layers[l.index].bytes_per_token, l.bytes_per_token);
    ExpectStated("layer block_size", s.layers[l.index].block_size, l.block_size);
  }
  ExpectStated("group_size", s.group_size, row.group_size);
  ExpectStated("num_groups", s.num_groups, row.num_groups);
  ExpectStated("padding_layers", s.padding_layers, row.padding_layers);
  if (const auto& m = row.layer_max_memory) {
    ASSERT_LT(m->index, s.layers.size());
    EXPECT_EQ(
        VllmLayerMaxMemory(s, s.layers[m->index], m->max_model_len, m->max_num_batched_tokens),
        m->bytes);
  }
}

}  // namespace kvplan::testing
