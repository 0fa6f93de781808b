#include "explain/stand_in_model.h"

#include <algorithm>

namespace kvplan {

ModelSpec StandInModel(const std::string& id, int64_t cell_bytes_per_rank, int elem_bytes,
                       int attention_tp, int pp, int64_t context_length) {
  ModelSpec m;
  m.id = id;
  m.torch_dtype = elem_bytes >= 4 ? "float32" : "bfloat16";
  m.dtype_bytes = std::max(2, elem_bytes);
  m.num_layers = std::max(1, pp);
  m.layer_kinds.assign(static_cast<size_t>(m.num_layers), LayerKind::kFull);
  m.num_kv_heads = m.num_attention_heads = std::max(1, attention_tp);
  // K and V of head_dim each: cell = 1 head x 2 x head_dim x elem per stage layer.
  m.head_dim = m.v_head_dim = static_cast<int>(cell_bytes_per_rank / (2 * std::max(1, elem_bytes)));
  m.hidden_size = m.head_dim * m.num_attention_heads;
  m.max_position_embeddings = context_length;
  return m;
}

}  // namespace kvplan
