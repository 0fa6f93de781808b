// GemmaLayerTensors / GemmaModelTensors: shapes as vLLM's gemma3n.py (v0.10.0) and
// gemma4.py build them; SGLang's gemma3n_causal.py and gemma4_causal.py hold the same.
#include "catalog/gemma_weights.h"

namespace kvplan {

std::vector<GemmaTensor> GemmaLayerTensors(const ModelSpec& m) {
  std::vector<GemmaTensor> t;
  const int64_t h = m.hidden_size;
  // gemma4.py Gemma4MoE: per_expert_scale, one per routed expert.
  if (m.expert_scales) t.push_back({GemmaPart::kRouter, m.num_experts, 1});
  // per_layer_input_gate (hidden -> per-layer width) and per_layer_projection back,
  // ReplicatedLinear in both engines (the per-layer input cannot be sharded).
  if (m.per_layer_input_size > 0) {
    t.push_back({GemmaPart::kPerLayerInput, m.per_layer_input_size, h});
    t.push_back({GemmaPart::kPerLayerInput, h, m.per_layer_input_size});
  }
  // gemma3n.py Gemma3nAltUp: correction_coefs n x n, prediction_coefs n^2 x n,
  // modality_router n x hidden, all ReplicatedLinear.
  if (const int64_t n = m.altup_num_inputs; n > 0) {
    t.push_back({GemmaPart::kAltupLaurel, n, n});
    t.push_back({GemmaPart::kAltupLaurel, n * n, n});
    t.push_back({GemmaPart::kAltupLaurel, n, h});
  }
  // gemma3n.py Gemma3nLaurelBlock: linear_left (column-) and linear_right (row-parallel).
  if (m.laurel_rank > 0) {
    t.push_back({GemmaPart::kAltupLaurel, m.laurel_rank, h, GemmaSplit::kTp});
    t.push_back({GemmaPart::kAltupLaurel, h, m.laurel_rank, GemmaSplit::kTp});
  }
  return t;
}

std::vector<GemmaTensor> GemmaModelTensors(const ModelSpec& m) {
  std::vector<GemmaTensor> t;
  const int64_t h = m.hidden_size;
  if (m.per_layer_input_size > 0) {
    const int64_t width = int64_t{m.num_layers} * m.per_layer_input_size;
    // embed_tokens_per_layer (VocabParallelEmbedding), per_layer_model_projection
    // (ColumnParallelLinear), per_layer_projection_norm.
    t.push_back({GemmaPart::kPerLayerInput, m.per_layer_vocab_size, width, GemmaSplit::kVocab});
    t.push_back({GemmaPart::kPerLayerInput, width, h, GemmaSplit::kTp});
    t.push_back({GemmaPart::kPerLayerInput, m.per_layer_input_size, 1});
  }
  // gemma3n.py Gemma3nTextModel: altup_projections and altup_unembed_projections,
  // n - 1 of each, hidden x hidden ColumnParallelLinear.
  for (int i = 1; i < m.altup_num_inputs; ++i) {
    t.push_back({GemmaPart::kAltupLaurel, h, h, GemmaSplit::kTp});
    t.push_back({GemmaPart::kAltupLaurel, h, h, GemmaSplit::kTp});
  }
  return t;
}

}  // namespace kvplan
