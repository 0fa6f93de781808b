#include "catalog/layer_geometry.h"

#include <algorithm>

namespace kvplan {

LayerGeometry LayerGeometryAt(const ModelSpec& m, int layer) {
  LayerGeometry g;
  if (layer >= 0 && static_cast<size_t>(layer) < m.layer_geometry.size()) {
    g = m.layer_geometry[static_cast<size_t>(layer)];
  }
  if (g.q_heads <= 0) g.q_heads = m.num_attention_heads;
  if (g.kv_heads <= 0) g.kv_heads = m.num_kv_heads;
  if (g.head_dim <= 0) g.head_dim = m.head_dim;
  if (g.v_head_dim <= 0) g.v_head_dim = m.v_head_dim > 0 ? m.v_head_dim : g.head_dim;
  if (g.mlp_intermediate < 0) g.mlp_intermediate = m.intermediate_size;
  const bool linear = layer >= 0 && static_cast<size_t>(layer) < m.layer_kinds.size() &&
                      m.layer_kinds[static_cast<size_t>(layer)] == LayerKind::kLinear;
  if (linear) g.kv = LayerKv::kNone;
  return g;
}

bool HasPerLayerGeometry(const ModelSpec& m) { return !m.layer_geometry.empty(); }

bool LayerHoldsKv(const ModelSpec& m, int layer) {
  return LayerGeometryAt(m, layer).kv == LayerKv::kOwn;
}

bool LayerHasAttention(const ModelSpec& m, int layer) {
  if (layer < 0 || static_cast<size_t>(layer) >= m.layer_geometry.size()) return true;
  return m.layer_geometry[static_cast<size_t>(layer)].kv != LayerKv::kNone;
}

int KvHeadsPerRank(int kv_heads, int attention_tp) {
  return std::max(1, kv_heads / std::max(1, attention_tp));
}

int64_t LayerKvElementsPerToken(const ModelSpec& m, int layer, int attention_tp) {
  const LayerGeometry g = LayerGeometryAt(m, layer);
  if (g.kv != LayerKv::kOwn) return 0;
  if (m.attention == AttentionKind::kMla) {
    return int64_t{m.kv_lora_rank} + m.qk_rope_head_dim;
  }
  return int64_t{KvHeadsPerRank(g.kv_heads, attention_tp)} * (g.head_dim + g.v_head_dim);
}

int64_t LayerKvBytesPerToken(const ModelSpec& m, int layer, int attention_tp, int elem_bytes) {
  return LayerKvElementsPerToken(m, layer, attention_tp) * elem_bytes;
}

int64_t KvBytesPerTokenOfLayers(const ModelSpec& m, int begin, int end, int attention_tp,
                                int elem_bytes) {
  int64_t sum = 0;
  for (int i = begin; i < end; ++i) sum += LayerKvBytesPerToken(m, i, attention_tp, elem_bytes);
  return sum;
}

int NumKvLayers(const ModelSpec& m, int begin, int end) {
  int n = 0;
  for (int i = begin; i < end; ++i) n += LayerHoldsKv(m, i) ? 1 : 0;
  return n;
}

std::vector<int> PipelineStageLayers(int num_layers, int pp) {
  pp = std::max(1, pp);
  std::vector<int> layers(static_cast<size_t>(pp), num_layers / pp);
  const int remaining = num_layers % pp;
  for (int i = 2; i < remaining + 2; ++i) layers[static_cast<size_t>(pp - i)] += 1;
  return layers;
}

}  // namespace kvplan
