// The SGLang tests' models and GPUs (testing/test_models.h) and the two
// free-memory figures SGLang measures at start-up.
#pragma once

#include "base/units.h"
#include "engines/sglang/sglang.h"
#include "testing/test_models.h"

namespace kvplan::testing {

// A hand-built Qwen3-style GQA geometry, for a model the catalog lacks; the
// SGLang planner needs neither the MLP width nor the vocabulary.
inline ModelSpec Gqa(const char* id, int layers, int heads, int kv_heads, int head_dim, int hidden,
                     int64_t max_pos) {
  ModelSpec m = Gqa(std::string(id), layers, heads, kv_heads, head_dim, hidden, 0, 0, max_pos);
  m.architecture = "Qwen3ForCausalLM";
  return m;
}

// The two free-memory figures SGLang measures, as a log prints them (GiB).
inline SglangMeasured Measured(double pre_gib, double post_gib) {
  SglangMeasured m;
  m.pre_load_free_bytes = GiBToBytes(pre_gib);
  m.post_load_free_bytes = GiBToBytes(post_gib);
  return m;
}

}  // namespace kvplan::testing
